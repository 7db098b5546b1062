import type { InterruptStatus } from '../../src/session/status';
import type { InterruptLabels } from '../../src/i18n/labels';

export interface SubmitStateProps {
  status: InterruptStatus;
  submitting: boolean;
  labels: InterruptLabels;
  error?: string;
  /** Absent when there is nothing to resend: the error is shown without a Retry button. */
  retry?: () => void;
}

/**
 * Under a read-only answer: "Sending…" while the resume is on its way; after it failed or could
 * not be sent, the error, and Retry (which sends the kept answer again) when there is one.
 */
export function SubmitState({ status, submitting, labels, error, retry }: SubmitStateProps) {
  if (status === 'error') {
    return (
      <div className="cki-error" data-testid="interrupt-error">
        <p className="cki-error__text">
          {labels.errorTitle}
          {error ? <span className="cki-error__detail"> {error}</span> : null}
        </p>
        {retry ? (
          <button type="button" className="cki-button cki-button--secondary" data-testid="interrupt-retry" onClick={retry}>
            {labels.retry}
          </button>
        ) : null}
      </div>
    );
  }
  // An empty `sending`: the answer is kept, not on its way (the card says why above it).
  if (submitting && labels.sending) return <p className="cki-card__note">{labels.sending}</p>;
  return null;
}
