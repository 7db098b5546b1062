import { errorMessage } from '../error-message';
import { redactUrl, type Sql } from './database';

/**
 * "Thread X changed; it is at change number N." The rows stay the truth: a change only says which
 * thread to read again, so a lost, late or repeated one costs a read, never an answer.
 */
export interface ThreadChange {
  threadId: string;
  /** The thread's change number: grows with every commit that touches the thread. */
  seq: number;
}

export type ThreadChangeListener = (change: ThreadChange) => void;

/** Where a feed checks a notification against the rows and catches up after a gap. */
export interface ChangeLog {
  /** The thread's change number now, or `undefined` when the store has no such thread. */
  threadSeq(threadId: string): Promise<number | undefined>;
  /** The highest change number any thread holds (0 for an empty store). */
  latestSeq(): Promise<number>;
  /** Every thread whose change number is above `after`, with that number. */
  changesAfter(after: number): Promise<ThreadChange[]>;
}

/** Something to hear thread changes from (a runner, a feed). */
export interface ThreadChangeSource {
  /** Calls `listener` for every change of every thread until the returned function is called. */
  subscribeChanges(listener: ThreadChangeListener): () => void;
}

/** The one PostgreSQL channel every instance listens on. */
export const CHANGE_CHANNEL = 'cki_thread_changes';

/** A NOTIFY payload is limited to 8000 bytes; ours is a thread id (at most 4 KiB) and a number. */
const MAX_PAYLOAD = 8000;

/**
 * Commits can reach the log out of their number's order (a transaction that drew 5 may commit after
 * the one that drew 6), so a catch-up starts this far below the highest number heard. Threads
 * already heard at their number are skipped, so the overlap costs one indexed read.
 */
const CATCH_UP_OVERLAP = 1_000;

const PREFIX = 'copilotkit-interrupts runner:';

