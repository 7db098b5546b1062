import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorMessage } from '../error-message';

/** One parameterised statement. Values are always sent as parameters, never spliced into the SQL. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** The two stores (PostgreSQL server, embedded PGlite) behind one interface and one SQL dialect. */
export interface Database extends Sql {
  /** Runs `work` in one transaction: all of it is written, or none of it. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Where the threads are kept, safe to print (a URL's password is hidden). */
  readonly location: string;
  /** True for a PostgreSQL server (several runner instances may share it). */
  readonly shared: boolean;
  close(): Promise<void>;
}

/**
 * The COMMIT was sent but its reply never came (the connection was lost): the transaction may have
 * been written, or not. Only a read can tell; running it again could write it twice.
 */
export class CommitUnknown extends Error {
  override readonly name = 'CommitUnknown';

  constructor(cause: unknown) {
    super(`the connection was lost while committing (${errorMessage(cause)}); whether the transaction was written is unknown`, { cause });
  }
}

/**
 * The connection broke before the transaction's end (a server restart, a failover, a network cut),
 * or while a statement outside one ran: a transaction was rolled back with it, and nothing of it
 * was written. The store may be reached again on a new connection (see `reconnecting`).
 */
export class ConnectionLost extends Error {
  override readonly name = 'ConnectionLost';

  constructor(cause: unknown) {
    super(errorMessage(cause), { cause });
  }
}

/**
 * Runs `op` again while it fails with `ConnectionLost`, pausing a little longer each time, for at
 * most `STORE_WAIT_MS` in all, and not once `stopped()` (the store is closing): a connection the
 * server dropped is replaced by a new one, and a server that restarts is waited for. `op` must be
 * safe to run again after a lost connection: a transaction (rolled back), a read, or a write that
 * changes nothing when repeated.
 */
