import { useEffect, useId, useRef, useState, memo } from 'react';
import type { ApprovalTicket, InterruptRendererProps } from '../../hooks/renderer-props';
import type { Clock } from '../../hooks/use-countdown';
import { APPROVAL_STATUS, InterruptResumeOperation, isTerminalApprovalStatus } from '../../src/protocol/index';
import { approvalStatusLabel, formatLabel, type InterruptLabels } from '../../src/i18n/labels';
import { isApprovalTicket, toProtocolInterrupt } from '../../src/unwrap/index';
import { ApprovalArgsDiff } from './approval-args-diff';
import { ApprovalArgsEditor } from './approval-args-editor';
import { ApprovalDirectDetails } from './approval-direct-details';
import { argsObject, diffArgs, toolCallOf } from './approval-edit-model';
import { ApprovalTicketDetails } from './approval-ticket-details';
import { approvalStatusTone } from './approval-status-badge';
import { malformedPayloadCard } from '../fallback-interrupt-card/fallback-interrupt-card';
import type { BadgeTone } from '../shared/badge';
import { ReadOnlyCard } from '../shared/read-only-card';
import { CardFrame } from '../shared/card-frame';
import { CountdownText } from '../shared/countdown-text';
import { ExpiredBody } from '../shared/expired-body';
import { SubmitState } from '../shared/submit-state';
import { useCardBasics } from '../shared/use-card-basics';
import { errorMessage } from '../../src/error-message';

/**
 * Ticket mode resolves the final ticket (the protocol's AIDevToolApprovalResume payload); direct mode
 * the decision, with `editedArgs` when the user edited the arguments before approving (they
 * replace the tool call's arguments whole, as in AG-UI 1.0).
 */
export type ToolApprovalResult =
  | { metadata: { ticket: ApprovalTicket } }
  | { approved: boolean; reason?: string; editedArgs?: Record<string, unknown>; autoApproved?: boolean };

export interface ToolApprovalCardProps extends InterruptRendererProps<ToolApprovalResult> {
  /** Minimum pause between two refreshes, so a user cannot hammer the ticket system. Default 2000 ms. */
  refreshCooldownMs?: number;
  now?: Clock;
}

/** A refresh may answer with the ticket itself or `{ticket}`; anything else means "no news". */
function ticketFrom(value: unknown): ApprovalTicket | undefined {
  if (isApprovalTicket(value)) return value;
  const wrapped = (value as { ticket?: unknown } | null | undefined)?.ticket;
  return isApprovalTicket(wrapped) ? wrapped : undefined;
}

const resultTicket = (result: ToolApprovalResult | undefined) => (result && 'metadata' in result ? ticketFrom(result.metadata) : undefined);

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
  if (ticket === undefined || isApprovalTicket(ticket)) return <ApprovalCardBody {...props} initialTicket={ticket} />;
  return malformedPayloadCard(props, 'The approval ticket (metadata.ticket) is malformed: it needs a title, sn and status.');
});

