import type { Server, ServerResponse } from 'node:http';

/**
 * How a test server shuts down as a deployed one does: it stops taking connections, lets the
 * responses under way finish (an agent's run streaming its last events), then drops what is left
 * after `graceMs` (streams that never end on their own). Dropping a stream a client still reads
 * breaks it mid-body, which a client only sees when its server dies; a suite's teardown must not
 * look like that. Call it once, right after creating the server; it returns the close function.
 */
export function closeGracefully(server: Server, graceMs = 5_000): () => Promise<void> {
  const responses = new Set<ServerResponse>();
  let drained: (() => void) | undefined;
  server.on('request', (_request, response: ServerResponse) => {
    responses.add(response);
    response.once('close', () => {
      responses.delete(response);
      if (responses.size === 0) drained?.();
    });
  });
  return async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    if (responses.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (drained = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    server.closeAllConnections();
    await closed;
  };
}
