/**
 * "A thread's record changed somewhere else": another device answered, the agent moved on. Whoever
 * learns of it (the inbox's poll today, a push from the server later) calls {@link threadChanged};
 * every controller showing that thread re-reads it (`refreshThread`). The trigger knows nothing of
 * chats, and the re-read nothing of what triggered it.
 */
const listeners = new Set<(threadId: string) => void>();

/** Tells every chat showing `threadId` that the thread changed elsewhere: each re-reads it. */
export function threadChanged(threadId: string): void {
  for (const listener of [...listeners]) listener(threadId);
}

/** Hears {@link threadChanged}; returns the function that stops listening. */
export function onThreadChanged(listener: (threadId: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
