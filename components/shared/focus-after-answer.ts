/**
 * Where keyboard focus goes when a card is answered. The button that had focus disappears with
 * the interactive body, and the card itself may be drawn again elsewhere (the live slot hands it
 * to its place in the transcript), so focus would fall to the page. Instead it goes to the next
 * open card of the same set, if one is waiting, else to the answered card's summary, wherever
 * that card is drawn next.
 */

/** Every mounted card frame by interrupt id (a card drawn twice for a moment has two). */
const frames = new Map<string, Set<HTMLElement>>();

interface Request {
  /** When the answer was given: a request not met within {@link REQUEST_MS} is dropped. */
  at: number;
  /** The open card to move to, chosen while the answered card was still beside it. */
  next?: HTMLElement;
}
const requests = new Map<string, Request>();
const REQUEST_MS = 5_000;

/** The card frames of the set `frame` belongs to: the open cards drawn side by side with it. */
function nextOpenCard(frame: HTMLElement): HTMLElement | undefined {
  const entry = frame.closest<HTMLElement>('[data-interrupt-id]') ?? frame;
  const siblings = entry.parentElement ? [...entry.parentElement.children] : [];
  const at = siblings.indexOf(entry);
  // After it first, then before it: the order the user reads the set in.
  const order = [...siblings.slice(at + 1), ...siblings.slice(0, Math.max(at, 0))];
  for (const sibling of order) {
    const open = sibling.matches('.cki-root[data-phase="interactive"]')
      ? sibling
      : sibling.querySelector<HTMLElement>('.cki-root[data-phase="interactive"]');
    if (open instanceof HTMLElement) return open;
  }
  return undefined;
}

/** Registers a mounted card frame; returns the unregister function. */
export function registerFrame(id: string, frame: HTMLElement): () => void {
  let set = frames.get(id);
  if (!set) frames.set(id, (set = new Set()));
  set.add(frame);
  return () => {
    set.delete(frame);
    if (set.size === 0) frames.delete(id);
  };
}

/** The user answered (or closed) card `id`: its next frame to settle takes the focus. */
export function requestFocusAfterAnswer(id: string): void {
  // Requests nobody met (the card never drawn again) are dropped, so the map stays small.
  for (const [other, { at }] of requests) if (Date.now() - at > REQUEST_MS) requests.delete(other);
  // The card answered is the one the user acted in: the frame holding focus (another chat on the
  // page may draw a card of the same id), else the first drawn.
  const drawn = [...(frames.get(id) ?? [])];
  const frame = drawn.find((candidate) => candidate.contains(candidate.ownerDocument.activeElement)) ?? drawn[0];
  requests.set(id, { at: Date.now(), next: frame ? nextOpenCard(frame) : undefined });
}

/** Focus is nowhere the user put it: on the page, or gone with the body that held it. */
function focusWasLost(frame: HTMLElement): boolean {
  const active = frame.ownerDocument.activeElement;
  return !active || active === frame.ownerDocument.body || !active.isConnected || active === frame;
}

/**
 * Called by a read-only card frame when it mounts or turns read-only: if its card was just
 * answered and focus was lost, moves focus to the waiting open card or to this card's summary.
 */
export function settleFocus(id: string, frame: HTMLElement): void {
  const request = requests.get(id);
  if (!request) return;
  if (Date.now() - request.at > REQUEST_MS) {
    requests.delete(id);
    return;
  }
  if (!focusWasLost(frame)) return;
  const next = request.next?.isConnected && request.next.dataset.phase === 'interactive' ? request.next : nextOpenCard(frame);
  const target = next
    ? (next.querySelector<HTMLElement>('.cki-root__body > [tabindex="-1"]') ?? next)
    : (frame.querySelector<HTMLElement>('.cki-summary') ?? frame);
  target.focus({ preventScroll: true });
  // Moved to the next card: done. On its own summary, the request stays a moment, so a redraw of
  // this card elsewhere (its place in the transcript) takes the focus along.
  if (next) requests.delete(id);
}

/**
 * A control that answered cards for the user (Approve all) went away while it held focus: the
 * first of `ids` drawn takes it (its summary, or the next open card of its set), now if it is
 * drawn already, else when it is.
 */
export function handFocusTo(ids: readonly string[]): void {
  const [id] = ids;
  if (id === undefined) return;
  requestFocusAfterAnswer(id);
  const frame = [...(frames.get(id) ?? [])].find((f) => f.isConnected && f.dataset.phase !== 'interactive');
  if (frame) settleFocus(id, frame);
}
