import { APPROVAL_STATUS } from '../../src/protocol/index';
import { approvalStatusLabel, type InterruptLabels } from '../../src/i18n/labels';
import { Badge, type BadgeTone } from '../shared/badge';

/** Every other status (cancelled, expired, abandoned, unknown ones) is neutral. */
const TONES: Readonly<Record<string, BadgeTone>> = {
  [APPROVAL_STATUS.PENDING]: 'warning',
  [APPROVAL_STATUS.DRAFT]: 'info',
  [APPROVAL_STATUS.APPROVED]: 'success',
  [APPROVAL_STATUS.REJECTED]: 'danger',
  [APPROVAL_STATUS.REVOKED]: 'danger',
};

/** The colour family of a ticket status (own keys only: a status named `constructor` is just unknown). */
export const approvalStatusTone = (status: string): BadgeTone => (Object.hasOwn(TONES, status) ? TONES[status] : 'neutral');

/** A ticket status as a coloured pill, its text from the labels' `status.<value>` entries. */
export function ApprovalStatusBadge({ status, labels }: { status: string; labels: InterruptLabels }) {
  return (
    <Badge tone={approvalStatusTone(status)} testId="approval-status" className={`cki-badge--status-${status.replace(/[^a-z_-]/gi, '')}`}>
      {approvalStatusLabel(labels, status)}
    </Badge>
  );
}
