import type { InterruptHistoryOptions, InterruptHistoryPersistence } from './types';

/**
 * The adapter for a `persistence` option. Web storage is looked up lazily and guarded: it is
 * missing on a server and throws in some privacy modes, and a history must still work there.
 */
export function resolvePersistence(option: InterruptHistoryOptions['persistence']): InterruptHistoryPersistence | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'object') return option;
  return webStorage(option);
}

function webStorage(name: 'localStorage' | 'sessionStorage'): InterruptHistoryPersistence {
  const storage = (): Storage | undefined => {
    // Missing or throwing storage (and a runtime without globalThis) all end up in the catch.
    try {
      return (globalThis as Record<string, unknown>)[name] as Storage | undefined;
    } catch {
      return undefined;
    }
  };
  return {
    get: (key) => storage()?.getItem(key),
    set: (key, value) => storage()?.setItem(key, value),
  };
}

/** Per store and key: whether a write is on its way, and the newest value waiting for it. */
const inFlight = new WeakMap<InterruptHistoryPersistence, Map<string, { next?: string }>>();

/**
 * Writes one key; `fail` gets the error when the store throws or, for an async store (an
 * IndexedDB wrapper, say: `set` is typed `void` but may return a promise), when its promise rejects.
 * An async store gets one write per key at a time, and a write asked for meanwhile waits for it
 * (only the newest value is kept): a store that finishes its writes out of order would otherwise
 * end up holding an older value than the last one written.
 */
export function write(persistence: InterruptHistoryPersistence | undefined, key: string, value: string, fail: (error: unknown) => void) {
  if (!persistence) return;
  let keys = inFlight.get(persistence);
  if (!keys) inFlight.set(persistence, (keys = new Map()));
  const waiting = keys.get(key);
  if (waiting) {
    waiting.next = value;
    return;
  }
  const start = (text: string) => {
    const slot: { next?: string } = {};
    keys.set(key, slot);
    const done = () => {
      keys.delete(key);
      if (slot.next !== undefined) start(slot.next);
    };
    let result: unknown;
    try {
      result = persistence.set(key, text);
    } catch (error) {
      fail(error);
      done();
      return;
    }
    if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
      Promise.resolve(result).then(done, (error: unknown) => {
        fail(error);
        done();
      });
    } else done();
  };
  start(value);
}
