import { errorMessage } from '../error-message';
import type { PostgresChangeFeed, ThreadChangeSource } from './notifications';
import type { ThreadDeadline } from './thread-store';

export type { ThreadDeadline };

/** What the sweeper reads from the store. */
export interface DeadlineStore {
  /** Every thread whose open interrupts all carry an `expiresAt`. */
  deadlines(): Promise<ThreadDeadline[]>;
  /** The store's clock (ms since the epoch): the one every instance agrees on. */
  now(): Promise<number>;
}

/** Who may settle expiries: one holder at a time, across instances and restarts. */
export interface ExpiryLease {
  /** Takes the lease if nobody holds it; true while this instance holds it. */
  acquire(): Promise<boolean>;
  readonly held: boolean;
  /** Called when the lease is lost (its connection dropped). */
  onLost(listener: () => void): () => void;
  release(): Promise<void>;
}

/**
 * The outcome of settling one thread: `settled` (the agent was resumed with `cancelled`),
 * `answered` (someone answered first: nothing to do), `busy` (a run holds the thread: try again).
 */
export type SettleOutcome = 'settled' | 'answered' | 'busy';

export interface ExpirySweeperOptions {
  store: DeadlineStore;
  lease: ExpiryLease;
  /** Resumes the thread's agent with `cancelled` for these interrupts (the row claim makes it once). */
  settle(deadline: ThreadDeadline): Promise<SettleOutcome>;
  /** Changes of any thread make the holder read the deadlines again. */
  changes?: ThreadChangeSource;
  /** How often an instance without the lease tries to take it, and the holder rereads the deadlines (ms). Default 1 000. */
  checkEveryMs?: number;
  /** Called when settling a thread failed, for logs. */
  onError?: (error: unknown, deadline: ThreadDeadline) => void;
}

/**
 * Settles expired interrupts with nobody online. Every instance runs one; only the lease holder
 * acts. It keeps the deadlines in memory, sleeps until the earliest (by the store's clock, so a
 * skewed instance clock moves nothing), and settles each thread once. Exactly-once is the rows':
 * the resume claims the interrupts only while they are open, so a second holder (a lease lost and
 * taken over mid-settle) is refused, and a device's own answer wins or loses the same way.
 */
export class ExpirySweeper {
  readonly #options: ExpirySweeperOptions;
  readonly #every: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #tick: ReturnType<typeof setInterval> | undefined;
  #deadlines: ThreadDeadline[] = [];
  /** Store clock minus this process's clock, measured at the last read. */
  #offset = 0;
  #reading: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  readonly #settling = new Set<string>();
  #detach: Array<() => void> = [];

  constructor(options: ExpirySweeperOptions) {
    this.#options = options;
    this.#every = Math.max(20, options.checkEveryMs ?? 1_000);
  }

