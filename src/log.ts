/** Prefixes every console message of the package, so an app can tell (and filter) ours. */
export const LOG = '[copilotkit-interrupts]';

/** Where debug messages go; none until the app turns them on. */
let debugSink: ((message: string) => void) | undefined;

/**
 * Turns the package's debug messages on or off: what happens in normal use that a developer may
 * want to follow (an interrupt passing its deadline), never printed otherwise. `true` writes them
 * with `console.debug`; a function gets each message instead; `false` turns them off (the default).
 *
 * @example
 * setInterruptsDebug(process.env.NODE_ENV !== 'production');
 */
export function setInterruptsDebug(on: boolean | ((message: string) => void)): void {
  debugSink = typeof on === 'function' ? on : on ? (message) => console.debug(message) : undefined;
}

/** A debug message (see {@link setInterruptsDebug}): silent unless the app turned them on. */
export function debugLog(message: string): void {
  try {
    debugSink?.(`${LOG} ${message}`);
  } catch {
    // An app's logger must not break the chat.
  }
}
