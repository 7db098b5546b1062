import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fetch-style handler, as `createInboxHandler` returns (and Next.js route handlers are). */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Serves fetch-style handlers by path over node:http on a loopback port (`port`, or a free one), as a Node app would adapt them. */
export async function serveFetchHandlers(
  routes: Record<string, FetchHandler>,
  { port = 0 }: { port?: number } = {},
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const handler = routes[url.pathname];
      if (!handler) {
        res.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      }
      // The client going away aborts the request, as a fetch-style server does (a stream then ends).
      const aborted = new AbortController();
      res.once('close', () => aborted.abort());
      const method = req.method ?? 'GET';
      const chunks: Buffer[] = [];
      if (method !== 'GET' && method !== 'HEAD') for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const response = await handler(new Request(url, { method, headers, signal: aborted.signal, ...(body ? { body } : {}) }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (!response.body) {
        res.end();
        return;
      }
      // Written as it comes: a server-sent event stream never ends on its own.
      const reader = response.body.getReader();
      res.once('close', () => void reader.cancel().catch(() => {}));
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
