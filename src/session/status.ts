/**
 * The one status vocabulary: what a card shows, what a history record stores and what
 * `InterruptRendererProps.status` says. The session's {@link InterruptPhase} is finer on purpose
 * (it tells "answered, waiting for the paint" from "sending", and an expiry the agent still owes
 * a `cancelled` for); {@link statusOf} is the one place a phase becomes a status. The durable
 * runner's row status is another meaning with its own name, `StoredInterruptStatus` (src/wire/inbox.ts).
 *
 * - `pending`: waiting for the user.
 * - `submitting`: answered; the resume is on its way.
 * - `resolved`: the agent received the answer.
 * - `cancelled`: the user dismissed the card (AG-UI `cancelled`), or the agent moved on without it.
 * - `dismissed`: closed because the user sent a chat message instead (steer-away); the agent got `cancelled`.
 * - `expired`: its `expiresAt` passed unanswered; the agent gets `cancelled` with the next run.
 * - `error`: the answer did not reach the agent; `error` says why.
 */
export type InterruptStatus = 'pending' | 'submitting' | 'resolved' | 'cancelled' | 'dismissed' | 'expired' | 'error';

/**
 * Statuses worth persisting: the run they belong to is over. `submitting` and `error` only live in
 * memory: a page that reloads mid-run cannot know how the run ended.
 */
export const TERMINAL_STATUSES: readonly InterruptStatus[] = ['resolved', 'cancelled', 'dismissed', 'expired'];

/** What an AG-UI resume entry says of its interrupt: the two statuses the agent can receive. */
export type ResumeStatus = Extract<InterruptStatus, 'resolved' | 'cancelled'>;

/** One entry of AG-UI `RunAgentInput.resume`. */
export interface ResumeEntry {
  interruptId: string;
  status: ResumeStatus;
  payload?: unknown;
}
