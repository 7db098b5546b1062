/**
 * Group commit: transactions of many threads run as one. While a batch is in flight, the next
 * callers queue; the queue then runs as ONE transaction in which every caller's work runs side by
 * side, in step: once each of them waits on a statement (or is done), the statements of one kind
 * are sent as one multi-row statement (`Merger`) and each caller gets back its own row. Framework-
 * and SQL-free: the store supplies the transaction and the mergers.
 *
 * What a caller sees is what a transaction of its own would give it:
 * - a caller whose work throws (a refusal) gets its error; the batch rolls back and the others run
 *   again in the next batch (their threads are disjoint from its thread, so nothing they read
 *   changes);
 * - a merged statement or the commit that fails rolls the batch back, and every caller in it runs
 *   again alone, in a transaction of its own: only the caller whose rows fail sees the failure;
 * - a commit whose outcome is unknown (`unknown`: the connection was lost with it) is run by no one
 *   again: it may have been written. Every caller gets its error, as its own transaction would
 *   have ended, and can read whether its work landed;
 * - a batch whose connection was lost before its commit (`lost`) was not written: every caller
 *   gets that error (its own refusal, if it had one), to send its work again once the store is
 *   back, together rather than one by one;
 * - one thread (`key`) is in at most one batch at a time, in the order its callers came;
 * - a caller still queued after `maxWaitMs` gets a `QueueTimeout` and never runs (as a transaction
 *   of its own gets an error when no connection frees up in time).
 */

/** What a caller's work asks of the shared transaction: a statement of `kind`, for its own row. */
export interface Lane {
  /** One call at a time per caller: the batch waits until every caller waits on one, or is done. */
  call<R>(kind: string, args: unknown): Promise<R>;
}

/** Runs the statements of one kind for several callers at once: one result per argument, in order. */
export type Merger<S> = (sql: S, args: readonly unknown[]) => Promise<readonly unknown[]>;

export interface GroupCommitOptions<S> {
  /** Opens one transaction: `body`'s writes are committed when it resolves, rolled back when it throws. */
  transaction<T>(body: (sql: S) => Promise<T>): Promise<T>;
  mergers: Readonly<Record<string, Merger<S>>>;
  /** Most callers in one batch (default 100). */
  maxBatch?: number;
  /** Batches in flight at once (default 1). */
  maxInFlight?: number;
  /**
   * True for an error a caller's own query gets only because the batch's transaction already failed
   * (PostgreSQL's "current transaction is aborted"): that caller runs again instead of failing.
   */
  aborted?: (error: unknown) => boolean;
  /** True for an error of the transaction's end that leaves unknown whether it was written (see above). */
  unknown?: (error: unknown) => boolean;
  /**
   * True for a lost connection (no caller's statement failed): every caller of the batch gets it,
   * to send its work again once the store is back (together, instead of one after another alone).
   */
  lost?: (error: unknown) => boolean;
  /** How long a caller may wait in the queue before it is refused (default: as long as it takes). */
  maxWaitMs?: number;
}

/** A caller waited in the queue longer than `maxWaitMs`: nothing of its work ran. */
export class QueueTimeout extends Error {
  override readonly name = 'QueueTimeout';

  constructor(ms: number) {
    super(`waited ${ms} ms behind other transactions; nothing was written`);
  }
}

interface Entry<S> {
  key: string;
  work: (sql: S, lane: Lane) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Runs in a transaction of its own (after its batch failed). */
  alone: boolean;
  /** Refuses it if it is still queued when it fires; cleared when it is taken. */
  timer?: ReturnType<typeof setTimeout>;
}

/** Thrown into a caller's work when its batch is given up: never seen outside this module. */
class BatchAborted extends Error {}

/** A caller's end in a batch. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Callers of one batch, in step: the statements they wait on are sent once all of them wait (or are done). */
class Lockstep<S> {
  private waiting: Array<{ kind: string; args: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }> = [];
  private active: number;
  private flushing = false;
  /**
   * Why the batch is given up: a statement failed, or a caller threw; `aborted`: a caller was told
   * the transaction had failed before the one whose statement failed it threw (it then takes over).
   */
  failure: { statement: unknown } | { caller: true } | { aborted: unknown } | undefined;