export async function reconnecting<T>(op: () => Promise<T>, stopped: () => boolean = () => false): Promise<T> {
  const deadline = Date.now() + STORE_WAIT_MS;
  for (let pause = 25; ; pause = Math.min(pause * 2, 1_000)) {
    try {
      return await op();
    } catch (error) {
      if (!(error instanceof ConnectionLost) || stopped() || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
      if (stopped()) throw error;
    }
  }
}

/**
 * Runs `write` (a transaction) so that it is written once: when its commit's reply was lost
 * (`CommitUnknown`), `landed` reads whether it was written, and it runs again only if it was not.
 * `'unseen'`: it was written, but its result never came back. When that read fails too, the
 * `CommitUnknown` is thrown: whether it was written is still unknown.
 */
export async function commitOnce<T>(write: () => Promise<T>, landed: () => Promise<boolean>): Promise<{ value: T } | 'unseen'> {
  try {
    return { value: await write() };
  } catch (error) {
    if (!(error instanceof CommitUnknown)) throw error;
    const written = await landed().catch(() => {
      throw error;
    });
    return written ? 'unseen' : { value: await write() };
  }
}

/**
 * SQLSTATEs of a connection lost or refused rather than of a statement: the server shut down or is
 * starting (57P01-57P03), or the connection failed (08000, 08001, 08003, 08006). Not 08P01, a
 * protocol violation the server reports on a live connection (but see `connectionFailed`).
 */
const CONNECTION_CODES = new Set(['08000', '08001', '08003', '08006', '57P01', '57P02', '57P03']);

/**
 * True for a failed COMMIT whose transaction may still have been written: the connection broke (no
 * reply from the server, only a socket's error), or the server was shut down or failed under it. A
 * server's reply with any other SQLSTATE (a deferred check, a serialization failure) means it was
 * rolled back.
 */
function commitMayHaveLanded(error: unknown): boolean {
  const { severity, code } = (error ?? {}) as { severity?: unknown; code?: unknown };
  const fromServer = typeof severity === 'string' && typeof code === 'string';
  // XX and 58: a server failure, after which recovery may still keep a commit that was written.
  return !fromServer || CONNECTION_CODES.has(code) || /^(XX|58)/.test(code);
}

/**
 * True for a failure of the connection rather than of the statement: the client saw its connection
 * end (`broken`), the operating system reported a socket error, or the server named one of
 * `CONNECTION_CODES`.
 */
function connectionFailed(error: unknown, broken: boolean): boolean {
  const { code, syscall, severity } = (error ?? {}) as { code?: unknown; syscall?: unknown; severity?: unknown };
  // PgBouncer ends a connection it cannot serve (its server restarting) with a FATAL 08P01.
  const bouncerLost = code === '08P01' && severity === 'FATAL';
  return broken || typeof syscall === 'string' || (typeof code === 'string' && CONNECTION_CODES.has(code)) || bouncerLost;
}

/**
 * True for a new connection that failed on its way (refused, cut before the server answered, as a
 * balancer in front of a restarting server does): not a server's refusal (a wrong password), not the
 * pool's own wait running out (`waitedOut`), and not a pool already closed.
 */
function connectFailed(error: unknown, waitedOut: boolean, closed: boolean): boolean {
  const { severity } = (error ?? {}) as { severity?: unknown };
  const refusedByServer = typeof severity === 'string' && !connectionFailed(error, false);
  return !refusedByServer && !waitedOut && !closed;
}

/** Longest wait for the store: a connection from the pool, a place in a group commit, or a server back after a lost connection. */
export const STORE_WAIT_MS = 10_000;

/** The embedded store's default folder, relative to the process's working directory. */
export const DEFAULT_EMBEDDED_DIR = '.copilotkit-interrupts';

/** `postgres://user:secret@host/db` -> `postgres://user:***@host/db`; never throws. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

type PgClient = {
  query(text: string | { name: string; text: string; values: unknown[] }, params?: unknown[]): Promise<{ rows: unknown[] }>;
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
};
type PgPool = {
  connect(): Promise<PgClient>;
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
};

/** The "pg" package, or an error that says how to install it. */
async function loadPg(location: string): Promise<{ Pool: new (config: Record<string, unknown>) => PgPool }> {
  type Pg = { Pool: new (config: Record<string, unknown>) => PgPool };
  try {
    const loaded = (await import('pg')) as unknown as { default?: Pg } & Pg;
    return loaded.default ?? loaded;
  } catch (error) {
    throw new Error(
      `copilotkit-interrupts runner: a PostgreSQL url was given (${location}) but the "pg" package is not installed. Install it next to copilotkit-interrupts (npm install pg).`,
      { cause: error },
    );
  }
}

/**
 * Runs statements with each text prepared once per connection and executed by name after that:
 * the runner sends the same few statements over and over, and parsing and planning them again was
 * most of what a small statement cost the server. A statement returning `*` is left unprepared: a
 * later schema (another instance upgraded it) would change its columns, and the server refuses a
 * prepared statement whose result changed.
 */
function preparedStatements() {
  const named = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = named.get(text);
    if (!name) named.set(text, (name = `cki_${createHash('sha1').update(text).digest('hex')}`));
    return name;
  };
  return (client: PgClient, text: string, params: readonly unknown[]) =>
    /RETURNING \*|SELECT \*/.test(text) ? client.query(text, [...params]) : client.query({ name: nameOf(text), text, values: [...params] });
}

/** Opens one connection of the pool and gives it back; or ends the pool and says what to check. */
async function reach(pool: PgPool, location: string): Promise<void> {
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(
      `copilotkit-interrupts runner: cannot reach PostgreSQL at ${location} (${errorMessage(error)}). ` +
        'Check that the server is running and accepts connections from this machine, and that the URL, user and password are right; ' +
        'or leave `url` unset to keep threads in the embedded store.',
      { cause: error },
    );
  }
}

/**
 * Runs `work` in one transaction on `client` (checked out for it, and released here). A failed
 * statement's error goes through `lost` (a lost connection becomes `ConnectionLost`); a COMMIT that
 * may have landed without its reply is `CommitUnknown`.
 */
async function inTransaction<T>(
  client: PgClient,
  run: ReturnType<typeof preparedStatements>,
  lost: (error: unknown) => unknown,
  work: (sql: Sql) => Promise<T>,
): Promise<T> {
  // The callers of a group commit share this transaction and query it at the same moment: their
  // statements go to the connection one after another (the driver's own queue for that is deprecated).
  let last: Promise<unknown> = Promise.resolve();
  const sql: Sql = {
    query: <Row>(text: string, params: readonly unknown[] = []) => {
      const sent = last.then(() => run(client, text, params));
      last = sent.catch(() => undefined);
      return sent.then(
        (result) => result.rows as Row[],
        (error: unknown) => {
          throw lost(error);
        },
      );
    },
  };
  let committing = false;
  try {
    await client.query('BEGIN').catch((error: unknown) => {
      throw lost(error);
    });
    const result = await work(sql);
    committing = true;
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    if (committing && commitMayHaveLanded(error)) {
      client.release(true);
      throw new CommitUnknown(error);
    }
    // A broken connection is dropped from the pool instead of being reused.
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    client.release(rolledBack ? undefined : true);
    throw error;
  }
}

