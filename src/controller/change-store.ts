import type { InterruptHistory } from '../history';
import { createListeners } from '../listeners';

/**
 * The controller's external store: listeners hear of a dispatch once, when it is over, and of the
 * history's changes made elsewhere (another tab, the app) as they come. The history is followed
 * while anyone listens; its changes made during a dispatch are told with the dispatch's one
 * notification.
 */
export class ChangeStore {
  #listeners = createListeners();
  #history: InterruptHistory;
  #subscribers = 0;
  #unfollowHistory?: () => void;
  #dispatching = false;

  constructor(history: InterruptHistory) {
    this.#history = history;
  }

  /** A dispatch is under way: effects may happen now (and only now). */
  get dispatching(): boolean {
    return this.#dispatching;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    const unsubscribe = this.#listeners.subscribe(listener);
    if (this.#subscribers++ === 0) {
      this.#unfollowHistory = this.#history.subscribe(() => {
        if (!this.#dispatching) this.#listeners.notify();
      });
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      unsubscribe();
      if (--this.#subscribers === 0) this.#unfollowHistory?.();
    };
  };

  /**
   * Runs `dispatch`, then tells listeners once. A dispatch inside a dispatch (a send settled at
   * once) is part of it: the outer one notifies.
   */
  during<T>(dispatch: () => T): T {
    const outer = !this.#dispatching;
    this.#dispatching = true;
    let result: T;
    try {
      result = dispatch();
    } finally {
      if (outer) this.#dispatching = false;
    }
    if (outer) this.#listeners.notify();
    return result;
  }
}
