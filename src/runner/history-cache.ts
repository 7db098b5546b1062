import { compactEvents, EventType, type BaseEvent } from '@ag-ui/client';

/** The events of one ended run, parsed, in order. */
export interface CachedRun {
  runPk: number;
  events: readonly BaseEvent[];
}

/**
 * A thread's history as the store held it at change number `seq`: the events of its ended runs
 * (the runs a connect replays), in order. Valid while the thread's change number in the store is
 * still `seq`; every commit that touches a thread draws it a new one.
 */
export interface HistoryEntry {
  seq: number;
  runs: readonly CachedRun[];
  /** The events compacted as a connect replays them, worked out on the first replay that needs it. */
  compacted?: BaseEvent[];
  /** The ids of the messages the history holds, worked out on the first run that needs them. */
  messageIds?: Set<string>;
}

/** How many threads' histories an instance keeps, and how many events in all. */
export interface HistoryCacheLimits {
  threads: number;
  events: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryCacheLimits = { threads: 1_000, events: 50_000 };

const sizeOf = (entry: HistoryEntry) => entry.runs.reduce((total, run) => total + run.events.length, 0);

/**
 * The recently used threads' histories, in memory, least recently used dropped first. An entry is
 * only ever used for the change number it was read (or advanced) at: the store stays the truth, and
 * a change made anywhere (this instance, another, an expiry) gives the thread a number no entry
 * holds. An entry is stored under a number no later than what it holds (it was read after that
 * number was), so a thread changed between the two reads is read again next time, never missed.
 */
export class HistoryCache {
  readonly #entries = new Map<string, HistoryEntry>();
  #events = 0;

  constructor(private readonly limits: HistoryCacheLimits = DEFAULT_HISTORY_LIMITS) {}

  /** The thread's history at change number `seq`, or undefined. */
  get(threadId: string, seq: number): HistoryEntry | undefined {
    const entry = this.#entries.get(threadId);
    if (!entry || entry.seq !== seq) return undefined;
    this.#entries.delete(threadId);
    this.#entries.set(threadId, entry);
    return entry;
  }

  /** The ended runs held for the thread, at whatever change number: a run that has ended never changes. */
  knownRuns(threadId: string): readonly CachedRun[] {
    return this.#entries.get(threadId)?.runs ?? [];
  }

  set(threadId: string, entry: HistoryEntry): void {
    this.delete(threadId);
    const size = sizeOf(entry);
    if (size > this.limits.events) return;
    this.#entries.set(threadId, entry);
    this.#events += size;
    for (const [oldest, old] of this.#entries) {
      if (this.#entries.size <= this.limits.threads && this.#events <= this.limits.events) break;
      this.#entries.delete(oldest);
      this.#events -= sizeOf(old);
    }
  }

  delete(threadId: string): void {
    const entry = this.#entries.get(threadId);
    if (!entry) return;
    this.#entries.delete(threadId);
    this.#events -= sizeOf(entry);
  }

  /**
   * This instance committed change `after` of a thread whose number was `before` when its
   * transaction locked the thread: an entry at `before` is the history at `after`, with `ended`
   * (the run that change ended) added unless it already holds it (read after the commit). Any
   * other entry is dropped.
   */
  advance(threadId: string, before: number | undefined, after: number, ended?: () => CachedRun): void {
    const entry = this.#entries.get(threadId);
    if (!entry) return;
    if (before === undefined || entry.seq !== before) {
      this.delete(threadId);
      return;
    }
    const run = ended?.();
    if (!run || entry.runs.some((held) => held.runPk === run.runPk)) this.set(threadId, { ...entry, seq: after });
    else this.set(threadId, { seq: after, runs: [...entry.runs, run] });
  }
}

/** The history's events, compacted as a connect replays them, without the run `exceptRunPk` (one still live). */
export function replayedEvents(entry: HistoryEntry, exceptRunPk: number | undefined): BaseEvent[] {
  if (exceptRunPk !== undefined && entry.runs.some((run) => run.runPk === exceptRunPk)) {
    return compactEvents(entry.runs.filter((run) => run.runPk !== exceptRunPk).flatMap((run) => run.events));
  }
  entry.compacted ??= compactEvents(entry.runs.flatMap((run) => run.events));
  return entry.compacted;
}

/** The ids of the messages a history holds: each event's `messageId`, and the messages its runs' inputs carried. */
export function messageIdsOf(entry: HistoryEntry): Set<string> {
  if (entry.messageIds) return entry.messageIds;
  const ids = new Set<string>();
  for (const run of entry.runs) {
    for (const event of run.events) {
      const { messageId, type, input } = event as { messageId?: unknown; type?: unknown; input?: { messages?: Array<{ id?: unknown }> } };
      if (typeof messageId === 'string') ids.add(messageId);
      if (type === EventType.RUN_STARTED) {
        for (const message of input?.messages ?? []) if (typeof message?.id === 'string') ids.add(message.id);
      }
    }
  }
  entry.messageIds = ids;
  return ids;
}
