import { connect, createServer, type Socket } from 'node:net';

/** PostgreSQL's reply to a COMMIT that was carried out: CommandComplete ('C', length 11) "COMMIT\0". */
const COMMIT_DONE = Buffer.from([0x43, 0, 0, 0, 11, ...Buffer.from('COMMIT'), 0]);
/** A client's COMMIT as a simple query (how the runner sends it): Query ('Q', length 11) "COMMIT\0". */
const COMMIT_SENT = Buffer.from([0x51, 0, 0, 0, 11, ...Buffer.from('COMMIT'), 0]);

export interface CommitCuttingProxy {
  /** The database's URL, through the proxy. */
  url: string;
  /**
   * Arms the proxy: the next COMMIT the server carries out is written, and its reply never reaches
   * the client: the connection is cut instead, as a network failure at the worst moment would.
   * With `then`, the server is away from that moment for `awayMs` (as with `outage`), so a read of
   * whether the commit landed fails too. Resolves when that happened.
   */
  cutNextCommitReply(then?: { awayMs: number }): Promise<void>;
  /**
   * Arms the proxy: the next COMMIT a client sends never reaches the server (which rolls the
   * transaction back when the connection is cut). The client sees the same lost connection as
   * with `cutNextCommitReply`, but nothing was written. Resolves when that happened.
   */
  loseNextCommit(): Promise<void>;
  /**
   * Arms the proxy: the next message a client sends that holds `text` (a statement the connection
   * prepares or sends for the first time) never reaches the server, and the connection is cut, as
   * a restart or failover of the server would cut it in the middle of a transaction: nothing of
   * the transaction is written. Resolves when that happened.
   */
  cutAtStatement(text: string): Promise<void>;
  /**
   * Arms the proxy: the next message a client sends that holds `text` reaches the server, which
   * carries it out, and its reply never reaches the client: the connection is cut instead.
   * Resolves when that happened.
   */
  cutReplyTo(text: string): Promise<void>;
  /**
   * Cuts every connection and, for `ms`, refuses new ones (`'refused'`: connecting gets
   * ECONNREFUSED, as a server that restarts does), cuts each at once (`'cut'`: as a balancer in
   * front of one does) or answers each with PgBouncer's FATAL 08P01 "cannot connect to server"
   * (`'bouncer'`); then passes connections on again. Resolves when it does.
   */
  outage(ms: number, how?: 'refused' | 'cut' | 'bouncer'): Promise<void>;
  close(): Promise<void>;
}

/** PgBouncer's answer to a new connection while its server is away: ErrorResponse, FATAL 08P01. */
const BOUNCER_CANNOT_CONNECT = (() => {
  const fields = Buffer.concat([
    ...[
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '08P01'],
      ['M', 'pgbouncer cannot connect to server'],
    ].map(([type, text]) => Buffer.from(`${type}${text}\0`)),
    Buffer.from([0]),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(fields.length + 4);
  return Buffer.concat([Buffer.from('E'), length, fields]);
})();

/** What the proxy may be armed for (see `CommitCuttingProxy`). */
type Fault = 'sent' | 'done' | 'statement' | 'reply';

/** A watch for `pattern` in a stream read in chunks (a message may be split across reads). */
function watch(pattern: Buffer) {
  let tail = Buffer.alloc(0);
  return (chunk: Buffer) => {
    const seen = Buffer.concat([tail, chunk]);
    // Less than the whole pattern is kept: a match seen once is never seen again in the next read.
    tail = seen.subarray(Math.max(0, seen.length - (pattern.length - 1)));
    return seen.includes(pattern);
  };
}

/**
 * A TCP proxy on 127.0.0.1 in front of the PostgreSQL server of `url`, passing every byte both ways
 * until it is told to lose a COMMIT, its reply, or a statement.
 */
export async function startCommitCuttingProxy(url: string): Promise<CommitCuttingProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  // What the proxy waits for, once: a COMMIT the client sends, the server's reply to one, or a
  // statement holding `text` (cut before the server gets it, or after it answered).
  const armed: Partial<Record<Fault, { done: () => void; text?: Buffer }>> = {};
  const holds = (fault: 'statement' | 'reply', chunk: Buffer) => armed[fault]?.text !== undefined && chunk.includes(armed[fault].text);
  const take = (what: Fault) => {
    const done = armed[what]?.done;
    armed[what] = undefined;
    return done;
  };
  // During an outage of new connections cut or answered as by PgBouncer; once closed, never listening again.
  let away: 'cut' | 'bouncer' | undefined;
  let ended = false;
  const server = createServer((client) => {
    if (away === 'cut') return void client.destroy();
    if (away === 'bouncer') return void client.once('data', () => client.end(BOUNCER_CANNOT_CONNECT));
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    // A statement passed on whose reply is to be lost (`cutReplyTo`): the next the server sends here.
    let losingReply: (() => void) | undefined;
    /** Passes a chunk on to `to`, unless it holds what the proxy is armed for: then the connection is cut. */
    const pass = (to: Socket, holds: (chunk: Buffer) => Fault | undefined) => (chunk: Buffer) => {
      // Every chunk is looked at (the watch keeps the end of the last one), armed or not.
      const fault = holds(chunk);
      const done = fault ? take(fault) : undefined;
      if (!done) return void to.write(chunk);
      if (fault === 'reply') {
        to.write(chunk);
        losingReply = done;
        return;
      }
      cut();
      done();
    };
    const commitSent = watch(COMMIT_SENT);
    client.on(
      'data',
      pass(
        upstream,
        // A statement is looked for in one chunk: the driver writes each message whole.
        (chunk) =>
          commitSent(chunk) && armed.sent ? 'sent' : holds('statement', chunk) ? 'statement' : holds('reply', chunk) ? 'reply' : undefined,
      ),
    );
    const commitDone = watch(COMMIT_DONE);
    const toClient = pass(client, (chunk) => (commitDone(chunk) ? 'done' : undefined));
    upstream.on('data', (chunk: Buffer) => {
      const done = losingReply;
      if (!done) return toClient(chunk);
      losingReply = undefined;
      cut();
      done();
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
  const port = (server.address() as { port: number }).port;
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String(port);
  const proxy: CommitCuttingProxy = {
    url: through.toString(),
    cutNextCommitReply: (then) =>
      new Promise<void>((resolve) => {
        // With `then`, the server is away from that moment (as with `outage`), before anyone can check.
        armed.done = {
          done: () => {
            if (then) void proxy.outage(then.awayMs);
            resolve();
          },
        };
      }),
    loseNextCommit: () => new Promise<void>((resolve) => (armed.sent = { done: resolve })),
    cutAtStatement: (text) => new Promise<void>((resolve) => (armed.statement = { done: resolve, text: Buffer.from(text) })),
    cutReplyTo: (text) => new Promise<void>((resolve) => (armed.reply = { done: resolve, text: Buffer.from(text) })),
    async outage(ms, how = 'refused') {
      away = how === 'refused' ? undefined : how;
      const closed = how === 'refused' ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
      for (const socket of sockets) socket.destroy();
      await closed;
      await new Promise((resolve) => setTimeout(resolve, ms));
      away = undefined;
      if (how === 'refused' && !ended) await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        ended = true;
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
