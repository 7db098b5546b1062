import { EN_LABELS, resolveLanguage, type InterruptLabels } from '../../src/i18n/labels';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { isRecord } from '../../src/wire/guards';

/** Text, or nothing: this card renders whatever reached it, so a field of the wrong type must not throw. */
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const call = (fn: unknown, ...args: unknown[]) => {
  if (typeof fn === 'function') fn(...args);
};

function safeLabels(locale: unknown, overrides: unknown): InterruptLabels {
  try {
    return resolveLanguage(text(locale), isRecord(overrides) ? overrides : undefined).labels;
  } catch {
    return EN_LABELS;
  }
}

/**
 * The last-resort card: shown until the cards ship a fallback, and when every other renderer for
 * an interrupt has thrown. Deliberately plain: it must never fail and never leave a blank spot.
 * Its texts are the cards' fallback labels, so one `labels` object serves both.
 */
export function LastResortCard(props: InterruptRendererProps) {
  const { status, resolve, cancel, retry, readOnly } = props;
  const labels = safeLabels(props.locale, props.labels);
  const given: Record<string, unknown> = isRecord(props.interrupt) ? props.interrupt : {};
  const message = text(given.message);
  const problem = text(given.problem);
  const error = text(props.error);
  // Pending has no status text.
  const statusTexts: Record<string, string> = {
    submitting: labels.sending,
    resolved: labels.fallbackSent,
    cancelled: labels.fallbackDismissed,
    dismissed: labels.fallbackDismissed,
    expired: labels.expired,
    error: labels.errorTitle,
  };
  const statusText = Object.hasOwn(statusTexts, status) ? text(statusTexts[status]) : undefined;
  return (
    <section
      className="cki-card cki-builtin-fallback"
      data-testid="interrupt-builtin-fallback"
      data-status={text(status)}
      aria-label={labels.fallbackEyebrow}
    >
      <p className="cki-eyebrow">{labels.fallbackEyebrow}</p>
      {message ? <p className="cki-message">{message}</p> : null}
      <p className="cki-meta">
        {labels.fallbackReason}: <code>{text(given.reason)}</code>
      </p>
      {problem ? (
        <p className="cki-problem" role="note">
          {labels.fallbackProblem}: {problem}
        </p>
      ) : null}
      {/* Mounted while pending too (empty), so screen readers announce the status when it fills. */}
      <p className="cki-status" role="status">
        {statusText}
        {status === 'error' && error ? ` ${error}` : null}
      </p>
      {status === 'error' && typeof retry === 'function' ? (
        <button type="button" className="cki-button" onClick={() => call(retry)}>
          {labels.retry}
        </button>
      ) : null}
      {!readOnly ? (
        <div className="cki-actions">
          <button type="button" className="cki-button" onClick={() => call(resolve, {})}>
            {labels.fallbackContinue}
          </button>
          <button type="button" className="cki-button cki-button--ghost" onClick={() => call(cancel)}>
            {labels.fallbackDismiss}
          </button>
        </div>
      ) : null}
    </section>
  );
}
