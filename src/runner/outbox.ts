import { errorMessage } from '../error-message';
import { RunnerError } from './errors';
import type { EventOutcome, InterruptEventRow, InterruptEventType, InterruptRow } from './thread-store';
import type { Answerer, InterruptRecord } from './types';

export type { InterruptEventType };

/** Something that happened to an interrupt, told once to `onInterruptEvent` (see docs/people.md). */
export interface InterruptEvent {
  /**
   * `raised`: a run left it open for a person. `answered`: someone resolved it. `cancelled`: someone
   * dismissed it. `expired`: the server cancelled it when its `expiresAt` passed. `changed`: an
   * answer came for a request that had changed since; the request as it is now is raised anew.
   */
  type: InterruptEventType;
  /**
   * Unique per event and the same on every attempt: pass it on as an idempotency key (an e-mail
   * provider's, a `Set` of keys sent) so that a repeated attempt sends nothing twice.
   */
  key: string;
  /** ISO 8601: when the change was committed, by the store's clock. */
  at: string;
  /** 1 for the first attempt; more when an earlier one threw, hung past the timeout or its instance died. */
  attempt: number;
  /** The interrupt's row right after this change, as `listInterrupts` reads rows (`ownerId`, `answeredBy` included). */
  interrupt: Omit<InterruptRecord, 'cursor'>;
  /** Its thread: the agent that runs it, and the person who started it (`null` when no one was identified). */
  thread: { id: string; agentId: string; owner: Answerer | null };
}

/**
 * Tells people of an interrupt event (an e-mail, a chat message). Runs on the server, apart from
 * any run: a throw or a hang is retried later and never reaches the run. `signal` aborts when the
 * attempt times out or the runner closes.
 */
export type InterruptEventHook = (event: InterruptEvent, context: { signal: AbortSignal }) => void | Promise<void>;

export interface InterruptEventOptions {
  /** An attempt that has not settled after this long is abandoned and tried again (ms). Default 30 000. */
  timeoutMs?: number;
  /** The wait after a first failed attempt (ms); it doubles with each failure. Default 1 000. */
  minBackoffMs?: number;
  /** The longest wait between two attempts (ms). Default 300 000. */
  maxBackoffMs?: number;
  /** After this many failed attempts the event is given up, logged and kept in the store. Default 20 (about an hour). */
  maxAttempts?: number;
  /** How often an instance looks for events due (another instance's, a retry) (ms). Default 1 000. */
  checkEveryMs?: number;
}

/** What the worker reads and writes (the thread store). */
export interface OutboxStore {
  claimEvents(owner: string, leaseMs: number, limit: number): Promise<InterruptEventRow[]>;
  settleEvent(eventPk: unknown, owner: string, outcome: EventOutcome): Promise<void>;
  releaseEvents(owner: string, eventPks: readonly unknown[]): Promise<void>;
}

export interface OutboxWorkerOptions extends InterruptEventOptions {
  store: OutboxStore;
  hook: InterruptEventHook;
  /** This instance, as its claims name it. */
  owner: string;
  /** A stored interrupt row as `listInterrupts` returns it (throws for a row that no longer parses). */
  toRecord: (row: InterruptRow) => InterruptRecord;
  /** Where failures are told (the server log by default). */
  log?: (line: string) => void;
}

const PREFIX = 'copilotkit-interrupts runner:';
/** Events delivered at once by one instance (each of another thread). */
const MAX_IN_FLIGHT = 16;
/** Why an attempt ended when the worker stopped under it. */
const STOPPED = 'the runner closed';
/** How long a stopping worker lets attempts under way finish before giving their claims back (ms). */
const STOP_GRACE_MS = 1_000;

/**
 * Delivers interrupt events: every instance runs one. It claims due events (one per thread, the
 * oldest first), calls the hook for each, and records the outcome while it still holds the claim.
 * A claim lasts the timeout and a margin, so an instance that dies mid-attempt leaves the event to
 * the next claim; a stopping instance gives its claims back. Once per event, then, except when an
 * attempt's outcome could not be recorded (a timeout, a crash): the key is for that.
 */
