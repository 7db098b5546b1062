import { useCopilotChatConfiguration } from '@copilotkit/react-core/v2';
import { useMemo, useSyncExternalStore } from 'react';
import { initialPendingSnapshot, PendingInterruptsSource, type PendingInterruptsOptions, type PendingThread } from '../src/inbox';

export interface UsePendingInterruptsOptions extends Omit<PendingInterruptsOptions, 'agentId'> {
  /**
   * Only this agent's threads. Default: the agent of the chat configuration around the hook (a
   * `CopilotChat`'s or `CopilotChatConfigurationProvider`'s), so a page never offers a thread its
   * chat cannot open; `null` lists every agent's.
   */
  agentId?: string | null;
}

export interface PendingInterrupts {
  /** The threads waiting for the user, the one that has waited longest first. */
  threads: PendingThread[];
  /** What went wrong with the last check (the endpoint unreachable, an error status, a body that is not the inbox's), or `null`. */
  error: string | null;
  /** True until the first check has answered. */
  loading: boolean;
  /** True while the endpoint's stream is open: a change shows as it happens, not at the next poll. */
  live: boolean;
  /** Checks now, e.g. after the user answered a card in this tab. */
  refresh: () => Promise<void>;
}

/**
 * The threads whose interrupts wait for the user, read from the runtime's inbox endpoint
 * (`createInboxHandler` from `copilotkit-interrupts/runner`). While mounted it listens to the
 * endpoint's live stream, so an answer given on another device (through any server instance) drops
 * the thread from the list as it happens, and a chat showing that thread reads it again. An endpoint
 * that does not stream (or `stream: false`, or a stream that is down) is checked every
 * `pollIntervalMs` (default 15 s), and at once when the window regains focus or the tab becomes
 * visible. Switching the chat
 * to a thread is the app's: pass the chosen `threadId` to `<CopilotChat threadId>`.
 */
export function usePendingInterrupts(options: UsePendingInterruptsOptions): PendingInterrupts {
  const { url, pollIntervalMs, requestInit, stream } = options;
  const chatAgentId = useCopilotChatConfiguration()?.agentId;
  const agentId = options.agentId === null ? undefined : (options.agentId ?? chatAgentId);
  // A new URL, agent, interval or stream choice is a new source; `requestInit` is read when the source is made.
  const source = useMemo(
    () => new PendingInterruptsSource({ url, pollIntervalMs, requestInit, stream, ...(agentId !== undefined ? { agentId } : {}) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- requestInit is often an inline object
    [url, pollIntervalMs, agentId, stream],
  );
  const snapshot = useSyncExternalStore(source.subscribe, source.getSnapshot, initialPendingSnapshot);
  return { threads: snapshot.threads, error: snapshot.error, loading: snapshot.loading, live: snapshot.live, refresh: source.refresh };
}
