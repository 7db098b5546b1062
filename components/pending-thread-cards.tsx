import { useAgent, useCopilotKit } from '@copilotkit/react-core/v2';
import { useEffect, useId, type ReactElement, type ReactNode } from 'react';
import type { InterruptRenderersConfig } from '../hooks/types';
import { useInterruptRenderers } from './interrupt-renderers';

/** What cards an inbox draws in place: the chat's hook config, less what the inbox sets itself. */
export type InboxCardsConfig = Omit<InterruptRenderersConfig, 'agentId' | 'renderInChat'>;

export interface PendingThreadCardsProps {
  threadId: string;
  /** The runtime's agent the thread belongs to (the inbox row's `agentId`). */
  runtimeAgentId: string;
  config: InboxCardsConfig;
  /** Shown until the thread's open cards are read. */
  loading: ReactNode;
}

// Agents this page has connected for the inbox: a connect replays the thread once (StrictMode runs
// effects twice; AG-UI refuses a second connect while it holds the thread's open interrupts).
const connected = new WeakSet<object>();

/**
 * A thread's open cards, drawn where the inbox stands, answered as in the chat: a private agent
 * for the thread (CopilotKit's `useAgent({ agentId, runtimeAgentId, threadId })`, a proxy of the
 * runtime's agent), read with CopilotKit's connect (the runner replays the thread and its open
 * interrupts), and the same hook the chat uses on it, so an answer is the chat's resume run.
 */
export function PendingThreadCards({ threadId, runtimeAgentId, config, loading }: PendingThreadCardsProps): ReactElement {
  const agentId = `copilotkit-interrupts:inbox:${threadId}:${useId()}`;
  const { agent, isReady } = useAgent({ agentId, runtimeAgentId, threadId, updates: [] });
  const { copilotkit } = useCopilotKit();
  // After `useAgent` has written the thread onto the agent and the cards below have attached to it
  // (a child's effects run before its parent's).
  useEffect(() => {
    if (!isReady || connected.has(agent)) return;
    connected.add(agent);
    copilotkit.connectAgent({ agent }).catch((error: unknown) => {
      connected.delete(agent);
      console.warn(`copilotkit-interrupts inbox: could not read thread "${threadId}":`, error);
    });
  }, [agent, isReady, copilotkit, threadId]);
  return isReady ? <ThreadCards agentId={agentId} config={config} /> : <>{loading}</>;
}

function ThreadCards({ agentId, config }: { agentId: string; config: InboxCardsConfig }) {
  return useInterruptRenderers({ ...config, agentId, renderInChat: false });
}
