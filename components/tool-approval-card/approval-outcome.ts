import type { ApprovalTicket } from '../../hooks/renderer-props';
import { APPROVAL_STATUS } from '../../src/protocol/index';
import { approvalStatusLabel, formatLabel, type InterruptLabels } from '../../src/i18n/labels';
import { isApprovalTicket } from '../../src/unwrap/index';
import { isRecord } from '../../src/wire/guards';
import type { BadgeTone } from '../shared/badge';
import type { CardPhase } from '../shared/use-card-basics';
import type { ApprovalToolCall } from './approval-edit-model';
import { approvalStatusTone } from './approval-status-badge';

/** The user's decision on a tool call (direct mode). */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  /** The arguments as the user edited them: they replace the tool call's arguments whole. */
  editedArgs?: Record<string, unknown>;
  /** Approved without asking: the conversation always allows this tool. */
  autoApproved?: boolean;
}

/**
 * Ticket mode resolves the final ticket (the protocol's AIDevToolApprovalResume payload); direct mode
 * the decision, with `editedArgs` when the user edited the arguments before approving (they
 * replace the tool call's arguments whole, as in AG-UI 1.0).
 */
export type ToolApprovalResult = { metadata: { ticket: ApprovalTicket } } | ApprovalDecision;

/** A refresh may answer with the ticket itself or `{ticket}`; anything else means "no news". */
export function ticketFrom(value: unknown): ApprovalTicket | undefined {
  if (isApprovalTicket(value)) return value;
  const wrapped = (value as { ticket?: unknown } | null | undefined)?.ticket;
  return isApprovalTicket(wrapped) ? wrapped : undefined;
}

/**
 * The ticket after a Cancel or Refresh returned `returned`: the ticket it names, else (a cancel
 * that returned nothing succeeded) the ticket withdrawn, else (a refresh with no news) unchanged.
 */
export function ticketAfter(kind: 'cancel' | 'refresh', returned: unknown, ticket: ApprovalTicket): ApprovalTicket {
  return ticketFrom(returned) ?? (kind === 'cancel' ? { ...ticket, status: APPROVAL_STATUS.CANCELLED } : ticket);
}

/** What the user chose in direct mode, as the form holds it. */
export interface DecisionInput {
  approved: boolean;
  /** The reason field's text as typed. */
  reason: string;
  /** Present when the user approves edited arguments. */
  editedArgs?: Record<string, unknown>;
  /** What the backend takes (`toolCallOf`). */
  allowed: Pick<ApprovalToolCall, 'approvable' | 'rejectable' | 'editable' | 'reasonOnlyOnReject'>;
}

/**
 * The answer a direct decision resolves with, or `undefined` for one the backend does not take
 * (the card never offers it). The reason is sent trimmed, when there is one and the backend hears
 * it with this decision (only Reject has a reason field when `reasonOnlyOnReject`, and only a
 * rejectable call has one at all); edited arguments go with an approval only.
 */
export function decisionAnswer({ approved, reason, editedArgs, allowed }: DecisionInput): ApprovalDecision | undefined {
  if (approved ? !allowed.approvable : !allowed.rejectable) return undefined;
  if (editedArgs && (!approved || !allowed.editable)) return undefined;
  const note = reason.trim();
  const sendsNote = note !== '' && allowed.rejectable && !(approved && allowed.reasonOnlyOnReject);
  return { approved, ...(sendsNote ? { reason: note } : {}), ...(editedArgs ? { editedArgs } : {}) };
}

/** What an approval card shows and says, whichever mode it is in. */
export interface ApprovalOutcomeInput {
  /** The card's phase; `answered` for an auto-approval not yet in the props. */
  phase: CardPhase;
  /** The answer to show: the host's result, else the one just given. */
  result: ToolApprovalResult | undefined;
  /** The ticket the card holds now (ticket mode), as the last Cancel or Refresh left it. */
  ticket: ApprovalTicket | undefined;
  /** The ticket the card was raised with: a status the card moved to since is announced. */
  initialTicket: ApprovalTicket | undefined;
}

/** The read-only summary and the live region's text, for any phase but `expired` and `interactive` (which draw their own bodies). */
export interface ApprovalOutcome {
  /** The ticket the read-only card shows; absent when it shows the user's decision. */
  ticket?: ApprovalTicket;
  /** The user's decision, when the card was answered with one. */
  decision?: ApprovalDecision;
  tone: BadgeTone;
  badge: string;
  /** The summary line's answer for a ticket (its number, or how it was closed without an answer). */
  ticketAnswer?: string;
  /** The card's state in words ('' when nothing changed worth announcing). */
  announcement: string;
}

/** A stored decision with every field the card prints as its type, or left out. */
function readDecision({ approved, reason, editedArgs, autoApproved }: Record<string, unknown>): ApprovalDecision {
  return {
    approved: Boolean(approved),
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(isRecord(editedArgs) ? { editedArgs } : {}),
    ...(autoApproved === true ? { autoApproved } : {}),
  };
}

export function approvalOutcome({ phase, result, ticket, initialTicket }: ApprovalOutcomeInput, labels: InterruptLabels): ApprovalOutcome {
  // Read loosely: a stored result may come from another version of the card, or be no object at all.
  const given = isRecord(result) ? result : undefined;
  const decision = phase === 'answered' && given && 'approved' in given ? readDecision(given) : undefined;
  const closed = phase === 'cancelled' || phase === 'dismissed';
  // "Cancelled" when the card was dismissed before deciding, "Dismissed" when the user chatted on
  // instead (steer-away).
  let tone: BadgeTone = 'neutral';
  let badge = phase === 'dismissed' ? labels.dismissed : labels.cancelledBadge;
  if (decision) {
    tone = decision.approved ? 'success' : 'danger';
    badge = decision.autoApproved ? labels.approvalAutoApproved : decision.approved ? labels.approvalApproved : labels.approvalRejected;
  }
  const shownTicket = decision ? undefined : (ticketFrom(given?.metadata) ?? ticket);

  let announcement = '';
  if (closed || decision) announcement = badge;
  else if (shownTicket && (phase === 'answered' || shownTicket !== initialTicket)) {
    announcement = formatLabel(labels.approvalStatusChanged, { status: approvalStatusLabel(labels, shownTicket.status) });
  }
  if (!shownTicket) return { decision, tone, badge, announcement };
  return {
    ticket: shownTicket,
    tone: approvalStatusTone(shownTicket.status),
    badge: approvalStatusLabel(labels, shownTicket.status),
    // Closed without an answer: the ticket keeps its own status, so say it plainly.
    ticketAnswer: closed ? badge : shownTicket.sn,
    announcement,
  };
}
