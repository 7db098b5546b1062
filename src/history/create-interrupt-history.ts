import { resolvePersistence } from './persistence';
import { createThreadRecords } from './thread-records';
import { createToolGrants } from './tool-grants';
import type { InterruptHistory, InterruptHistoryOptions, InterruptHistoryRecord } from './types';
import { LOG } from '../log';
import { createListeners } from '../listeners';

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
  const { subscribe, notify } = createListeners();

  const warn = (action: string, threadId: string, error: unknown) =>
    console.warn(`${LOG} Could not ${action} interrupt history for thread "${threadId}".`, error);

  const { load, commit } = createThreadRecords({
    persistence,
    storageKey: (threadId) => `${prefix}:${threadId}`,
    maxPerThread,
    notify,
    warn,
  });

  const grants = createToolGrants(persistence, (threadId) => `${prefix}-allowed-tools:${threadId}`, notify, warn);

  // A thread's records by id, per records array (each is frozen and replaced on a change): every
  // card reads its own record on each change, so a scan per read would cost the thread's length.
  const byId = new WeakMap<readonly InterruptHistoryRecord[], Map<string, InterruptHistoryRecord>>();
  const get = (threadId: string, id: string) => {
    const records = load(threadId);
    let index = byId.get(records);
    if (!index) {
      index = new Map();
      // The first record of an id, as a scan would find.
      for (const record of records) if (!index.has(record.id)) index.set(record.id, record);
      byId.set(records, index);
    }
    return index.get(id);
  };
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
