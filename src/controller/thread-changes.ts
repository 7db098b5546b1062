/**
 * "A thread's record changed somewhere else": another device answered, the agent moved on. Whoever
 * learns of it (the inbox's poll today, a push from the server later) calls {@link threadChanged};
 * every controller showing that thread re-reads it (`refreshThread`). The trigger knows nothing of
 * chats, and the re-read nothing of what triggered it.
 */
type ThreadChangeListener = (threadId: string, waiting?: readonly string[]) => void;
const listeners = new Set<ThreadChangeListener>();

/**
 * Tells every chat showing `threadId` that the thread changed elsewhere: each re-reads it, unless
 * `waiting` (the ids of the interrupts the thread now waits on, when the teller knows them) is what
 * that chat already shows waiting: the change was its own.
 */
export function threadChanged(threadId: string, waiting?: readonly string[]): void {
  for (const listener of [...listeners]) listener(threadId, waiting);
}

/** Hears {@link threadChanged}; returns the function that stops listening. */
export function onThreadChanged(listener: ThreadChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
