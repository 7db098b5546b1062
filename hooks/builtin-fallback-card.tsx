import type { InterruptLocale } from '../src/i18n/locale';
import type { InterruptRendererProps, InterruptStatus } from './renderer-props';

type Texts = Record<'title' | 'reason' | 'problem' | 'continue' | 'dismiss' | 'retry' | InterruptStatus, string>;

// Keys follow the cards' label names where they overlap, so one `labels` object serves both.
const TEXTS: Record<InterruptLocale, Texts> = {
  en: {
    title: 'The agent is waiting for you',
    reason: 'Reason',
    problem: 'Problem',
    continue: 'Continue',
    dismiss: 'Dismiss',
    retry: 'Retry',
    pending: '',
    submitting: 'Sending…',
    resolved: 'Continued',
    cancelled: 'Dismissed',
    expired: 'Expired',
    error: 'Could not send',
  },
  'zh-CN': {
    title: '智能体正在等待你的回应',
    reason: '原因',
    problem: '问题',
    continue: '继续',
    dismiss: '忽略',
    retry: '重试',
    pending: '',
    submitting: '发送中…',
    resolved: '已继续',
    cancelled: '已忽略',
    expired: '已过期',
    error: '发送失败',
  },
};

/**
 * The last-resort card: shown until the cards ship a fallback, and when every other renderer for
 * an interrupt has thrown. Deliberately plain: it must never fail and never leave a blank spot.
 */
export function BuiltinFallbackCard({ interrupt, status, error, resolve, cancel, retry, readOnly, locale, labels }: InterruptRendererProps) {
  const base = TEXTS[locale] ?? TEXTS.en;
  const t = (key: keyof Texts, labelKey?: string) => (labelKey && labels?.[labelKey]) || base[key];
  return (
    <section className="cki-card cki-builtin-fallback" data-testid="interrupt-builtin-fallback" data-status={status} aria-label={t('title')}>
      <p className="cki-eyebrow">{t('title')}</p>
      {interrupt.message ? <p className="cki-message">{interrupt.message}</p> : null}
      <p className="cki-meta">
        {t('reason', 'fallbackReason')}: <code>{interrupt.reason}</code>
      </p>
      {interrupt.problem ? (
        <p className="cki-problem" role="note">
          {t('problem', 'fallbackProblem')}: {interrupt.problem}
        </p>
      ) : null}
      {readOnly ? (
        <p className="cki-status" role="status">
          {t(status)}
          {status === 'error' && error ? `: ${error}` : null}
        </p>
      ) : null}
      {status === 'error' ? (
        <button type="button" className="cki-button" onClick={retry}>
          {t('retry', 'retry')}
        </button>
      ) : null}
      {!readOnly ? (
        <div className="cki-actions">
          <button type="button" className="cki-button" onClick={() => resolve({})}>
            {t('continue', 'fallbackContinue')}
          </button>
          <button type="button" className="cki-button cki-button--ghost" onClick={cancel}>
            {t('dismiss', 'fallbackDismiss')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
