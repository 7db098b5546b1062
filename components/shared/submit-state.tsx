import type { InterruptStatus } from '../../hooks/renderer-props';
import type { InterruptLabels } from '../../src/i18n/labels';
import { ErrorNotice } from './error-notice';

export interface SubmitStateProps {
  status: InterruptStatus;
  submitting: boolean;
  labels: InterruptLabels;
  error?: string;
  /** Absent when there is nothing to resend: the error is shown without a Retry button. */
  retry?: () => void;
}

/** Under a read-only answer: "Sending…" while the resume is on its way, the error (and Retry, if possible) after it failed. */
export function SubmitState({ status, submitting, labels, error, retry }: SubmitStateProps) {
  if (status === 'error') return <ErrorNotice labels={labels} error={error} onRetry={retry} />;
  if (submitting) return <p className="cki-card__note">{labels.sending}</p>;
  return null;
}
