import { memo } from 'react';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import type { Clock } from '../../hooks/use-countdown';
import { isApprovalTicket } from '../../src/unwrap/index';
import { malformedPayloadCard } from '../fallback-interrupt-card/fallback-interrupt-card';
import { ApprovalDirectBody } from './approval-direct-body';
import type { ToolApprovalResult } from './approval-outcome';
import { ApprovalTicketBody } from './approval-ticket-body';

export type { ToolApprovalResult } from './approval-outcome';

export interface ToolApprovalCardProps extends InterruptRendererProps<ToolApprovalResult> {
  /** Minimum pause between two refreshes, so a user cannot hammer the ticket system. Default 2000 ms. */
  refreshCooldownMs?: number;
  now?: Clock;
}

/**
 * The `aidev:tool_approval` card. Ticket mode (`metadata.ticket`): the third-party ticket with
 * its status, "Cancel approval" and "Refresh" (both through `onInterruptResume`); a terminal
 * status resolves `{metadata: {ticket}}`. Direct mode (no ticket, the user approves): message,
 * tool, arguments, Approve / Reject with an optional reason, resolving `{approved, reason?}`;
 * Edit arguments (a form for a flat `metadata.argsSchema`, else JSON) then "Approve with edits",
 * resolving `{approved: true, editedArgs}`; Dismiss cancels (the agent gets `cancelled`). Each action
 * the backend does not take (`metadata.allowApprove` / `allowEdit` / `allowReject` / `allowDismiss`
 * false, see `toolCallOf`) is not offered.
 *
 * Memoized: a transcript can hold many answered cards, and a chat update that leaves their props
 * unchanged should not re-render them. *
 * @example
 * <ToolApprovalCard {...rendererProps} onInterruptResume={async (op) => api.ticketOperation(op)} />
 */
export const ToolApprovalCard = memo(function ToolApprovalCard(props: ToolApprovalCardProps) {
  const { ticket } = props.interrupt.metadata;
  if (ticket === undefined) return <ApprovalDirectBody {...props} />;
  if (isApprovalTicket(ticket)) return <ApprovalTicketBody {...props} initialTicket={ticket} />;
  return malformedPayloadCard(props, 'The approval ticket (metadata.ticket) is malformed: it needs a title, sn and status.');
});
