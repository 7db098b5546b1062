import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/**
 * Serves a static build (a Storybook's, say); the query string (a story id) is left to the page,
 * never redirected away.
 */
export function serveStatic(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(dir, path === '/' ? 'index.html' : path);
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(readFileSync(file));
    } catch {
      // A headful browser asks for /favicon.ico by itself, whatever the page links (Storybook's
      // iframe links none): no icon is not a missing file, so it gets no 404 in the console.
      response.writeHead(path === '/favicon.ico' ? 204 : 404).end();
    }
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}
