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

/**
 * Writes one key; `fail` gets the error when the store throws or, for an async store (an
 * IndexedDB wrapper, say: `set` is typed `void` but may return a promise), when its promise rejects.
 */
export function write(persistence: InterruptHistoryPersistence | undefined, key: string, value: string, fail: (error: unknown) => void) {
  try {
    Promise.resolve(persistence?.set(key, value)).catch(fail);
  } catch (error) {
    fail(error);
  }
}
