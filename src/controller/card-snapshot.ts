import type { InterruptPeople } from '../protocol/types';
import type { InterruptStatus } from '../session/status';

/**
 * Everything one card shows of where its interrupt stands, in one immutable value: what the card
 * reads with a single `useSyncExternalStore`. The controller combines it from the session (the
 * interrupt's phase and the flags it decides) and the history record it wrote; a card never reads
 * either of them itself.
 */
export interface CardSnapshot<View = unknown> {
  /** How cards draw themselves (renderers, locale, labels). */
  view: View;
  /** `pending` while the interrupt waits for this user; otherwise its record's status. */
  status: InterruptStatus;
  /** The payload it was resolved with (this user's, or another device's when `elsewhere`). */
  result?: unknown;
  /** Why the answer did not get through (`status` is `error`). */
  error?: string;
  /** Another device answered it first: the card shows that answer and says so. */
  elsewhere: boolean;
  /** Open, and the user tried to chat on: the card asks to be answered first. */
  answerFirst: boolean;
  /**
   * Answered, and kept here: another card of its set is someone else's to answer, and the agent
   * takes the set's answers together. Who that card waits for.
   */
  heldFor?: InterruptPeople;
  /** In `error`, and Retry can send something now. */
  canRetry: boolean;
  /** Open, and drawn again because the request changed after the user answered it. */
  changed: boolean;
  /** The live slot's copy steps aside: its echo shows in the transcript, or the chat left its thread. */
  steppedAside: boolean;
  /** The tools this thread's user chose to always allow. */
  allowedTools: readonly string[];
}

/** Whether two snapshots show the same thing (so the earlier object is kept and nothing redraws). */
export function sameSnapshot(a: CardSnapshot, b: CardSnapshot): boolean {
  return (
    a.view === b.view &&
    a.status === b.status &&
    a.result === b.result &&
    a.error === b.error &&
    a.elsewhere === b.elsewhere &&
    a.answerFirst === b.answerFirst &&
    a.heldFor === b.heldFor &&
    a.canRetry === b.canRetry &&
    a.changed === b.changed &&
    a.steppedAside === b.steppedAside &&
    a.allowedTools === b.allowedTools
  );
}