function ApprovalCardBody(props: ToolApprovalCardProps & { initialTicket: ApprovalTicket | undefined }) {
  const { interrupt, status, error, retry, onInterruptResume, refreshCooldownMs = 2000, now, initialTicket, toolGrants } = props;
  const { announce, locale, labels, countdown, phase, submitting, shownResult, submit, dismiss } = useCardBasics(props, now);
  const titleId = useId();
  const reasonId = useId();
  const terminalId = useId();
  const [ticket, setTicket] = useState(initialTicket);
  const [busy, setBusy] = useState<'cancel' | 'refresh' | undefined>();
  const [opError, setOpError] = useState<string | undefined>();
  const [coolingDown, setCoolingDown] = useState(false);
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const [alwaysAllow, setAlwaysAllow] = useState(false);
  const alwaysAllowId = useId();
  const call = toolCallOf(interrupt);
  const tool = call.toolName;
  // A tool this conversation always allows: answered at once, without asking (direct mode only).
  const autoApprove = phase === 'interactive' && !ticket && call.approvable && tool !== undefined && toolGrants?.allows(tool) === true;
  useEffect(() => {
    if (autoApprove) submit({ approved: true, autoApproved: true });
  }, [autoApprove, submit]);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!coolingDown) return undefined;
    const timer = setTimeout(() => setCoolingDown(false), refreshCooldownMs);
    return () => clearTimeout(timer);
  }, [coolingDown, refreshCooldownMs]);

  const shownTicket = resultTicket(shownResult) ?? ticket;

  async function operate(kind: 'cancel' | 'refresh') {
    if (busy || !onInterruptResume || !ticket) return;
    setBusy(kind);
    setOpError(undefined);
    try {
      const operation = kind === 'cancel' ? InterruptResumeOperation.ApprovalCancel : InterruptResumeOperation.ApprovalRefresh;
      const returned = await onInterruptResume({ operation, payload: { interrupt_id: interrupt.id } }, toProtocolInterrupt(interrupt));
      // React ignores state updates on an unmounted card, but a card that is gone must not resolve.
      if (!mounted.current) return;
      // A cancel that returns nothing succeeded: the ticket is withdrawn.
      const next = ticketFrom(returned) ?? (kind === 'cancel' ? { ...ticket, status: APPROVAL_STATUS.CANCELLED } : ticket);
      setTicket(next);
      if (isTerminalApprovalStatus(next.status)) submit({ metadata: { ticket: next } });
    } catch (failure) {
      setOpError(formatLabel(labels.approvalOperationFailed, { error: errorMessage(failure) }));
    } finally {
      setBusy(undefined);
      if (kind === 'refresh' && refreshCooldownMs > 0) setCoolingDown(true);
    }
  }

  // Until the effect above answers, the auto-approved card already shows its answer.
  const shown: ToolApprovalResult | undefined = autoApprove ? { approved: true, autoApproved: true } : shownResult;
  const direct = (phase === 'answered' || autoApprove) && shown && 'approved' in shown ? shown : undefined;
  // Resolved without a ticket: the user's decision; "Cancelled" when the card was dismissed before
  // deciding, "Dismissed" when the user chatted on instead (steer-away).
  let outcomeTone: BadgeTone = 'neutral';
  let outcome = phase === 'dismissed' ? labels.dismissed : labels.cancelledBadge;
  if (direct) {
    outcomeTone = direct.approved ? 'success' : 'danger';
    outcome = direct.approved ? labels.approvalApproved : labels.approvalRejected;
    if (direct.autoApproved) outcome = labels.approvalAutoApproved;
  }

  let announcement = '';
  if (phase === 'expired') announcement = labels.expired;
  else if (phase === 'cancelled' || phase === 'dismissed' || direct) announcement = outcome;
  else if (shownTicket && (phase === 'answered' || shownTicket !== initialTicket)) {
    announcement = formatLabel(labels.approvalStatusChanged, { status: approvalStatusLabel(labels, shownTicket.status) });
  }
  if (opError) announcement = opError;

  let body;
  if (phase === 'expired') {
    body = <ExpiredBody labels={labels} testId="approval-card-expired" title={shownTicket?.title ?? interrupt.message} />;
  } else if (phase !== 'interactive' || autoApprove) {
    const ticketShown = shownTicket && !direct ? shownTicket : undefined;
    body = (
      <ReadOnlyCard
        testId="approval-card-resolved"
        labels={labels}
        className="cki-approval"
        badgeTestId="approval-status"
        {...(ticketShown
          ? {
              tone: approvalStatusTone(ticketShown.status),
              badge: approvalStatusLabel(labels, ticketShown.status),
              title: ticketShown.title,
              // Dismissed without an answer: the ticket keeps its own status, so say it plainly.
              answer: phase === 'cancelled' || phase === 'dismissed' ? outcome : ticketShown.sn,
              details: () => <ApprovalTicketDetails ticket={ticketShown} labels={labels} locale={locale} />,
            }
          : {
              tone: outcomeTone,
              badge: outcome,
              title: interrupt.message ?? labels.approvalEyebrow,
              answer: [tool, direct?.editedArgs && labels.approvalEditedArguments, direct?.reason].filter(Boolean).join(' — '),
              details: () => (
                <>
                  <ApprovalDirectDetails interrupt={interrupt} labels={labels} locale={locale} />
                  {direct?.editedArgs ? (
                    <ApprovalArgsDiff changes={diffArgs(argsObject(call.args), direct.editedArgs)} labels={labels} locale={locale} />
                  ) : null}
                  {direct?.reason ? <p className="cki-card__text cki-quote">{direct.reason}</p> : null}
                </>
              ),
            })}
      >
        {direct?.autoApproved && tool ? <AutoApprovedNote tool={tool} toolGrants={toolGrants} labels={labels} /> : null}
        <SubmitState status={status} submitting={submitting} labels={labels} error={error} retry={retry} />
      </ReadOnlyCard>
    );
  } else if (ticket) {
    const terminal = isTerminalApprovalStatus(ticket.status);
    body = (
      <div className="cki-card cki-approval" data-testid="approval-card" role="group" tabIndex={-1} aria-labelledby={titleId}>
        <ApprovalTicketDetails ticket={ticket} labels={labels} locale={locale} titleId={titleId} message={interrupt.message} />
        {onInterruptResume ? (
          <div className="cki-actions">
            <button
              type="button"
              className="cki-button cki-button--secondary"
              data-testid="approval-cancel"
              disabled={terminal || busy !== undefined}
              aria-describedby={terminal ? terminalId : undefined}
              onClick={() => void operate('cancel')}
            >
              {busy === 'cancel' ? labels.approvalCancelling : labels.approvalCancel}
            </button>
            <button
              type="button"
              className="cki-button cki-button--ghost"
              data-testid="approval-refresh"
              disabled={busy !== undefined || coolingDown}
              title={coolingDown ? labels.approvalRefreshCooldown : undefined}
              onClick={() => void operate('refresh')}
            >
              {busy === 'refresh' ? labels.approvalRefreshing : labels.approvalRefresh}
            </button>
          </div>
        ) : null}
        {terminal ? (
          <p className="cki-card__note" id={terminalId}>
            {formatLabel(labels.approvalTerminal, { status: approvalStatusLabel(labels, ticket.status) })}
          </p>
        ) : null}
        {opError ? (
          <p className="cki-error__text" data-testid="approval-operation-error">
            {opError}
          </p>
        ) : null}
        <CountdownText countdown={countdown} labels={labels} />
      </div>
    );
  } else {
    const note = reason.trim();
    const offersAlways = call.approvable && tool !== undefined && toolGrants?.offers(tool) === true;
    const decide = (approved: boolean, editedArgs?: Record<string, unknown>) => {
      const sendsNote = note !== '' && !(approved && call.reasonOnlyOnReject);
      submit({ approved, ...(sendsNote ? { reason: note } : {}), ...(editedArgs ? { editedArgs } : {}) });
      if (approved && alwaysAllow && offersAlways) toolGrants?.allow(tool);
    };
    const args = argsObject(call.args);
    body = (
      <div className="cki-card cki-approval" data-testid="approval-card" role="group" tabIndex={-1} aria-labelledby={titleId}>
        <ApprovalDirectDetails interrupt={interrupt} labels={labels} locale={locale} titleId={titleId} hideArgs={editing} />
        {/* Editing ends in "Approve with edits" or Back: a reason only Reject sends has no place there
          (one that goes with an approval stays, and is sent with the edits). */}
        {call.rejectable && !(editing && call.reasonOnlyOnReject) ? (
          <label className="cki-field" htmlFor={reasonId}>
            <span className="cki-field__label">{call.reasonOnlyOnReject ? labels.approvalRejectReason : labels.approvalReason}</span>
            <textarea id={reasonId} className="cki-input" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
        ) : null}
        {offersAlways ? (
          <div className="cki-field cki-field--inline">
            <input
              id={alwaysAllowId}
              type="checkbox"
              data-testid="approval-always-allow"
              checked={alwaysAllow}
              onChange={(e) => setAlwaysAllow(e.target.checked)}
            />
            <label htmlFor={alwaysAllowId}>{formatLabel(labels.approvalAlwaysAllow, { tool })}</label>
          </div>
        ) : null}
        {editing ? (
          <ApprovalArgsEditor
            args={args}
            argsSchema={call.argsSchema}
            labels={labels}
            onApprove={(edited) => decide(true, edited)}
            onBack={() => setEditing(false)}
          />
        ) : (
          <div className="cki-actions">
            {call.approvable ? (
              <button type="button" className="cki-button cki-button--primary" data-testid="approval-approve" onClick={() => decide(true)}>
                {labels.approvalApprove}
              </button>
            ) : null}
            {call.editable && (args || call.argsSchema !== undefined) ? (
              <button
                type="button"
                className="cki-button cki-button--secondary"
                data-testid="approval-edit-open"
                onClick={() => setEditing(true)}
              >
                {labels.approvalEdit}
              </button>
            ) : null}
            {call.rejectable ? (
              <button type="button" className="cki-button cki-button--danger" data-testid="approval-reject" onClick={() => decide(false)}>
                {labels.approvalReject}
              </button>
            ) : null}
            {call.dismissible ? (
              <button
                type="button"
                className="cki-button cki-button--ghost cki-actions__end"
                data-testid="approval-dismiss"
                onClick={dismiss}
              >
                {labels.approvalDismiss}
              </button>
            ) : null}
          </div>
        )}
        <CountdownText countdown={countdown} labels={labels} />
      </div>
    );
  }

  return (
    <CardFrame
      interruptId={props.interrupt.id}
      locale={locale}
      announcement={announce(announcement)}
      phase={phase}
      busy={submitting || busy !== undefined}
    >
      {body}
    </CardFrame>
  );
}

/** Why an approval answered itself, and a way to stop it for the next ones. */
function AutoApprovedNote({
  tool,
  toolGrants,
  labels,
}: {
  tool: string;
  toolGrants: ToolApprovalCardProps['toolGrants'];
  labels: InterruptLabels;
}) {
  const allowed = toolGrants?.allows(tool) === true;
  return (
    <div className="cki-approval__auto" data-testid="approval-auto-approved">
      <p className="cki-card__note">{formatLabel(allowed ? labels.approvalAutoApprovedNote : labels.approvalRevoked, { tool })}</p>
      {allowed ? (
        <button
          type="button"
          className="cki-button cki-button--ghost"
          data-testid="approval-revoke"
          onClick={() => toolGrants?.revoke(tool)}
        >
          {formatLabel(labels.approvalRevoke, { tool })}
        </button>
      ) : null}
    </div>
  );
}
