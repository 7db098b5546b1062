import type { ApprovalTicket } from '../../hooks/renderer-props';
import { APPROVAL_STATUS } from '../../src/protocol/index';
import type { InterruptLabels } from '../../src/i18n/labels';
import { readableText } from '../../src/i18n/date-time';
import { ApprovalStatusBadge } from './approval-status-badge';
import { DetailsRow } from '../shared/details-row';
import { SafeLink } from '../shared/safe-link';

const OPEN_STATUSES: readonly string[] = [APPROVAL_STATUS.PENDING, APPROVAL_STATUS.DRAFT];

export interface ApprovalTicketDetailsProps {
  ticket: ApprovalTicket;
  labels: InterruptLabels;
  /** The locale the submit time is shown in. */
  locale: string;
  titleId?: string;
  /** The agent's note about the ticket, shown under the title. */
  message?: string;
}

/** Title, status, number, submit time, approvers (only while someone still has to act) and link. */
export function ApprovalTicketDetails({ ticket, labels, locale, titleId, message }: ApprovalTicketDetailsProps) {
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
        <DetailsRow term={labels.approvalSn}>{ticket.sn}</DetailsRow>
        {ticket.submit_time ? (
          <DetailsRow term={labels.approvalSubmitTime}>{readableText(String(ticket.submit_time), locale)}</DetailsRow>
        ) : null}
        {approvers.length > 0 ? <DetailsRow term={labels.approvalApprovers}>{approvers.join(', ')}</DetailsRow> : null}
      </dl>
      <SafeLink className="cki-link" href={ticket.url}>
        {labels.approvalViewTicket}
      </SafeLink>
    </>
  );
}