  start() {
    this.#tick = setInterval(() => void this.#check(), this.#every);
    this.#tick.unref?.();
    this.#detach.push(this.#options.lease.onLost(() => this.#clear()));
    if (this.#options.changes) this.#detach.push(this.#options.changes.subscribeChanges(() => void this.#read()));
    void this.#check();
  }

  async stop() {
    this.#stopped = true;
    clearInterval(this.#tick);
    this.#clear();
    for (const detach of this.#detach.splice(0)) detach();
    await this.#reading?.catch(() => {});
    await this.#options.lease.release().catch(() => {});
  }

  /** Takes the lease when free; the holder rereads the deadlines (a safety net for missed changes). */
  async #check() {
    if (this.#stopped) return;
    try {
      if (!this.#options.lease.held && !(await this.#options.lease.acquire())) return;
    } catch {
      return; // the store is away; the next tick tries again
    }
    await this.#read();
  }

  #clear() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#deadlines = [];
  }

  /** Reads the deadlines again (joined when one read is under way, repeated once if asked meanwhile). */
  #read(): Promise<void> {
    if (!this.#options.lease.held || this.#stopped) return Promise.resolve();
    if (this.#reading) {
      this.#again = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      do {
        this.#again = false;
        try {
          const [deadlines, now] = await Promise.all([this.#options.store.deadlines(), this.#options.store.now()]);
          this.#offset = now - Date.now();
          this.#deadlines = deadlines.sort((a, b) => a.settleAt - b.settleAt);
          this.#schedule();
        } catch {
          // the store is away: the next tick reads again
        }
      } while (this.#again && !this.#stopped);
    })().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  #schedule() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || !this.#options.lease.held) return;
    const next = this.#deadlines.find((deadline) => !this.#settling.has(deadline.threadId));
    if (!next) return;
    const wait = Math.max(0, next.settleAt - (Date.now() + this.#offset));
    this.#timer = setTimeout(() => void this.#fire(), Math.min(wait, 2 ** 31 - 1));
    this.#timer.unref?.();
  }

  async #fire() {
    this.#timer = undefined;
    if (this.#stopped || !this.#options.lease.held) return;
    const now = Date.now() + this.#offset;
    const due = this.#deadlines.filter((deadline) => deadline.settleAt <= now && !this.#settling.has(deadline.threadId));
    this.#deadlines = this.#deadlines.filter((deadline) => !due.includes(deadline));
    await Promise.all(due.map((deadline) => this.#settle(deadline)));
    this.#schedule();
  }

  async #settle(deadline: ThreadDeadline) {
    this.#settling.add(deadline.threadId);
    try {
      // A thread that is running ('busy') comes back with the next read: its run's end is a change.
      await this.#options.settle(deadline);
    } catch (error) {
      this.#options.onError?.(error, deadline);
    } finally {
      this.#settling.delete(deadline.threadId);
    }
  }
}

/**
 * The lease on PostgreSQL: a session advisory lock taken on the feed's listening connection. The
 * server lets it go the moment that connection ends (the instance stopped, was killed, or lost
 * the network), and another instance takes it at its next try.
 */
export class AdvisoryLease implements ExpiryLease {
  #held = false;
  readonly #listeners = new Set<() => void>();
  readonly #detach: () => void;

  constructor(
    private readonly feed: PostgresChangeFeed,
    private readonly key: number,
  ) {
    this.#detach = feed.onLost(() => {
      if (!this.#held) return;
      this.#held = false;
      for (const listener of [...this.#listeners]) listener();
    });
  }

  get held() {
    return this.#held;
  }

  async acquire(): Promise<boolean> {
    if (this.#held) return true;
    const [row] = await this.feed.onListener<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [this.key]);
    this.#held = row?.locked === true;
    return this.#held;
  }

  onLost(listener: () => void) {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  async release() {
    this.#detach();
    if (!this.#held) return;
    this.#held = false;
    await this.feed.onListener('SELECT pg_advisory_unlock($1)', [this.key]).catch(() => {});
  }
}

/** The lease on an embedded store: one process owns the folder; its first runner holds it. */
export class InProcessLease implements ExpiryLease {
  static readonly #holders = new Map<string, InProcessLease>();
  #held = false;

  constructor(private readonly location: string) {}

  get held() {
    return this.#held;
  }

  async acquire(): Promise<boolean> {
    const holder = InProcessLease.#holders.get(this.location);
    if (!holder) InProcessLease.#holders.set(this.location, this);
    this.#held = InProcessLease.#holders.get(this.location) === this;
    return this.#held;
  }

  onLost() {
    return () => {};
  }

  async release() {
    if (InProcessLease.#holders.get(this.location) === this) InProcessLease.#holders.delete(this.location);
    this.#held = false;
  }
}

export const describeExpiryError = (error: unknown, deadline: ThreadDeadline) =>
  `copilotkit-interrupts runner: could not settle the expired interrupts of thread ${JSON.stringify(deadline.threadId)}: ${errorMessage(error)}`;
