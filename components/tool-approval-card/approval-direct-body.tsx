import { useEffect, useId, useState } from 'react';
import { formatLabel } from '../../src/i18n/labels';
import { CardShell } from '../shared/card-shell';
import { CountdownText } from '../shared/countdown-text';
import { useCardBasics } from '../shared/use-card-basics';
import { ApprovalArgsEditor } from './approval-args-editor';
import { ApprovalDirectDetails } from './approval-direct-details';
import { argsObject, toolCallOf } from './approval-edit-model';
import { approvalOutcome, decisionAnswer, type ApprovalDecision } from './approval-outcome';
import { approvalReadOnly } from './approval-read-only';
import type { ToolApprovalCardProps } from './tool-approval-card';

const AUTO_APPROVED: ApprovalDecision = { approved: true, autoApproved: true };

/**
 * Direct mode (no ticket, the user approves): message, tool, arguments, Approve / Reject with an
 * optional reason; Edit arguments then "Approve with edits"; Dismiss cancels. A tool the
 * conversation always allows is approved at once, without asking.
 */
export function ApprovalDirectBody(props: ToolApprovalCardProps) {
  const { interrupt, now, toolGrants } = props;
  const basics = useCardBasics(props, now);
  const { locale, labels, countdown, phase, shownResult, submit, dismiss } = basics;
  const titleId = useId();
  const reasonId = useId();
  const alwaysAllowId = useId();
  const [reason, setReason] = useState('');
  const [editing, setEditing] = useState(false);
  const [alwaysAllow, setAlwaysAllow] = useState(false);
  const call = toolCallOf(interrupt);
  const tool = call.toolName;
  const autoApprove = phase === 'interactive' && call.approvable && tool !== undefined && toolGrants?.allows(tool) === true;
  useEffect(() => {
    if (autoApprove) submit({ ...AUTO_APPROVED });
  }, [autoApprove, submit]);

  // Until the effect above answers, the auto-approved card already shows its answer.
  const outcome = approvalOutcome(
    autoApprove
      ? { phase: 'answered', result: AUTO_APPROVED, ticket: undefined, initialTicket: undefined }
      : { phase, result: shownResult, ticket: undefined, initialTicket: undefined },
    labels,
  );

  return (
    <CardShell
      card={props}
      basics={basics}
      announcement={outcome.announcement}
      expired={{ testId: 'approval-card-expired', title: outcome.ticket?.title ?? interrupt.message }}
      readOnly={() => approvalReadOnly({ outcome, interrupt, labels, locale, toolGrants })}
      answered={autoApprove}
      interactive={() => {
        const offersAlways = call.approvable && tool !== undefined && toolGrants?.offers(tool) === true;
        const decide = (approved: boolean, editedArgs?: Record<string, unknown>) => {
          const answer = decisionAnswer({ approved, reason, editedArgs, allowed: call });
          if (!answer) return;
          submit(answer);
          if (approved && alwaysAllow && offersAlways) toolGrants?.allow(tool);
        };
        const args = argsObject(call.args);
        return (
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
                  <button
                    type="button"
                    className="cki-button cki-button--primary"
                    data-testid="approval-approve"
                    onClick={() => decide(true)}
                  >
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
                  <button
                    type="button"
                    className="cki-button cki-button--danger"
                    data-testid="approval-reject"
                    onClick={() => decide(false)}
                  >
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
      }}
    />
  );
}
