import type { InterruptHistory } from '../history';
import { createListeners } from '../listeners';

/** The controller's external store (see {@link createChangeStore}). */
export interface ChangeStore {
  subscribe(listener: () => void): () => void;
  /**
   * Runs `dispatch`, then tells listeners once. A dispatch inside a dispatch (a send settled at
   * once) is part of it: the outer one notifies.
   */
  during<T>(dispatch: () => T): T;
}

/**
 * The controller's external store: listeners hear of a dispatch once, when it is over, and of the
 * history's changes made elsewhere (another tab, the app) as they come. The history is followed
 * while anyone listens; its changes made during a dispatch are told with the dispatch's one
 * notification.
 */
export function createChangeStore(history: InterruptHistory): ChangeStore {
  const listeners = createListeners();
  let subscribers = 0;
  let unfollowHistory: (() => void) | undefined;
  let dispatching = false;

  const subscribe = (listener: () => void): (() => void) => {
    const unsubscribe = listeners.subscribe(listener);
    if (subscribers++ === 0) {
      unfollowHistory = history.subscribe(() => {
        if (!dispatching) listeners.notify();
      });
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      unsubscribe();
      if (--subscribers === 0) unfollowHistory?.();
    };
  };

  function during<T>(dispatch: () => T): T {
    const outer = !dispatching;
    dispatching = true;
    let result: T;
    try {
      result = dispatch();
    } finally {
      if (outer) dispatching = false;
    }
    if (outer) listeners.notify();
    return result;
  }

  return { subscribe, during };
}
