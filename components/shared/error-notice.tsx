import type { InterruptLabels } from '../../src/i18n/labels';

export interface ErrorNoticeProps {
  labels: InterruptLabels;
  error?: string;
  onRetry: () => void;
}

/** Shown when the resume failed: the answer is kept and can be sent again. */
export function ErrorNotice({ labels, error, onRetry }: ErrorNoticeProps) {
  return (
    <div className="cki-error" data-testid="interrupt-error">
      <p className="cki-error__text">
        {labels.errorTitle}
        {error ? <span className="cki-error__detail"> {error}</span> : null}
      </p>
      <button type="button" className="cki-button cki-button--secondary" data-testid="interrupt-retry" onClick={onRetry}>
        {labels.retry}
      </button>
    </div>
  );
}
