import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { InterruptHistoryRecord } from '../../src/history';
import { resolveLanguage } from '../../src/i18n/labels';
import type { UnwrappedInterrupt } from '../../src/unwrap';
import type { InterruptController } from '../../hooks/card-view';
import { RenderedInterrupt } from './rendered-interrupt';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { useToolGrants } from '../../hooks/use-tool-grants';

export interface InterruptCardProps {
  controller: InterruptController;
  interrupt: UnwrappedInterrupt;
  /** The answer on record; none means the interrupt is still open. */
  record?: InterruptHistoryRecord;
}

// setTimeout stores delays in 32 bits; anything longer would fire at once.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One interrupt drawn by its renderer, with props derived from the history record. Used by the
 * live slot and by the transcript echo alike, so both always show the same state.
 */
export function InterruptCard({ controller, interrupt, record }: InterruptCardProps) {
  // Settings (renderers, locale, labels) live on the controller: CopilotKit memoizes the slot
  // element, so a prop from the hook's render would go stale. Only a new view redraws the card:
  // echoes mounting elsewhere in the transcript leave it alone.
  const view = useSyncExternalStore(controller.subscribe, () => controller.view);
  const status = record?.status ?? 'pending';
  const answerFirst = useSyncExternalStore(controller.subscribe, () => status === 'pending' && controller.asksToAnswerFirst(interrupt.id));
  const toolGrants = useToolGrants(controller.history, record?.threadId ?? controller.threadId, controller.settings.allowAlways);
  const canRetry = useSyncExternalStore(controller.subscribe, () => status === 'error' && controller.canRetry(interrupt.id));
  // Drawn again because the request changed after the user answered it: said until it is answered.
  const changed = useSyncExternalStore(controller.subscribe, () => status === 'pending' && controller.isChangedRequest(interrupt.id));
  const changedNotice = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const notice = changedNotice.current;
    if (!changed || !notice) return;
    // The user just answered the card this one replaces: unless they moved on (typing elsewhere, or
    // on another open card), focus comes here, to the notice and the request under it.
    const active = notice.ownerDocument.activeElement;
    const lost = !active || active === notice.ownerDocument.body || !active.isConnected;
    const onAnsweredCard = !!active?.closest('[data-interrupt-id]:not([data-interrupt-status="pending"])');
    if (lost || onAnsweredCard) notice.focus();
  }, [changed]);

  useEffect(() => {
    // No `expiresAt` parses as NaN too.
    const at = Date.parse(interrupt.expiresAt as string);
    if (status !== 'pending' || !Number.isFinite(at)) return;
    let timer: ReturnType<typeof setTimeout>;
    const wait = () => {
      const left = at - Date.now();
      // A deadline further away than one timer can wait is waited for in steps.
      timer = setTimeout(left > MAX_TIMER_MS ? wait : () => controller.expire(interrupt), Math.min(Math.max(0, left), MAX_TIMER_MS));
    };
    wait();
    return () => clearTimeout(timer);
  }, [controller, interrupt, status]);

  // Stable per interrupt, so a memoized card skips renders when nothing it shows has changed.
  const resolve = useCallback((payload: unknown) => controller.answer(interrupt, payload), [controller, interrupt]);
  const cancel = useCallback(() => controller.dismiss(interrupt), [controller, interrupt]);
  const retry = useCallback(() => controller.retry(interrupt.id), [controller, interrupt.id]);

  const props: InterruptRendererProps = {
    interrupt,
    status,
    result: record?.result,
    error: record?.error,
    resolve,
    cancel,
    // Only when Retry can send something: a card in `error` with nothing to resend shows no button.
    retry: canRetry ? retry : undefined,
    // Open, but the runner gave it to others: this viewer reads it and cannot answer it.
    readOnly: status !== 'pending' || interrupt.people?.viewerMayAnswer === false,
    locale: view.locale,
    labels: view.labels,
    onInterruptResume: controller.settings.onInterruptResume ? controller.forwardResume : undefined,
    toolGrants,
  };

  const language = answerFirst || changed || record?.elsewhere ? resolveLanguage(view.locale, view.labels) : undefined;

  return (
    <div className="cki-interrupt" data-interrupt-id={interrupt.id} data-interrupt-status={status}>
      {language && answerFirst ? (
        <p className="cki-root cki-notice" role="alert" lang={language.locale}>
          {language.labels.answerFirst}
        </p>
      ) : null}
      {language && changed ? (
        <p
          ref={changedNotice}
          className="cki-root cki-notice"
          role="alert"
          tabIndex={-1}
          lang={language.locale}
          data-testid="interrupt-request-changed"
        >
          {language.labels.requestChanged}
        </p>
      ) : null}
      {language && record?.elsewhere ? (
        <p className="cki-root cki-notice" role="status" lang={language.locale} data-testid="interrupt-answered-elsewhere">
          {language.labels.answeredElsewhere}
        </p>
      ) : null}
      <RenderedInterrupt registry={view.registry} props={props} />
    </div>
  );
}
