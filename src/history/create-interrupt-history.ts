import { parseRecords } from './parse-records';
import { resolvePersistence, write } from './persistence';
import { createToolGrants } from './tool-grants';
import { TERMINAL_STATUSES } from '../session/status';
import type { InterruptHistory, InterruptHistoryOptions, InterruptHistoryRecord } from './types';
import { LOG } from '../log';
import { createListeners } from '../listeners';

const EMPTY: readonly InterruptHistoryRecord[] = Object.freeze([]);

/**
 * A resolved-interrupt history. Pass it to `useInterruptRenderers({ history })` to keep the
 * read-only cards across remounts and reloads; read it anywhere with `subscribe`/`getSnapshot`.
 *
 * @example
 * const history = createInterruptHistory({ persistence: 'localStorage' });
 * const records = useSyncExternalStore(history.subscribe, () => history.getSnapshot(threadId));
 */
export function createInterruptHistory(options: InterruptHistoryOptions = {}): InterruptHistory {
  const persistence = resolvePersistence(options.persistence);
  const prefix = options.storageKey ?? 'copilotkit-interrupts:history';
  const maxPerThread = options.maxPerThread ?? 200;
  const now = options.now ?? Date.now;
  const threads = new Map<string, readonly InterruptHistoryRecord[]>();
  const { subscribe, notify } = createListeners();

  const storageKey = (threadId: string) => `${prefix}:${threadId}`;
  const warn = (action: string, threadId: string, error: unknown) =>
    console.warn(`${LOG} Could not ${action} interrupt history for thread "${threadId}".`, error);

  /** Threads whose storage could not be read yet: `threads` lacks what is stored, and each access reads again. */
  const unread = new Set<string>();

  /**
   * What is in storage now (another tab may have written since this one loaded), or `undefined`
   * when it cannot be read. A failed read is not final: a store may fail for a while (one still
   * opening, say), so the thread is read again on every access, with one warning until a read
   * works, and the first read that works puts this tab's records (answers given meanwhile) over
   * what is stored. Once a read has worked, the thread's records in memory hold what was stored,
   * so a later save whose own read fails still writes it all back.
   */
  const read = (threadId: string): InterruptHistoryRecord[] | undefined => {
    try {
      const stored = parseRecords(persistence?.get(storageKey(threadId)), threadId, maxPerThread);
      const retried = unread.delete(threadId);
      if (retried || !threads.has(threadId)) {
        const mine = threads.get(threadId) ?? EMPTY;
        const records = [...stored.filter((r) => !mine.some((m) => m.id === r.id)), ...mine].slice(-maxPerThread);
        threads.set(threadId, records.length ? Object.freeze(records) : EMPTY);
        // Readers that got the snapshot before re-read it, after the render that read this one.
        if (retried) queueMicrotask(notify);
      }
      return stored;
    } catch (error) {
      if (!unread.has(threadId)) warn('read', threadId, error);
      unread.add(threadId);
    }
  };

  // Threads load on first read, so a history holding many threads only parses the ones shown.
  const load = (threadId: string): readonly InterruptHistoryRecord[] => {
    if (!threads.has(threadId) || unread.has(threadId)) read(threadId);
    return threads.get(threadId) ?? EMPTY;
  };

  const save = (threadId: string, records: readonly InterruptHistoryRecord[], replace: boolean) => {
    if (!persistence) return;
    // Record by record: one answer JSON cannot hold (a cycle, a BigInt from a custom card) is left
    // out with a warning naming it, instead of keeping every later answer of the thread unsaved.
    const texts: string[] = [];
    for (const { interrupt, ...r } of mergeRecords((!replace && read(threadId)) || [], records).slice(-maxPerThread)) {
      try {
        // The raw input is dropped: a stored card never resends, and storage is small. The
        // interrupt goes last: reading a huge one back stops at the value limit, and what
        // comes before it (status, answer) must survive that.
        texts.push(JSON.stringify({ ...r, interrupt: { ...interrupt, raw: undefined } }));
      } catch (error) {
        warn(`store the answer of "${r.id}" in the`, threadId, error);
      }
    }
    // Nothing settled to store (an answer still sending): the key is left as it is, which matters
    // when it could not be read, since writing would wipe what it holds. A save on a thread no read
    // has reached yet does write its answers alone, over what the key may hold: nothing tells a
    // store that is slow to read from one that never will, and the answer must be kept (issue 15).
    // Renders read again, so that takes a store that failed every read from the thread's first
    // render to the end of the answer's run.
    if (texts.length || replace)
      write(persistence, storageKey(threadId), `[${texts.join(',')}]`, (error) => warn('store', threadId, error));
  };

  const commit = (threadId: string, records: InterruptHistoryRecord[], replace = false) => {
    const kept = records.length > maxPerThread ? records.slice(records.length - maxPerThread) : records;
    threads.set(threadId, Object.freeze(kept));
    save(threadId, kept, replace);
    notify();
  };

  const grants = createToolGrants(persistence, (threadId) => `${prefix}-allowed-tools:${threadId}`, notify, warn);

  const get = (threadId: string, id: string) => load(threadId).find((r) => r.id === id);
  /**
   * Stores `record` in place of its thread's record with its id, or at the end. Looked up here,
   * from the one read this write goes on: a read that works again merges what was stored in front,
   * so a place found by an earlier read may hold another record by now.
   */
  const put = (record: InterruptHistoryRecord) => {
    const next = [...load(record.threadId)];
    const index = next.findIndex((r) => r.id === record.id);
    next[index === -1 ? next.length : index] = record;
    commit(record.threadId, next);
    return record;
  };

  return {
    subscribe,
    getSnapshot: load,
    get,
    record: (entry) => put({ ...entry, time: entry.time ?? now() }),
    update(threadId, id, patch) {
      const current = get(threadId, id);
      return current && put({ ...current, ...patch });
    },
    clear(threadId) {
      commit(threadId, [], true);
    },
    ...grants,
  };
}

/**
 * What to store when another tab on the same thread may have stored records since this one
 * loaded: per id, the newest state wins. A terminal record (the run is over) beats an in-flight
 * one, so a tab still sending an interrupt that another tab resolved keeps that tab's answer; of
 * two terminal records the later one wins (this tab's on a tie). In-flight records are never
 * stored: they would come back as a card stuck in "sending" after a reload. Ordered by time.
 */
export function mergeRecords(theirs: readonly InterruptHistoryRecord[], mine: readonly InterruptHistoryRecord[]): InterruptHistoryRecord[] {
  const byId = new Map<string, InterruptHistoryRecord>();
  for (const record of theirs) byId.set(record.id, record);
  for (const record of mine) {
    if (!TERMINAL_STATUSES.includes(record.status)) continue;
    const other = byId.get(record.id);
    if (!other || record.time >= other.time) byId.set(record.id, record);
  }
  return [...byId.values()].sort((a, b) => a.time - b.time);
}
