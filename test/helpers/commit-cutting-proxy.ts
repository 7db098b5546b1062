import { connect, createServer, type Socket } from 'node:net';

/** PostgreSQL's reply to a COMMIT that was carried out: CommandComplete ('C', length 11) "COMMIT\0". */
const COMMIT_DONE = Buffer.from([0x43, 0, 0, 0, 11, ...Buffer.from('COMMIT'), 0]);

export interface CommitCuttingProxy {
  /** The database's URL, through the proxy. */
  url: string;
  /**
   * Arms the proxy: the next COMMIT the server carries out is written, and its reply never reaches
   * the client: the connection is cut instead, as a network failure at the worst moment would.
   * Resolves when that happened.
   */
  cutNextCommitReply(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of the PostgreSQL server of `url`, passing every byte both ways
 * until it is told to lose a COMMIT's reply.
 */
export async function startCommitCuttingProxy(url: string): Promise<CommitCuttingProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let armed: (() => void) | undefined;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let tail = Buffer.alloc(0);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      // The reply may be split across reads: look at the end of the last one too.
      const seen = Buffer.concat([tail, chunk]);
      tail = seen.subarray(Math.max(0, seen.length - COMMIT_DONE.length));
      if (armed && seen.includes(COMMIT_DONE)) {
        const done = armed;
        armed = undefined;
        cut();
        done();
        return;
      }
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', cut);
      socket.on('close', () => {
        sockets.delete(socket);
        cut();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String((server.address() as { port: number }).port);
  return {
    url: through.toString(),
    cutNextCommitReply: () => new Promise<void>((resolve) => (armed = resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
