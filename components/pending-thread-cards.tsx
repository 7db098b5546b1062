import { useAgent, useCopilotKit } from '@copilotkit/react-core/v2';
import { useEffect, useId, useMemo, useState, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import type { CardView } from '../hooks/card-view';
import type { InterruptRenderersConfig } from '../hooks/types';
import { controllerRegistry } from '../src/controller/controller-registry';
import { errorMessage } from '../src/error-message';
import { ChosenEchoes } from './host/anchored-echoes';
import { useInterruptRenderers } from './interrupt-renderers';

/** What cards an inbox draws in place: the chat's hook config, less what the inbox sets itself. */
export type InboxCardsConfig = Omit<InterruptRenderersConfig, 'agentId' | 'renderInChat'>;

export interface PendingThreadCardsProps {
  threadId: string;
  /** The runtime's agent the thread belongs to (the inbox row's `agentId`). */
  runtimeAgentId: string;
  /** The interrupts the inbox row lists: their cards stay, read-only, once answered. */
  interruptIds: readonly string[];
  config: InboxCardsConfig;
  /** Shown until the thread's open cards are read. */
  loading: ReactNode;
  /** Said when the thread could not be read (`{error}`: why), and the button that reads it again. */
  labels: { failed: (error: string) => string; retry: string };
}

// Agents this page has connected for the inbox: a connect replays the thread once (StrictMode runs
// effects twice; AG-UI refuses a second connect while it holds the thread's open interrupts).
const connected = new WeakSet<object>();

/**
 * A thread's open cards, drawn where the inbox stands, answered as in the chat: a private agent
 * for the thread (CopilotKit's `useAgent({ agentId, runtimeAgentId, threadId })`, a proxy of the
 * runtime's agent), read with CopilotKit's connect (the runner replays the thread and its open
 * interrupts), and the same hook the chat uses on it, so an answer is the chat's resume run. The
 * cards answered here stay, read-only, with the answer. A read that fails says so (`role="alert"`)
 * and offers to read again.
 */
export function PendingThreadCards({
  threadId,
  runtimeAgentId,
  interruptIds,
  config,
  loading,
  labels,
}: PendingThreadCardsProps): ReactElement {
  const agentId = `copilotkit-interrupts:inbox:${threadId}:${useId()}`;
  const { agent, isReady } = useAgent({ agentId, runtimeAgentId, threadId, updates: [] });
  const { copilotkit } = useCopilotKit();
  const [failure, setFailure] = useState<{ error: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  // CopilotKit's connect does not reject when the thread cannot be read: it reports the failure to
  // its subscribers (and the console). This row hears of its own agent's and says so.
  useEffect(() => {
    const subscription = copilotkit.subscribe({
      onError: ({ error, code, context }) => {
        if (code !== 'agent_connect_failed') return;
        if (context?.agentId !== undefined ? context.agentId !== agentId : context?.threadId !== threadId) return;
        connected.delete(agent);
        setFailure({ error: errorMessage(error) });
      },
    });
    return () => subscription.unsubscribe();
  }, [copilotkit, agent, agentId, threadId]);
  // After `useAgent` has written the thread onto the agent and the cards below have attached to it
  // (a child's effects run before its parent's).
  useEffect(() => {
    if (!isReady || connected.has(agent)) return;
    connected.add(agent);
    copilotkit.connectAgent({ agent }).catch((error: unknown) => {
      connected.delete(agent);
      console.warn(`copilotkit-interrupts inbox: could not read thread "${threadId}":`, error);
      setFailure({ error: errorMessage(error) });
    });
  }, [agent, isReady, copilotkit, threadId, attempt]);
  const retry = () => {
    setFailure(null);
    setAttempt((n) => n + 1);
  };
  return (
    <>
      {failure ? (
        <div className="cki-inbox__error" role="alert" data-testid="pending-thread-error">
          <p className="cki-error__text">{labels.failed(failure.error)}</p>
          <button type="button" className="cki-button cki-button--ghost" onClick={retry}>
            {labels.retry}
          </button>
        </div>
      ) : null}
      {isReady ? <ThreadCards agentId={agentId} threadId={threadId} interruptIds={interruptIds} config={config} /> : loading}
    </>
  );
}

function ThreadCards({
  agentId,
  threadId,
  interruptIds,
  config,
}: {
  agentId: string;
  threadId: string;
  interruptIds: readonly string[];
  config: InboxCardsConfig;
}) {
  const open = useInterruptRenderers({ ...config, agentId, renderInChat: false });
  const { copilotkit } = useCopilotKit();
  const controller = useSyncExternalStore(controllerRegistry.subscribe, () => controllerRegistry.get<CardView>(copilotkit, agentId));
  const ids = useMemo(() => new Set(interruptIds), [interruptIds]);
  return (
    <>
      {/* Once answered, a card is drawn from its record (the open copy steps aside), and stays. */}
      {controller ? <ChosenEchoes controller={controller} threadId={threadId} agentId={agentId} ids={ids} /> : null}
      {open}
    </>
  );
}
