/**
 * Run `callback` once the browser has painted the current frame, then `delayMs` later.
 *
 * Why two animation frames: a rAF callback runs *before* the next paint, so the first one only
 * tells us a frame is being produced; the second runs after that frame (with our committed
 * read-only card) has been painted. Without rAF (a server, some test DOMs) a macrotask stands in.
 * Returns a function that cancels whatever has not run yet.
 */
export function afterPaint(callback: () => void, delayMs = 0): () => void {
  let cancelled = false;
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (cancelled) return;
    // Cancelling clears this timer, so its callback needs no check of its own.
    timer = setTimeout(callback, Math.max(0, delayMs));
  };
  if (typeof requestAnimationFrame === 'function') {
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(run);
    });
  } else {
    timer = setTimeout(run, 0);
  }
  return () => {
    cancelled = true;
    // Cancelling a frame that has already run, or a timer never set, does nothing.
    if (frame !== undefined && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