/** Reads a notification's payload; `undefined` for anything that is not `{ thread, seq }`. */
export function parseChange(payload: unknown): ThreadChange | undefined {
  if (typeof payload !== 'string' || payload.length > MAX_PAYLOAD) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { thread, seq } = body as { thread?: unknown; seq?: unknown };
  if (typeof thread !== 'string' || thread === '' || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { threadId: thread, seq };
}

export const formatChange = (change: ThreadChange): string => JSON.stringify({ thread: change.threadId, seq: change.seq });

/**
 * What both feeds share: one listener list, the last change number heard per thread (a repeat or
 * an older one is dropped), and the check that a thread heard of for the first time exists.
 */
abstract class FeedBase implements ThreadChangeSource {
  readonly #listeners = new Set<ThreadChangeListener>();
  readonly #seen = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<void>>();
  #highest = 0;
  protected closed = false;

  constructor(protected readonly log: ChangeLog) {}

  subscribeChanges(listener: ThreadChangeListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** The highest change number heard (the catch-up starts below it). */
  protected get highest(): number {
    return this.#highest;
  }

  protected set highest(seq: number) {
    if (seq > this.#highest) this.#highest = seq;
  }

  /**
   * A notification's payload as it arrived: checked, deduplicated, then told to the listeners.
   * One thread's notifications are handled in the order they came: the first of a thread waits for
   * a read of the rows, and a later one must not overtake it (it would drop the earlier number).
   */
  protected receive(payload: unknown): Promise<void> {
    const change = parseChange(payload);
    if (!change) return Promise.resolve(); // not ours, or broken: nothing to read again
    const previous = this.#inFlight.get(change.threadId) ?? Promise.resolve();
    const current = previous.then(() => this.#receive(change));
    this.#inFlight.set(change.threadId, current);
    void current.then(() => {
      if (this.#inFlight.get(change.threadId) === current) this.#inFlight.delete(change.threadId);
    });
    return current;
  }

  async #receive(change: ThreadChange): Promise<void> {
    const seen = this.#seen.get(change.threadId);
    if (seen !== undefined && change.seq <= seen) return;
    let seq = change.seq;
    if (seen === undefined) {
      // First word of this thread: the rows decide whether it exists and where it is.
      let stored: number | undefined;
      try {
        stored = await this.log.threadSeq(change.threadId);
      } catch {
        return; // the store is away; the catch-up after it comes back covers this thread
      }
      if (stored === undefined) return; // no such thread: a stray or forged notification
      seq = Math.min(seq, stored);
    }
    this.accept({ threadId: change.threadId, seq });
  }

  /**
   * A change this instance committed: told to the listeners at once, without the check a
   * notification gets (the commit is the confirmation); its own notification, when it comes, is a
   * repeat and dropped.
   */
  committed(change: ThreadChange) {
    this.accept(change);
  }

  /** Tells the listeners of a change the rows confirm (a catch-up's, or a checked notification). */
  protected accept(change: ThreadChange) {
    if (this.closed) return;
    const seen = this.#seen.get(change.threadId);
    if (seen !== undefined && change.seq <= seen) return;
    this.#seen.set(change.threadId, change.seq);
    this.highest = change.seq;
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        console.error(`${PREFIX} a thread change listener threw: ${errorMessage(error)}`);
      }
    }
  }

  /** Reads every change made while this instance could not hear, from the rows. */
  protected async catchUp(): Promise<void> {
    const changes = await this.log.changesAfter(Math.max(0, this.#highest - CATCH_UP_OVERLAP));
    for (const change of changes.sort((a, b) => a.seq - b.seq)) this.accept(change);
  }
}

/**
 * Changes on an embedded store: one process owns its folder, so the runners on it hear each other
 * in process. `published` is called after the commit.
 */
export class InProcessChangeFeed extends FeedBase {
  static readonly #byLocation = new Map<string, Set<InProcessChangeFeed>>();

  constructor(
    log: ChangeLog,
    private readonly location: string,
  ) {
    super(log);
    let peers = InProcessChangeFeed.#byLocation.get(location);
    if (!peers) InProcessChangeFeed.#byLocation.set(location, (peers = new Set()));
    peers.add(this);
  }

  async start(): Promise<void> {
    this.highest = await this.log.latestSeq();
  }

  /** Nothing to do inside the transaction: the peers hear of it once it is committed. */
  async notifyIn(): Promise<void> {}

  /** After the commit: every runner on this folder (this one included) hears of the change. */
  published(change: ThreadChange) {
    const payload = formatChange(change);
    for (const feed of InProcessChangeFeed.#byLocation.get(this.location) ?? []) void feed.receive(payload);
  }

  async close(): Promise<void> {
    this.closed = true;
    const peers = InProcessChangeFeed.#byLocation.get(this.location);
    peers?.delete(this);
    if (peers?.size === 0) InProcessChangeFeed.#byLocation.delete(this.location);
  }
}

type PgNotification = { channel: string; payload?: string };
type PgListenClient = {
  connect(): Promise<void>;
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
};

export interface PostgresChangeFeedOptions {
  /** First wait before reconnecting after the connection is lost (ms); doubles up to `maxBackoffMs`. Default 100. */
  minBackoffMs?: number;
  /** Longest wait between two reconnect attempts (ms). Default 5 000. */
  maxBackoffMs?: number;
  /** Called with each state change, for logs and tests. */
  onState?: (state: 'listening' | 'lost' | 'closed', detail?: string) => void;
}

/**
 * Changes on PostgreSQL: one dedicated connection per instance does `LISTEN` on one channel (the
 * pool's connections come and go, a listener must stay). Writers `NOTIFY` inside the transaction
 * that commits the change, so a notification never announces what was rolled back.
 *
 * When the connection is lost the feed reconnects with a growing wait, listens again, and reads
 * from the rows every change made while it could not hear (`ChangeLog.changesAfter`).
 */
export class PostgresChangeFeed extends FeedBase {
  #client: PgListenClient | undefined;
  #connecting: Promise<void> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #backoff: number;
  readonly #minBackoff: number;
  readonly #maxBackoff: number;
  readonly #onState: NonNullable<PostgresChangeFeedOptions['onState']>;
  /** Work that needs the listening connection (an advisory lock), told when it is lost. */
  readonly #lostListeners = new Set<() => void>();
  readonly #listeningListeners = new Set<() => void>();

  constructor(
    log: ChangeLog,
    private readonly url: string,
    options: PostgresChangeFeedOptions = {},
  ) {
    super(log);
    this.#minBackoff = Math.max(10, options.minBackoffMs ?? 100);
    this.#maxBackoff = Math.max(this.#minBackoff, options.maxBackoffMs ?? 5_000);
    this.#backoff = this.#minBackoff;
    this.#onState = options.onState ?? (() => {});
  }

  /**
   * Connects and listens. When that fails it keeps trying in the background (with the same
   * backoff as after a loss) and resolves: the runner works meanwhile, on its slow safety net.
   */
  async start(): Promise<void> {
    try {
      this.highest = await this.log.latestSeq();
      await this.#connect();
    } catch (error) {
      this.#onState('lost', errorMessage(error));
      this.#scheduleReconnect();
    }
  }

  /** True while the dedicated connection listens. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  /** Inside the writer's transaction: delivered to every listener when (and only if) it commits. */
  async notifyIn(sql: Sql, change: ThreadChange): Promise<void> {
    await sql.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, formatChange(change)]);
  }

  /** Nothing to do after the commit: the server delivers the notification, to this instance too. */
  published(): void {}

  /**
   * Runs `text` on the listening connection (a session-level advisory lock lives and dies with it).
   * Rejects while the connection is down.
   */
  async onListener<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
    const client = this.#client;
    if (!client) throw new Error(`${PREFIX} the notification connection to ${redactUrl(this.url)} is down.`);
    return (await client.query(text, params)).rows as Row[];
  }

  /** `listener` runs each time the listening connection is lost (its session locks with it). */
  onLost(listener: () => void): () => void {
    this.#lostListeners.add(listener);
    return () => void this.#lostListeners.delete(listener);
  }

  /** `listener` runs each time the feed listens again (after a start or a reconnect and its catch-up). */
  onListening(listener: () => void): () => void {
    this.#listeningListeners.add(listener);
    return () => void this.#listeningListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.#retry);
    await this.#connecting?.catch(() => {});
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
    this.#onState('closed');
  }

  #connect(): Promise<void> {
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #open(): Promise<void> {
    const pg = await loadPg();
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 }) as PgListenClient;
    let lost = false;
    const onLost = (why: string) => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      void client.end().catch(() => {});
      if (this.closed) return;
      this.#onState('lost', why);
      for (const listener of [...this.#lostListeners]) listener();
      this.#scheduleReconnect();
    };
    // A dropped connection emits 'error' (and 'end'): without a listener it would end the process.
    client.on('error', (error) => onLost(errorMessage(error)));
    client.on('end', () => onLost('the server closed the connection'));
    client.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL) void this.receive(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => {});
      throw new Error(`${PREFIX} cannot listen for thread changes on ${redactUrl(this.url)} (${errorMessage(error)}).`, { cause: error });
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    // Listening first, then reading: a change committed in between is heard twice, never missed.
    try {
      await this.catchUp();
    } catch (error) {
      lost = true;
      this.#client = undefined;
      await client.end().catch(() => {});
      throw new Error(`${PREFIX} cannot read the thread changes missed while away (${errorMessage(error)}).`, { cause: error });
    }
    this.#backoff = this.#minBackoff;
    this.#onState('listening');
    for (const listener of [...this.#listeningListeners]) listener();
  }

  #scheduleReconnect() {
    if (this.closed || this.#retry) return;
    const wait = this.#backoff * (0.8 + Math.random() * 0.4);
    this.#backoff = Math.min(this.#maxBackoff, this.#backoff * 2);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#connect().catch((error: unknown) => {
        this.#onState('lost', errorMessage(error));
        this.#scheduleReconnect();
      });
    }, wait);
    this.#retry.unref?.();
  }
}

type PgModule = { Client: new (config: Record<string, unknown>) => unknown };

async function loadPg(): Promise<PgModule> {
  const loaded = (await import('pg')) as unknown as { default?: PgModule } & PgModule;
  return loaded.default ?? loaded;
}

/** Wakes a waiting follower when told; a notice that comes before the wait is kept for it. */
export class ChangeWaiter {
  #pending = false;
  #wake: (() => void) | undefined;

  notify() {
    if (this.#wake) this.#wake();
    else this.#pending = true;
  }

  wait(timeoutMs: number): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#wake = done;
    });
  }
}