  constructor(
    private readonly sql: S,
    private readonly mergers: Readonly<Record<string, Merger<S>>>,
    size: number,
  ) {
    this.active = size;
  }

  readonly lane: Lane = {
    call: <R>(kind: string, args: unknown) =>
      new Promise<R>((resolve, reject) => {
        if (this.failure) return reject(new BatchAborted());
        this.waiting.push({ kind, args, resolve: resolve as (value: unknown) => void, reject });
        this.check();
      }),
  };

  /** A caller is done (`threw`: with its own error): the batch is given up, the others are stopped. */
  done(threw: boolean) {
    this.active--;
    if (threw && (!this.failure || 'aborted' in this.failure)) this.failure = { caller: true };
    this.check();
  }

  private check() {
    if (this.flushing || this.waiting.length === 0) return;
    if (this.failure) {
      for (const call of this.waiting.splice(0)) call.reject(new BatchAborted());
      return;
    }
    if (this.waiting.length === this.active) void this.flush();
  }

  private async flush() {
    this.flushing = true;
    const calls = this.waiting.splice(0);
    const kinds = [...new Set(calls.map((call) => call.kind))];
    for (const kind of kinds) {
      const group = calls.filter((call) => call.kind === kind);
      if (this.failure) {
        for (const call of group) call.reject(new BatchAborted());
        continue;
      }
      try {
        const merger = this.mergers[kind];
        if (!merger) throw new Error(`no merger for ${kind}`);
        const results = await merger(
          this.sql,
          group.map((call) => call.args),
        );
        group.forEach((call, index) => call.resolve(results[index]));
      } catch (error) {
        this.failure = { statement: error };
        for (const call of group) call.reject(new BatchAborted());
      }
    }
    this.flushing = false;
    this.check();
  }
}

/** Signals a rollback from inside the transaction body. */
class Rollback extends Error {}

