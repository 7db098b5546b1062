import { useMemo, useSyncExternalStore } from 'react';
import { initialPendingSnapshot, PendingInterruptsSource, type PendingInterruptsOptions, type PendingThread } from '../src/inbox';

export type UsePendingInterruptsOptions = PendingInterruptsOptions;

export interface PendingInterrupts {
  /** The threads waiting for the user, the one that has waited longest first. */
  threads: PendingThread[];
  /** What went wrong with the last check (the endpoint unreachable, an error status, a body that is not the inbox's), or `null`. */
  error: string | null;
  /** True until the first check has answered. */
  loading: boolean;
  /** Checks now, e.g. after the user answered a card in this tab. */
  refresh: () => Promise<void>;
}

/**
 * The threads whose interrupts wait for the user, read from the runtime's inbox endpoint
 * (`createInboxHandler` from `copilotkit-interrupts/runner`). It checks every `pollIntervalMs`
 * (default 15 s) while mounted, and at once when the window regains focus or the tab becomes
 * visible, so an answer given on another device drops the thread from the list. Switching the chat
 * to a thread is the app's: pass the chosen `threadId` to `<CopilotChat threadId>`.
 */
export function usePendingInterrupts(options: UsePendingInterruptsOptions): PendingInterrupts {
  const { url, pollIntervalMs, requestInit } = options;
  // A new URL or interval is a new source; `requestInit` is read when the source is made.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- requestInit is often an inline object
  const source = useMemo(() => new PendingInterruptsSource({ url, pollIntervalMs, requestInit }), [url, pollIntervalMs]);
  const snapshot = useSyncExternalStore(source.subscribe, source.getSnapshot, initialPendingSnapshot);
  return { threads: snapshot.threads, error: snapshot.error, loading: snapshot.loading, refresh: source.refresh };
}
