import type { InterruptHistoryOptions, InterruptHistoryPersistence } from './types';

/**
 * The adapter for a `persistence` option. Web storage is looked up lazily and guarded: it is
 * missing on a server and throws in some privacy modes, and a history must still work there.
 */
export function resolvePersistence(
  option: InterruptHistoryOptions['persistence'],
): InterruptHistoryPersistence | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'object') return option;
  return webStorage(option);
}

function webStorage(name: 'localStorage' | 'sessionStorage'): InterruptHistoryPersistence {
  const storage = (): Storage | undefined => {
    try {
      return typeof globalThis === 'object' ? (globalThis as Record<string, unknown>)[name] as Storage | undefined : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    get: (key) => storage()?.getItem(key),
    set: (key, value) => storage()?.setItem(key, value),
  };
}
