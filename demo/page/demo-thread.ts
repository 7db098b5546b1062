import { useEffect, useState } from 'react';

const THREAD_KEY = 'copilotkit-interrupts-demo:thread';

/**
 * The thread this tab was on before a reload, if any. A tab starts a fresh thread (CopilotKit
 * mints its id and shows the welcome screen); once the conversation has a message, its id is
 * remembered for the tab, so a reload reconnects to the same thread and its echoes.
 */
export function useRememberedThread(
  agentId = 'default',
  userKey = '',
): { threadId: string | undefined; remember: (threadId: string) => void } {
  const [threadId] = useState(() => readThread(threadKey(agentId, userKey)));
  const [remember] = useState(() => (id: string) => writeThread(threadKey(agentId, userKey), id));
  return { threadId, remember };
}

/**
 * Each agent keeps its own thread (the Mastra agent's thread means nothing to the LangGraph one),
 * and so does each demo user (`userKey`, empty for the first one): a tab switched to Ben does not
 * reopen Ana's thread, which is not his.
 */
const threadKey = (agentId: string, userKey: string) =>
  `${agentId === 'default' ? THREAD_KEY : `${THREAD_KEY}:${agentId}`}${userKey ? `@${userKey}` : ''}`;

function readThread(key: string): string | undefined {
  try {
    return window.sessionStorage.getItem(key) ?? undefined;
  } catch {
    return undefined; // storage disabled: every load is a new thread
  }
}

function writeThread(key: string, threadId: string) {
  try {
    window.sessionStorage.setItem(key, threadId);
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
