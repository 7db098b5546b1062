/** How a run's events reach the store while it runs: in order, in batches, after the thread's history is known. */
import type { BaseEvent } from '@ag-ui/client';
import { encode } from './codec';
import type { ThreadStore } from './thread-store';

/**
 * How long a run's events wait in memory before they are written (ms): a run that ends sooner is
 * saved in the one transaction that ends it; a longer one is written in batches this far apart (an
 * instance following the run from elsewhere reads each batch when it is told of it).
 */
const WRITE_DELAY_MS = 20;

/**
 * An agent's events, passed to `take` with the thread's message ids once `read` has them: what
 * comes before waits for them (only RUN_STARTED's stored input needs them). A failed read goes to
 * `fail`, and nothing more is passed on.
 */
export function withHistory(
  read: Promise<ReadonlySet<string>>,
  take: (event: BaseEvent, historic: ReadonlySet<string>) => void,
  fail: (error: unknown) => void,
) {
  let historic: ReadonlySet<string> | undefined;
  let failed = false;
  const early: BaseEvent[] = [];
  const settled = read.then(
    (ids) => {
      // In order, and also what the agent sends while these are passed on (it queues behind them).
      for (let index = 0; index < early.length; index++) take(early[index]!, ids);
      early.length = 0;
      historic = ids;
    },
    (error: unknown) => {
      failed = true;
      fail(error);
    },
  );
  return {
    onEvent(event: BaseEvent) {
      if (historic) take(event, historic);
      else if (!failed) early.push(event);
    },
    settled,
  };
}

/** Writes a run's events as they arrive, in order, in batches at most `WRITE_DELAY_MS` late. */
export class EventWriter {
  onFailure: (error: unknown) => void = () => {};
  private readonly pending: BaseEvent[] = [];
  /** How many of the run's events are written. */
  private next = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> | undefined;
  private failed = false;
  private drained = false;

  constructor(
    private readonly store: ThreadStore,
    private readonly threadKey: string,
    private readonly runPk: number,
  ) {}

  push(event: BaseEvent) {
    if (this.failed || this.drained) return;
    this.pending.push(event);
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing ??= this.flush();
    }, WRITE_DELAY_MS);
  }

  /** Waits for a write under way and stops writing; returns what is not written yet, for the run's end to save. */
  async drain(): Promise<BaseEvent[]> {
    this.drained = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing) await this.flushing;
    return this.pending.splice(0);
  }

  private async flush() {
    try {
      while (this.pending.length > 0 && !this.failed && !this.drained) {
        const batch = this.pending.splice(0, 200);
        await this.store.appendEvents(this.threadKey, this.runPk, batch.map(encode), this.next);
        this.next += batch.length;
      }
    } catch (error) {
      this.failed = true;
      this.onFailure(error);
    } finally {
      this.flushing = undefined;
    }
  }
}
