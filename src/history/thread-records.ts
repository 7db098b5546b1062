import { parseRecords } from './parse-records';
import { write } from './persistence';
import { TERMINAL_STATUSES } from '../session/status';
import type { InterruptHistoryPersistence, InterruptHistoryRecord } from './types';

const EMPTY: readonly InterruptHistoryRecord[] = Object.freeze([]);

type Warn = (action: string, threadId: string, error: unknown) => void;

export interface ThreadRecordsOptions {
  persistence: InterruptHistoryPersistence | undefined;
  storageKey: (threadId: string) => string;
  maxPerThread: number;
  notify: () => void;
  warn: Warn;
}

/**
 * The records of each thread, in memory and in storage: what {@link createInterruptHistory} reads
 * (`load`) and writes (`commit`). Threads load on first read, so a history holding many threads
 * only parses the ones shown.
 */
export function createThreadRecords({ persistence, storageKey, maxPerThread, notify, warn }: ThreadRecordsOptions) {
  const threads = new Map<string, readonly InterruptHistoryRecord[]>();
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

  const load = (threadId: string): readonly InterruptHistoryRecord[] => {
    if (!threads.has(threadId) || unread.has(threadId)) read(threadId);
    return threads.get(threadId) ?? EMPTY;
  };

  const save = (threadId: string, records: readonly InterruptHistoryRecord[], replace: boolean) => {
    if (!persistence) return;
    const texts = storedTexts(mergeRecords((!replace && read(threadId)) || [], records).slice(-maxPerThread), threadId, warn);
    // Nothing settled to store (an answer still sending): the key is left as it is, which matters
    // when it could not be read, since writing would wipe what it holds. A save on a thread no read
    // has reached yet does write its answers alone, over what the key may hold: nothing tells a
    // store that is slow to read from one that never will, and the answer must be kept (issue 15).
    // Renders read again, so that takes a store that failed every read from the thread's first
    // render to the end of the answer's run.
    if (texts.length || replace)
      write(persistence, storageKey(threadId), `[${texts.join(',')}]`, (error) => warn('store', threadId, error));
  };

  /** Keeps `records` as the thread's (the newest `maxPerThread`), stores them and tells the listeners. */
  const commit = (threadId: string, records: InterruptHistoryRecord[], replace = false) => {
    const kept = records.length > maxPerThread ? records.slice(records.length - maxPerThread) : records;
    threads.set(threadId, Object.freeze(kept));
    save(threadId, kept, replace);
    notify();
  };

  return { load, commit };
}

/**
 * The JSON text of each record to store. Record by record: one answer JSON cannot hold (a cycle, a
 * BigInt from a custom card) is left out with a warning naming it, instead of keeping every later
 * answer of the thread unsaved.
 */
function storedTexts(records: readonly InterruptHistoryRecord[], threadId: string, warn: Warn): string[] {
  const texts: string[] = [];
  for (const { interrupt, ...r } of records) {
    try {
      // The raw input is dropped: a stored card never resends, and storage is small. The
      // interrupt goes last: reading a huge one back stops at the value limit, and what
      // comes before it (status, answer) must survive that.
      texts.push(JSON.stringify({ ...r, interrupt: { ...interrupt, raw: undefined } }));
    } catch (error) {
      warn(`store the answer of "${r.id}" in the`, threadId, error);
    }
  }
  return texts;
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
