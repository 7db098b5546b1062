import type { ApprovalTicket } from '../hooks/renderer-props';
import { APPROVAL_STATUS } from '../src/protocol';
import type { InterruptLabels } from '../src/i18n/labels';
import { ApprovalStatusBadge } from './approval-status-badge';
import { SafeLink } from './shared/safe-link';

const OPEN_STATUSES: readonly string[] = [APPROVAL_STATUS.PENDING, APPROVAL_STATUS.DRAFT];

export interface ApprovalTicketDetailsProps {
  ticket: ApprovalTicket;
  labels: InterruptLabels;
  titleId?: string;
  /** The agent's note about the ticket, shown under the title. */
  message?: string;
}

/** Title, status, number, submit time, approvers (only while someone still has to act) and link. */
export function ApprovalTicketDetails({ ticket, labels, titleId, message }: ApprovalTicketDetailsProps) {
  const approvers = OPEN_STATUSES.includes(ticket.status) && Array.isArray(ticket.approvers) ? ticket.approvers : [];
  return (
    <>
      <div className="cki-card__header">
        <span className="cki-eyebrow">{labels.approvalEyebrow}</span>
        <ApprovalStatusBadge status={ticket.status} labels={labels} />
      </div>
      <p className="cki-card__title" id={titleId}>
        {ticket.title}
      </p>
      {message ? <p className="cki-card__text">{message}</p> : null}
      <dl className="cki-fields">
        <div className="cki-fields__row">
          <dt>{labels.approvalSn}</dt>
          <dd>{ticket.sn}</dd>
        </div>
        {ticket.submit_time ? (
          <div className="cki-fields__row">
            <dt>{labels.approvalSubmitTime}</dt>
            <dd>{ticket.submit_time}</dd>
          </div>
        ) : null}
        {approvers.length > 0 ? (
          <div className="cki-fields__row">
            <dt>{labels.approvalApprovers}</dt>
            <dd>{approvers.join(', ')}</dd>
          </div>
        ) : null}
      </dl>
      <SafeLink className="cki-link" href={ticket.url}>
        {labels.approvalViewTicket}
      </SafeLink>
    </>
  );
}
