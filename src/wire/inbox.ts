/**
 * What the durable runner's inbox sends and the browser's inbox reads: an interrupt's stored
 * status, and one interrupt of the list.
 */

/**
 * Where a stored interrupt stands in the durable runner (its row's `status`): `open` until answered,
 * then `resolved` or `cancelled` (a cancel the server made for an expiry too). `changed`: answered,
 * but the agent refused the answer because the request had changed since its card was drawn
 * (`interrupt_changed`); the request as it is now is a new open interrupt. Not the browser's
 * `InterruptStatus`, which says where a card stands.
 */
export type StoredInterruptStatus = 'open' | 'resolved' | 'cancelled' | 'changed';
export const STORED_INTERRUPT_STATUSES: readonly StoredInterruptStatus[] = ['open', 'resolved', 'cancelled', 'changed'];

/**
 * One interrupt as the inbox endpoint sends it (`createInboxHandler` in the runner entry): what a
 * list of waiting threads shows. The one shape both halves read: the runner's inbox handler writes
 * it, the browser's inbox reads it.
 */
export interface InboxInterrupt {
  threadId: string;
  interruptId: string;
  /** The agent whose run raised it. */
  agentId?: string;
  /** The effective reason (a Mastra suspend payload's own reason lifted, as the cards read it). */
  reason: string;
  /** A short name for what is asked: the approval ticket's title, the first question, the meeting topic, or the tool's name. */
  title: string | null;
  /** The interrupt's own message, when it had one. */
  message: string | null;
  /** ISO 8601. */
  raisedAt: string;
  /** ISO 8601, or `null` when the interrupt does not expire. */
  expiresAt: string | null;
  status: StoredInterruptStatus;
  /** ISO 8601, or `null` while open. */
  answeredAt: string | null;
}
