import type { InterruptLabels } from '../../src/i18n/labels';

export interface ErrorNoticeProps {
  labels: InterruptLabels;
  error?: string;
  /** Absent when there is nothing to resend: then no Retry button is shown. */
  onRetry?: () => void;
}

/** Shown when the resume failed or could not be sent; Retry sends the kept answer again, when there is one. */
export function ErrorNotice({ labels, error, onRetry }: ErrorNoticeProps) {
  return (
    <div className="cki-error" data-testid="interrupt-error">
      <p className="cki-error__text">
        {labels.errorTitle}
        {error ? <span className="cki-error__detail"> {error}</span> : null}
      </p>
      {onRetry ? (
        <button type="button" className="cki-button cki-button--secondary" data-testid="interrupt-retry" onClick={onRetry}>
          {labels.retry}
        </button>
      ) : null}
    </div>
  );
}
