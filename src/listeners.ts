/**
 * A set of change listeners, the half of an external store that `useSyncExternalStore`
 * subscribes to. `notify` calls a copy of the set, so a listener that unsubscribes while being
 * called does not skip the next one.
 */
export function createListeners() {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify() {
      for (const listener of [...listeners]) listener();
    },
  };
}
