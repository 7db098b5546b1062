import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy forwarded: which backend served it. */
export interface ProxiedRequest {
  method: string;
  path: string;
  /** Index into the proxy's backends. */
  backend: number;
}

export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request forwarded so far, in arrival order. */
  readonly log: ProxiedRequest[];
  /** The backend the next unpinned request goes to; moves on by one with each such request. */
  next: number;
  close(): Promise<void>;
}

/**
 * A request carrying this header goes to the backend it names (an index), as a device kept on one
 * instance by a sticky load balancer; the header is not forwarded.
 */
export const PIN_HEADER = 'x-test-backend';

/**
 * A load balancer in a few lines, on 127.0.0.1: each request goes to the next backend in turn
 * (responses streamed through, server-sent events included), as several runtime instances behind
 * one address see their traffic. A request with {@link PIN_HEADER} goes where it says.
 */
export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  const log: ProxiedRequest[] = [];
  const proxy = {
    url: '',
    log,
    next: 0,
    close: () => Promise.resolve(),
  };
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const { [PIN_HEADER]: pin, ...headers } = req.headers;
    const pinned = typeof pin === 'string' && /^\d+$/.test(pin) ? Number(pin) % backends.length : undefined;
    const backend = pinned ?? proxy.next % backends.length;
    if (pinned === undefined) proxy.next = (backend + 1) % backends.length;
    log.push({ method: req.method ?? 'GET', path: req.url ?? '/', backend });
    const target = new URL(req.url ?? '/', backends[backend]);
    const upstream = request(target, { method: req.method, headers: { ...headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`proxy: backend ${backend} (${backends[backend]}) failed: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}
