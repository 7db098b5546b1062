import { resolveLabels } from '../../src/i18n/labels';
import type { InterruptRendererProps } from '../../hooks/renderer-props';

/**
 * The last-resort card: shown until the cards ship a fallback, and when every other renderer for
 * an interrupt has thrown. Deliberately plain: it must never fail and never leave a blank spot.
 * Its texts are the cards' fallback labels, so one `labels` object serves both.
 */
export function BuiltinFallbackCard({ interrupt, status, error, resolve, cancel, retry, readOnly, locale, labels: overrides }: InterruptRendererProps) {
  const labels = resolveLabels(locale, overrides);
  const statusText = {
    pending: '',
    submitting: labels.sending,
    resolved: labels.fallbackSent,
    cancelled: labels.fallbackDismissed,
    expired: labels.expired,
    error: labels.errorTitle,
  }[status];
  return (
    <section className="cki-card cki-builtin-fallback" data-testid="interrupt-builtin-fallback" data-status={status} aria-label={labels.fallbackEyebrow}>
      <p className="cki-eyebrow">{labels.fallbackEyebrow}</p>
      {interrupt.message ? <p className="cki-message">{interrupt.message}</p> : null}
      <p className="cki-meta">
        {labels.fallbackReason}: <code>{interrupt.reason}</code>
      </p>
      {interrupt.problem ? (
        <p className="cki-problem" role="note">
          {labels.fallbackProblem}: {interrupt.problem}
        </p>
      ) : null}
      {/* Mounted while pending too (empty), so screen readers announce the status when it fills. */}
      <p className="cki-status" role="status">
        {statusText}
        {status === 'error' && error ? ` ${error}` : null}
      </p>
      {status === 'error' && retry ? (
        <button type="button" className="cki-button" onClick={retry}>
          {labels.retry}
        </button>
      ) : null}
      {!readOnly ? (
        <div className="cki-actions">
          <button type="button" className="cki-button" onClick={() => resolve({})}>
            {labels.fallbackContinue}
          </button>
          <button type="button" className="cki-button cki-button--ghost" onClick={cancel}>
            {labels.fallbackDismiss}
          </button>
        </div>
      ) : null}
    </section>
  );
}
