import type { InterruptStatus } from '../session/status';
import type { UnwrappedInterrupt } from '../unwrap/types';

/** One interrupt the user acted on, as the transcript echoes it. */
export interface InterruptHistoryRecord<TResult = unknown> {
  threadId: string;
  /** The interrupt's own id (resume addressed it). */
  id: string;
  reason: string;
  interrupt: UnwrappedInterrupt;
  /**
   * Where it stands (never `pending`: a record exists once the user acted). Only the statuses in
   * `TERMINAL_STATUSES` are persisted: `submitting` and `error` live in memory only.
   */
  status: InterruptStatus;
  /** The payload the user resolved with; absent for cancel and expiry. */
  result?: TResult;
  /** Why the resume run failed (status `error`). */
  error?: string;
  /**
   * Another device answered first: `status` and `result` are its answer, the one the agent got;
   * this tab's answer was refused.
   */
  elsewhere?: true;
  /** When the user acted, in epoch milliseconds. */
  time: number;
  /**
   * Transcript position: the id of the last message when the interrupt appeared, `null` when the
   * transcript was empty. The echo is drawn right after that message.
   */
  anchor: string | null;
  agentId?: string;
}

/** Your own storage for a history: read and write one string per key (e.g. an IndexedDB cache). */
export interface InterruptHistoryPersistence {
  /**
   * The stored text, read synchronously: cards render from it. For an async store, load what it
   * holds into memory first and answer from there. A throw counts as "cannot be read now": the
   * key is read again on the next access.
   */
  get(key: string): string | null | undefined;
  /** May return a promise (an async store writing in the background): a rejection is warned about like a throw. */
  set(key: string, value: string): void;
}

export interface InterruptHistoryOptions {
  /**
   * Where records survive a reload: `'localStorage'`, `'sessionStorage'`, or your own get/set.
   * Omit for memory only.
   */
  persistence?: 'localStorage' | 'sessionStorage' | InterruptHistoryPersistence;
  /** Storage key prefix; each thread is stored under `${storageKey}:${threadId}`. */
  storageKey?: string;
  /** Records kept per thread (oldest dropped first). Default 200. */
  maxPerThread?: number;
  /** Clock for `time`; injectable for tests. */
  now?: () => number;
}

/**
 * Resolved-interrupt history: a tiny external store (`subscribe` / `getSnapshot`) that React reads
 * with `useSyncExternalStore` and anything else can read directly.
 */
export interface InterruptHistory {
  subscribe(listener: () => void): () => void;
  /** All records of one thread in the order the user acted. Same array until that thread changes. */
  getSnapshot(threadId: string): readonly InterruptHistoryRecord[];
  get(threadId: string, id: string): InterruptHistoryRecord | undefined;
  /** Add or replace the record with this thread and id (`time` defaults to now). */
  record(entry: Omit<InterruptHistoryRecord, 'time'> & { time?: number }): InterruptHistoryRecord;
  /** Change fields of an existing record; returns it, or `undefined` when there is none. */
  update(
    threadId: string,
    id: string,
    patch: Partial<Pick<InterruptHistoryRecord, 'status' | 'result' | 'error' | 'elsewhere'>>,
  ): InterruptHistoryRecord | undefined;
  /** Forget one thread's records (and their stored copy). */
  clear(threadId: string): void;
  /**
   * The tools this thread always allows (the approval card's "Always allow <tool> in this
   * conversation"). Same array until they change; stored next to the thread's records.
   */
  allowedTools(threadId: string): readonly string[];
  allowTool(threadId: string, toolName: string): void;
  revokeTool(threadId: string, toolName: string): void;
}
