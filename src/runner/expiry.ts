import { errorMessage } from '../error-message';
import type { PostgresChangeFeed, ThreadChangeSource } from './notifications';
import type { ThreadDeadline } from './thread-store';

export type { ThreadDeadline };

/** What the sweeper reads from the store. */
export interface DeadlineStore {
  /** Every thread whose open interrupts all carry an `expiresAt`; given `threadIds`, only those of them that do. */
  deadlines(threadIds?: readonly string[]): Promise<ThreadDeadline[]>;
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
  /** A change of a thread makes the holder read that thread's deadline again. */
  changes?: ThreadChangeSource;
  /**
   * How often an instance without the lease tries to take it, and the holder tries again a thread
   * it could not settle (ms); every `FULL_READ_EVERY` of these the holder rereads every deadline.
   * Default 1 000.
   */
  checkEveryMs?: number;
  /** Called when settling a thread failed, for logs. */
  onError?: (error: unknown, deadline: ThreadDeadline) => void;
}

/**
 * The holder rereads every open interrupt's deadline once in this many checks (10 s by default): a
 * safety net only, since each change of a thread rereads that thread, and a feed that lost its
 * connection announces every change it missed once it is back.
 */
export const FULL_READ_EVERY = 10;

/**
 * Settles expired interrupts with nobody online. Every instance runs one; only the lease holder
 * acts. It keeps each thread's deadline in memory, sleeps until the earliest (by the store's
 * clock, so a skewed instance clock moves nothing), and settles each thread once. It reads every
 * deadline when it takes the lease (and, as a safety net, every `FULL_READ_EVERY` checks); after
 * that a change of a thread rereads only that thread's open rows, the changes heard meanwhile in
 * one read. Exactly-once is the rows': the resume claims the interrupts only while they are open,
 * so a second holder (a lease lost and taken over mid-settle) is refused, and a device's own answer
 * wins or loses the same way.
 */
export class ExpirySweeper {
  readonly #options: ExpirySweeperOptions;
  readonly #every: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #tick: ReturnType<typeof setInterval> | undefined;
  readonly #deadlines = new Map<string, ThreadDeadline>();
  /** Threads changed since their deadline was read. */
  readonly #dirty = new Set<string>();
  /** Threads that could not be settled (busy, failed): read again at the next check. */
  readonly #retry = new Set<string>();
  /** True until every deadline has been read since the lease was taken (or the last safety-net read is due). */
  #full = true;
  #checks = 0;
  /** Store clock minus this process's clock, measured at the last full read. */
  #offset = 0;
  #reading: Promise<void> | undefined;
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
    if (this.#options.changes) {
      this.#detach.push(
        this.#options.changes.subscribeChanges((change) => {
          if (!this.#options.lease.held || this.#stopped) return;
          this.#dirty.add(change.threadId);
          void this.#read();
        }),
      );
    }
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

  /** Takes the lease when free; the holder retries what it could not settle, and now and then rereads every deadline. */
  async #check() {
    if (this.#stopped) return;
    try {
      if (!this.#options.lease.held && !(await this.#options.lease.acquire())) return;
    } catch {
      return; // the store is away; the next tick tries again
    }
    if (++this.#checks % FULL_READ_EVERY === 0) this.#full = true;
    for (const threadId of this.#retry) this.#dirty.add(threadId);
    this.#retry.clear();
    if (this.#full || this.#dirty.size > 0) await this.#read();
  }

  #clear() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#deadlines.clear();
    this.#dirty.clear();
    this.#full = true;
  }

  /**
   * Reads what is due (every deadline, or the changed threads'), one read at a time: changes heard
   * during a read are read together right after it.
   */
  #read(): Promise<void> {
    if (!this.#options.lease.held || this.#stopped) return Promise.resolve();
    this.#reading ??= (async () => {
      while (!this.#stopped && this.#options.lease.held && (this.#full || this.#dirty.size > 0)) {
        const full = this.#full;
        const threads = full ? [] : [...this.#dirty];
        this.#full = false;
        this.#dirty.clear();
        try {
          if (full) {
            const [deadlines, now] = await Promise.all([this.#options.store.deadlines(), this.#options.store.now()]);
            this.#offset = now - Date.now();
            this.#deadlines.clear();
            for (const deadline of deadlines) this.#deadlines.set(deadline.threadId, deadline);
          } else {
            const deadlines = await this.#options.store.deadlines(threads);
            for (const threadId of threads) this.#deadlines.delete(threadId);
            for (const deadline of deadlines) this.#deadlines.set(deadline.threadId, deadline);
          }
          this.#schedule();
        } catch {
          // the store is away: the next tick reads again
          if (full) this.#full = true;
          for (const threadId of threads) this.#retry.add(threadId);
          break;
        }
      }
    })().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  #schedule() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || !this.#options.lease.held) return;
    let next: ThreadDeadline | undefined;
    for (const deadline of this.#deadlines.values()) {
      if (this.#settling.has(deadline.threadId)) continue;
      if (!next || deadline.settleAt < next.settleAt) next = deadline;
    }
    if (!next) return;
    const wait = Math.max(0, next.settleAt - (Date.now() + this.#offset));
    this.#timer = setTimeout(() => void this.#fire(), Math.min(wait, 2 ** 31 - 1));
    this.#timer.unref?.();
  }

  async #fire() {
    this.#timer = undefined;
    if (this.#stopped || !this.#options.lease.held) return;
    const now = Date.now() + this.#offset;
    const due = [...this.#deadlines.values()].filter((deadline) => deadline.settleAt <= now && !this.#settling.has(deadline.threadId));
    for (const deadline of due) this.#deadlines.delete(deadline.threadId);
    // The next deadline is not kept waiting while these run their agents.
    this.#schedule();
    await Promise.all(due.map((deadline) => this.#settle(deadline)));
    this.#schedule();
  }

  async #settle(deadline: ThreadDeadline) {
    this.#settling.add(deadline.threadId);
    try {
      // Settled or answered: the claim is a change, which rereads the thread. Busy (a run holds
      // it, or no agent to resume yet): tried again at the next check, and at its run's end.
      if ((await this.#options.settle(deadline)) === 'busy') this.#retry.add(deadline.threadId);
    } catch (error) {
      this.#retry.add(deadline.threadId);
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