export class OutboxWorker {
  readonly #options: OutboxWorkerOptions;
  readonly #timeout: number;
  readonly #lease: number;
  readonly #log: (line: string) => void;
  readonly #inFlight = new Map<unknown, { controller: AbortController; done: Promise<void> }>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #tick: ReturnType<typeof setInterval> | undefined;
  #polling: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  constructor(options: OutboxWorkerOptions) {
    this.#options = options;
    this.#timeout = positive(options.timeoutMs, 30_000);
    this.#lease = this.#timeout + Math.max(1_000, Math.min(this.#timeout, 30_000));
    this.#log = options.log ?? ((line) => console.error(line));
  }

  start() {
    this.#tick = setInterval(() => void this.poll(), positive(this.#options.checkEveryMs, 1_000));
    this.#tick.unref?.();
    void this.poll();
  }

  /** Looks for due events now (joined when a look is under way, repeated once if asked meanwhile). */
  poll(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#polling) {
      this.#again = true;
      return this.#polling;
    }
    this.#polling = (async () => {
      do {
        this.#again = false;
        const room = MAX_IN_FLIGHT - this.#inFlight.size;
        if (room <= 0) break;
        let rows: InterruptEventRow[];
        try {
          rows = await this.#options.store.claimEvents(this.#options.owner, this.#lease, room);
        } catch {
          break; // the store is away: the next tick looks again
        }
        for (const row of rows) this.#start(row);
      } while (this.#again && !this.#stopped);
    })().finally(() => {
      this.#polling = undefined;
    });
    return this.#polling;
  }

  /** Stops claiming; attempts under way get a moment to finish, then are aborted and their claims given back. */
  async stop() {
    this.#stopped = true;
    clearInterval(this.#tick);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await this.#polling?.catch(() => {});
    const grace = new Promise<void>((resolve) => setTimeout(resolve, Math.min(STOP_GRACE_MS, this.#timeout)).unref?.());
    await Promise.race([Promise.all([...this.#inFlight.values()].map((attempt) => attempt.done)), grace]);
    const left = [...this.#inFlight.keys()];
    for (const attempt of this.#inFlight.values()) attempt.controller.abort(new Error(`${PREFIX} the runner closed.`));
    await this.#options.store.releaseEvents(this.#options.owner, left).catch(() => {});
  }

  #start(row: InterruptEventRow) {
    const controller = new AbortController();
    const done = this.#deliver(row, controller).finally(() => {
      this.#inFlight.delete(row.event_pk);
      // The thread's next event, or one that waited for room.
      void this.poll();
    });
    this.#inFlight.set(row.event_pk, { controller, done });
  }

  async #deliver(row: InterruptEventRow, controller: AbortController): Promise<void> {
    let event: InterruptEvent;
    try {
      event = toEvent(row, this.#options.toRecord);
    } catch (error) {
      await this.#settle(row, { gaveUp: errorMessage(error) });
      this.#log(`${PREFIX} interrupt event ${row.event_key} cannot be read (${errorMessage(error)}); it was given up.`);
      return;
    }
    const failure = await this.#attempt(event, controller);
    if (failure === STOPPED) return; // its claim is given back by stop()
    if (failure === undefined) {
      await this.#settle(row, { delivered: true });
      return;
    }
    const attempts = Number(row.attempts);
    if (attempts >= positive(this.#options.maxAttempts, 20, 1)) {
      await this.#settle(row, { gaveUp: failure });
      this.#log(
        `${PREFIX} onInterruptEvent failed ${attempts} times for the ${event.type} event ${event.key} of interrupt ${JSON.stringify(event.interrupt.interruptId)} on thread ${JSON.stringify(event.thread.id)} (${failure}); it was given up and stays in the store.`,
      );
      return;
    }
    const retryInMs = this.#backoff(attempts);
    await this.#settle(row, { retryInMs, error: failure });
    this.#log(
      `${PREFIX} onInterruptEvent failed for the ${event.type} event ${event.key} (attempt ${attempts}): ${failure}. Trying again in ${Math.round(retryInMs)} ms.`,
    );
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.poll();
    }, retryInMs + 5);
    timer.unref?.();
    this.#timers.add(timer);
  }

  /** Calls the hook once: undefined when it settled in time, else why not. */
  async #attempt(event: InterruptEvent, controller: AbortController): Promise<string | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<string>((resolve) => {
      timer = setTimeout(() => {
        resolve(`it did not settle within ${this.#timeout} ms`);
        controller.abort(new Error(`${PREFIX} onInterruptEvent did not settle within ${this.#timeout} ms.`));
      }, this.#timeout);
      timer.unref?.();
    });
    // A timeout aborts too, but its reason has won the race by then: only stop() ends here.
    const stopped = new Promise<string>((resolve) => controller.signal.addEventListener('abort', () => resolve(STOPPED)));
    try {
      const called = (async () => {
        await this.#options.hook(event, { signal: controller.signal });
        return undefined;
      })().catch((error: unknown) => `it threw: ${errorMessage(error)}`);
      return await Promise.race([called, timedOut, stopped]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #settle(row: InterruptEventRow, outcome: EventOutcome) {
    try {
      await this.#options.store.settleEvent(row.event_pk, this.#options.owner, outcome);
    } catch (error) {
      // The claim runs out and the event is claimed again: delivered twice at worst, with one key.
      if (!this.#stopped) this.#log(`${PREFIX} could not record the delivery of interrupt event ${row.event_key}: ${errorMessage(error)}`);
    }
  }

  /** The wait after the `attempts`th failure: doubling from the minimum, capped, with a fifth of jitter. */
  #backoff(attempts: number): number {
    const min = positive(this.#options.minBackoffMs, 1_000, 1);
    const max = Math.max(min, positive(this.#options.maxBackoffMs, 300_000, 1));
    const wait = Math.min(max, min * 2 ** Math.min(30, attempts - 1));
    return wait * (0.9 + Math.random() * 0.2);
  }
}

/** A stored event as the hook receives it. */
function toEvent(row: InterruptEventRow, toRecord: (row: InterruptRow) => InterruptRecord): InterruptEvent {
  const interrupt: Omit<InterruptRecord, 'cursor'> & { cursor?: string } = toRecord(row);
  delete interrupt.cursor; // a place in a listing, not the event's
  const ownerName = row.thread_owner_name === null ? null : (JSON.parse(row.thread_owner_name) as unknown);
  return {
    type: row.event_type,
    key: row.event_key,
    at: new Date(Number(row.created_at)).toISOString(),
    attempt: Number(row.attempts),
    interrupt,
    thread: {
      id: interrupt.threadId,
      agentId: interrupt.agentId,
      owner: interrupt.ownerId === null ? null : { id: interrupt.ownerId, name: typeof ownerName === 'string' ? ownerName : null },
    },
  };
}

/** A number option (checked by `checkEventOptions`), or its default. */
function positive(value: number | undefined, fallback: number, min = 1): number {
  return value !== undefined && Number.isFinite(value) && value >= min ? value : fallback;
}

const NUMBER_OPTIONS = ['timeoutMs', 'minBackoffMs', 'maxBackoffMs', 'maxAttempts', 'checkEveryMs'] as const;

/** Refuses, with what to give instead, an `onInterruptEvent` that is not a function or a timing that is not a positive number. */
export function checkEventOptions(hook: unknown, options: unknown): void {
  if (hook !== undefined && typeof hook !== 'function') {
    throw new RunnerError(
      'bad_option',
      `${PREFIX} onInterruptEvent must be a function (event, { signal }) => void | Promise<void>; got ${typeof hook}.`,
    );
  }
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new RunnerError('bad_option', `${PREFIX} interruptEvents must be an object of timings (${NUMBER_OPTIONS.join(', ')}).`);
  }
  for (const name of NUMBER_OPTIONS) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const whole = name === 'maxAttempts' ? Number.isInteger(value) : true;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || !whole) {
      throw new RunnerError(
        'bad_option',
        `${PREFIX} interruptEvents.${name} must be a ${name === 'maxAttempts' ? 'whole number' : 'number of milliseconds'} of at least 1 (got ${JSON.stringify(value) ?? String(value)}).`,
      );
    }
  }
}