/** A pool of connections to a PostgreSQL server (the `pg` package, loaded on first use). */
export async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const location = redactUrl(url);
  const pg = await loadPg(location);
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: STORE_WAIT_MS });
  // An idle connection dropped by the server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  await reach(pool, location);
  // A connection that dies while checked out emits 'error' on its client (before its queries are
  // failed): without a listener that would end the process. The failing query rejects on its own,
  // which is what reports it; the client is marked, so the failure is told as a lost connection.
  const guarded = new WeakSet<PgClient>();
  const broken = new WeakSet<PgClient>();
  const run = preparedStatements();
  const lost = (client: PgClient, error: unknown) => (connectionFailed(error, broken.has(client)) ? new ConnectionLost(error) : error);
  let closed = false;
  const checkout = async () => {
    const asked = performance.now();
    let client: PgClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw connectFailed(error, performance.now() - asked >= STORE_WAIT_MS, closed) ? new ConnectionLost(error) : error;
    }
    if (!guarded.has(client)) {
      guarded.add(client);
      client.on('error', () => broken.add(client));
    }
    return client;
  };
  return {
    location,
    shared: true,
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const client = await checkout();
      try {
        const rows = (await run(client, text, params)).rows as Row[];
        client.release();
        return rows;
      } catch (error) {
        client.release(true);
        throw lost(client, error);
      }
    },
    async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
      const client = await checkout();
      return inTransaction(client, run, (error) => lost(client, error), work);
    },
    close: () => {
      closed = true;
      return pool.end();
    },
  };
}

type PGliteDb = {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  transaction<T>(work: (tx: { query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }> }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

// One PGlite per folder in this process: two handles on one folder would corrupt it.
const embedded = new Map<string, { db: Promise<PGliteDb>; users: number }>();

/** PostgreSQL compiled to WebAssembly (`@electric-sql/pglite`), keeping its files in `dir`. */
export async function openEmbedded(dir: string): Promise<Database> {
  const folder = resolve(dir);
  let entry = embedded.get(folder);
  if (!entry) {
    entry = { db: createPGlite(folder), users: 0 };
    embedded.set(folder, entry);
    entry.db.catch(() => embedded.delete(folder));
  }
  entry.users++;
  const shared = entry;
  let db: PGliteDb;
  try {
    db = await shared.db;
  } catch (error) {
    shared.users--;
    throw error;
  }
  let closed = false;
  return {
    location: folder,
    shared: false,
    query: async <Row>(text: string, params: readonly unknown[] = []) => (await db.query<Row>(text, [...params])).rows,
    transaction: <T>(work: (sql: Sql) => Promise<T>) =>
      db.transaction((tx) =>
        work({ query: async <Row>(text: string, params: readonly unknown[] = []) => (await tx.query<Row>(text, [...params])).rows }),
      ),
    async close() {
      if (closed) return;
      closed = true;
      if (--shared.users > 0) return;
      embedded.delete(folder);
      await db.close();
    },
  };
}

async function createPGlite(folder: string): Promise<PGliteDb> {
  let PGlite: { create(dataDir: string): Promise<PGliteDb> };
  try {
    ({ PGlite } = (await import('@electric-sql/pglite')) as unknown as { PGlite: typeof PGlite });
  } catch (error) {
    throw new Error(
      'copilotkit-interrupts runner: the embedded store needs the "@electric-sql/pglite" package. Install it next to copilotkit-interrupts (npm install @electric-sql/pglite), or pass a postgres:// `url`.',
      { cause: error },
    );
  }
  try {
    mkdirSync(folder, { recursive: true });
    return await PGlite.create(folder);
  } catch (error) {
    throw new Error(
      `copilotkit-interrupts runner: cannot open the embedded store in ${folder} (${errorMessage(error)}). ` +
        'Check that the folder is writable and not used by another process, or pass `dataDir` to keep it elsewhere.',
      { cause: error },
    );
  }
}
