import { useEffect, useState } from 'react';

const THREAD_KEY = 'copilotkit-interrupts-demo:thread';

/**
 * The thread this tab was on before a reload, if any. A tab starts a fresh thread (CopilotKit
 * mints its id and shows the welcome screen); once the conversation has a message, its id is
 * remembered for the tab, so a reload reconnects to the same thread and its echoes.
 */
export function useRememberedThread(): { threadId: string | undefined; remember: (threadId: string) => void } {
  const [threadId] = useState(() => readThread());
  return { threadId, remember: writeThread };
}

function readThread(): string | undefined {
  try {
    return window.sessionStorage.getItem(THREAD_KEY) ?? undefined;
  } catch {
    return undefined; // storage disabled: every load is a new thread
  }
}

function writeThread(threadId: string) {
  try {
    window.sessionStorage.setItem(THREAD_KEY, threadId);
  } catch {
    // storage disabled: nothing to remember
  }
}

/** Remembers `threadId` once the conversation has started. */
export function useRememberThread(threadId: string | undefined, started: boolean, remember: (id: string) => void) {
  useEffect(() => {
    if (threadId && started) remember(threadId);
  }, [threadId, started, remember]);
}
