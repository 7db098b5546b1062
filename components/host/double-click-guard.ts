import { useEffect, useMemo } from 'react';

/**
 * A double click on an answer button must answer one card, once. The first click answers; the
 * card then turns into its shorter read-only form (or hides while its transcript echo takes over),
 * so the second click of the double click lands on whatever moved up under the pointer: a sibling
 * card's button, the chat's suggestion chips. That click is the same gesture, not a new decision:
 * the browser counts it in `detail` (2 for the second click at the same spot). So after a click
 * answers a card, the clicks that continue its sequence are swallowed before anything sees them.
 *
 * Only a click at the same spot (a few pixels) within a second counts as the rest of the gesture.
 * Keyboard activation (`detail` 0) arms nothing, and a new sequence (a click whose `detail` is not
 * higher) disarms the guard: a click the user meant is never lost.
 */

/** The pointer click being dispatched now (cleared once its task is over). */
let current: MouseEvent | undefined;
/** After an answer: the click that answered, and until when its sequence may run on. */
let armed: { detail: number; until: number; x: number; y: number } | undefined;

/** As long as the slowest common double-click setting; the `detail` check does the real work. */
const SEQUENCE_MS = 1_000;
/** How far the pointer may move within one double click (browsers allow a few pixels). */
const NEAR_PX = 16;

function onClick(event: MouseEvent) {
  if (
    armed &&
    event.detail > armed.detail &&
    event.timeStamp <= armed.until &&
    Math.abs(event.clientX - armed.x) <= NEAR_PX &&
    Math.abs(event.clientY - armed.y) <= NEAR_PX
  ) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  armed = undefined;
  // Keyboard activation (`detail` 0) is no pointer click: it replaces any earlier one and arms nothing.
  current = event.detail >= 1 ? event : undefined;
  // A form's submit runs after the click's listeners, in the same task: keep the click until then.
  setTimeout(() => {
    if (current === event) current = undefined;
  });
}

let installed = false;

/** Starts watching clicks (once per page; a card calls it when it mounts). */
export function installDoubleClickGuard(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('click', onClick, { capture: true });
}

/** A card was answered: if a pointer click did it, swallow the rest of that click's sequence. */
export function answeredNow(): void {
  if (current) armed = { detail: current.detail, until: current.timeStamp + SEQUENCE_MS, x: current.clientX, y: current.clientY };
}

/**
 * A card's `resolve` and `cancel`, arming the guard when they answer. Stable while the given
 * ones are, so a memoized card does not redraw.
 */
export function useDoubleClickGuard<T>(resolve: (payload: T) => void, cancel: () => void) {
  useEffect(installDoubleClickGuard, []);
  return useMemo(
    () => ({
      resolve: (payload: T) => {
        answeredNow();
        resolve(payload);
      },
      cancel: () => {
        answeredNow();
        cancel();
      },
    }),
    [resolve, cancel],
  );
}
