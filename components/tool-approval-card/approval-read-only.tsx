import type { ToolGrants } from '../../hooks/renderer-props';
import { formatLabel, type InterruptLabels } from '../../src/i18n/labels';
import type { UnwrappedInterrupt } from '../../src/unwrap/index';
import type { ReadOnlyView } from '../shared/card-shell';
import { ApprovalArgsDiff } from './approval-args-diff';
import { ApprovalDirectDetails } from './approval-direct-details';
import { argsObject, diffArgs, toolCallOf } from './approval-edit-model';
import type { ApprovalOutcome } from './approval-outcome';
import { ApprovalTicketDetails } from './approval-ticket-details';

export interface ApprovalReadOnlyInput {
  outcome: ApprovalOutcome;
  interrupt: UnwrappedInterrupt;
  labels: InterruptLabels;
  locale: string;
  toolGrants?: ToolGrants;
}

/**
 * The answered approval, in either mode: the ticket (status, title, number) when the outcome has
 * one, else the decision on the tool call (the tool, whether the arguments were edited, the reason).
 */
export function approvalReadOnly({ outcome, interrupt, labels, locale, toolGrants }: ApprovalReadOnlyInput): ReadOnlyView {
  const common = {
    testId: 'approval-card-resolved',
    className: 'cki-approval',
    badgeTestId: 'approval-status',
    tone: outcome.tone,
    badge: outcome.badge,
  };
  const { ticket, decision } = outcome;
  if (ticket) {
    return {
      ...common,
      title: ticket.title,
      answer: outcome.ticketAnswer,
      details: () => <ApprovalTicketDetails ticket={ticket} labels={labels} locale={locale} />,
    };
  }
  const { toolName: tool, args } = toolCallOf(interrupt);
  return {
    ...common,
    title: interrupt.message ?? labels.approvalEyebrow,
    answer: [tool, decision?.editedArgs && labels.approvalEditedArguments, decision?.reason].filter(Boolean).join(' — '),
    details: () => (
      <>
        <ApprovalDirectDetails interrupt={interrupt} labels={labels} locale={locale} />
        {decision?.editedArgs ? (
          <ApprovalArgsDiff changes={diffArgs(argsObject(args), decision.editedArgs)} labels={labels} locale={locale} />
        ) : null}
        {decision?.reason ? <p className="cki-card__text cki-quote">{decision.reason}</p> : null}
      </>
    ),
    note: decision?.autoApproved && tool ? <AutoApprovedNote tool={tool} toolGrants={toolGrants} labels={labels} /> : null,
  };
}

/** Why an approval answered itself, and a way to stop it for the next ones. */
function AutoApprovedNote({ tool, toolGrants, labels }: { tool: string; toolGrants?: ToolGrants; labels: InterruptLabels }) {
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