export class GroupCommit<S> {
  private readonly queue: Entry<S>[] = [];
  /** The threads of the batches in flight. */
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(private readonly options: GroupCommitOptions<S>) {
    this.maxBatch = Math.max(1, options.maxBatch ?? 100);
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 1);
  }

  /**
   * Runs `work` in a transaction, with other threads' work when they come together. `work` sends
   * its batched statements through `lane` and may query `sql` directly; it may run more than once
   * (a batch given up runs again), so it must not act outside the transaction before it resolves.
   */
  submit<T>(key: string, work: (sql: S, lane: Lane) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Entry<S> = { key, work, resolve: resolve as (value: unknown) => void, reject, alone: false };
      const { maxWaitMs } = this.options;
      if (maxWaitMs !== undefined) {
        entry.timer = setTimeout(() => {
          const index = this.queue.indexOf(entry);
          if (index < 0) return;
          this.queue.splice(index, 1);
          reject(new QueueTimeout(maxWaitMs));
        }, maxWaitMs);
        entry.timer.unref?.();
      }
      this.queue.push(entry);
      // Callers that come in the same turn of the event loop share the first batch.
      if (!this.scheduled && this.inFlight < this.maxInFlight) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump() {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return; // every queued thread is in a batch in flight
      this.inFlight++;
      for (const entry of batch) this.busy.add(entry.key);
      void this.run(batch).finally(() => {
        for (const entry of batch) this.busy.delete(entry.key);
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** The next batch: callers in the order they came, one per thread; one that must run alone goes alone. */
  private take(): Entry<S>[] {
    // A thread in a batch in flight waits for it: its callers go one after the other.
    const keys = new Set(this.busy);
    const batch: Entry<S>[] = [];
    for (let index = 0; index < this.queue.length && batch.length < this.maxBatch; index++) {
      const entry = this.queue[index]!;
      if (keys.has(entry.key)) continue;
      keys.add(entry.key);
      // One that must run alone goes alone, when it is the first that may go.
      if (entry.alone && batch.length > 0) continue;
      batch.push(entry);
      clearTimeout(entry.timer);
      this.queue.splice(index--, 1);
      if (entry.alone) break;
    }
    return batch;
  }

  private async run(batch: Entry<S>[]): Promise<void> {
    const held: { step?: Lockstep<S> } = {};
    const outcomes: Outcome[] = [];
    const aborted = this.options.aborted ?? (() => false);
    try {
      await this.options.transaction(async (sql) => {
        const step = (held.step = new Lockstep(sql, this.options.mergers, batch.length));
        const settled = batch.map((entry, index) =>
          entry.work(sql, step.lane).then(
            (value) => {
              outcomes[index] = { ok: true, value };
              step.done(false);
            },
            (error: unknown) => {
              // An error that says the transaction already failed is the batch's, not this caller's:
              // the statement that failed it was another's (it may not have been told yet: the
              // embedded store can answer this caller first). The batch is given up either way.
              const own = !(error instanceof BatchAborted) && !aborted(error);
              if (!own && !(error instanceof BatchAborted)) step.failure ??= { aborted: error };
              outcomes[index] = { ok: false, error: own ? error : new BatchAborted() };
              step.done(own);
            },
          ),
        );
        await Promise.all(settled);
        if (step.failure) throw new Rollback();
      });
    } catch (error) {
      if (this.options.unknown?.(error)) for (const entry of batch) entry.reject(error);
      else this.failed(batch, outcomes, held.step?.failure, error);
      return;
    }
    batch.forEach((entry, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) entry.resolve(outcome.value);
      else entry.reject(outcome.error);
    });
  }

  /** A batch rolled back: who gets an error, and who runs again (alone after a failed statement or commit). */
  private failed(batch: Entry<S>[], outcomes: Outcome[], failure: Lockstep<S>['failure'], error: unknown) {
    // A failure no caller owned (`aborted`) is one of a statement: every caller runs again alone.
    const statementError =
      failure && 'statement' in failure
        ? failure.statement
        : failure && 'aborted' in failure
          ? failure.aborted
          : error instanceof Rollback
            ? undefined
            : error;
    const lost = statementError !== undefined && this.options.lost?.(statementError) === true;
    const again: Entry<S>[] = [];
    batch.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome && !outcome.ok && !(outcome.error instanceof BatchAborted)) {
        // Its own error (a refusal): what a transaction of its own would have ended with.
        entry.reject(outcome.error);
      } else if (statementError !== undefined && (lost || batch.length === 1 || entry.alone)) {
        entry.reject(statementError);
      } else {
        entry.alone ||= statementError !== undefined;
        again.push(entry);
      }
    });
    this.queue.unshift(...again);
  }
}

/**
 * Reads of many callers as one: while a read is in flight, the next callers queue, and the queue
 * is then read with one statement (`read`, one result per argument, in order). A read is never
 * sent before it was asked for, so it sees what a read of its own would have seen, or later. When
 * a batched read fails, each of its callers reads alone: only a caller whose own read fails sees it.
 */
export class ReadBatch<A, R> {
  private queue: Array<{ arg: A; resolve: (value: R) => void; reject: (error: unknown) => void }> = [];
  private inFlight = false;
  private scheduled = false;

  constructor(
    private readonly read: (args: readonly A[]) => Promise<readonly R[]>,
    private readonly maxBatch = 500,
  ) {}

  load(arg: A): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ arg, resolve, reject });
      if (this.inFlight || this.scheduled) return;
      // Callers that come in the same turn of the event loop share the first read.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.pump();
      });
    });
  }

  private async pump(): Promise<void> {
    this.inFlight = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.read(batch.map((entry) => entry.arg));
        batch.forEach((entry, index) => entry.resolve(results[index]!));
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else
          for (const entry of batch)
            this.read([entry.arg]).then(
              (results) => entry.resolve(results[0]!),
              (own: unknown) => entry.reject(own),
            );
      }
    }
    this.inFlight = false;
  }
}
