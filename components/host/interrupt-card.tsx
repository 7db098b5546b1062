import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { EN_LABELS, resolveLanguage } from '../../src/i18n/labels';
import { answerHeldText } from '../../src/i18n/people-text';
import type { UnwrappedInterrupt } from '../../src/unwrap';
import type { InterruptController } from '../../hooks/card-view';
import { RenderedInterrupt } from './rendered-interrupt';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { toolGrantsFor } from '../../hooks/tool-grants';

export interface InterruptCardProps {
  controller: InterruptController;
  interrupt: UnwrappedInterrupt;
  /** The thread the interrupt belongs to. */
  threadId: string;
  /** The live slot's copy: it draws nothing while the interrupt's echo shows in the transcript (or the chat left its thread). */
  slot?: boolean;
}

// setTimeout stores delays in 32 bits; anything longer would fire at once.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One interrupt drawn by its renderer, with props derived from the controller's snapshot of it.
 * Used by the live slot and by the transcript echo alike, so both always show the same state.
 */
export function InterruptCard({ controller, interrupt, threadId, slot = false }: InterruptCardProps) {
  // One read of everything the card shows (status, answer, flags, and the view: renderers, locale
  // and labels live on the controller, since CopilotKit memoizes the slot element and a prop from
  // the hook's render would go stale). The same snapshot while nothing in it changed: echoes
  // mounting elsewhere in the transcript leave this card alone.
  const snapshot = useSyncExternalStore(controller.subscribe, () => controller.cardSnapshot(threadId, interrupt.id));
  // `changed`: drawn again because the request changed after the user answered it (said until it is answered).
  const { view, status, answerFirst, heldFor, canRetry, elsewhere, changed, allowedTools } = snapshot;
  const allowAlways = controller.settings.allowAlways;
  const toolGrants = useMemo(
    () =>
      toolGrantsFor(allowAlways, allowedTools, {
        allow: (toolName) => controller.history.allowTool(threadId, toolName),
        revoke: (toolName) => controller.history.revokeTool(threadId, toolName),
      }),
    [controller, threadId, allowAlways, allowedTools],
  );
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

  if (slot && snapshot.steppedAside) return null;

  const props: InterruptRendererProps = {
    interrupt,
    status,
    result: snapshot.result,
    error: snapshot.error,
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

  // Another device's answer: said above the card, unless the card itself names someone else who
  // gave it ("Approved by Dana · 10:42"), which already says it came from elsewhere.
  const answeredBy = interrupt.people?.answeredBy;
  const fromElsewhere = elsewhere && !(answeredBy && !answeredBy.isViewer);
  const language = answerFirst || changed || fromElsewhere || heldFor ? resolveLanguage(view.locale, view.labels) : undefined;
  // A card given to others: the chat message waits for its answer (this viewer may not dismiss it).
  const forOthers = interrupt.people?.viewerMayAnswer === false;
  const held = language && heldFor ? answerHeldText(heldFor, language.labels, language.locale) : undefined;
  // Kept here, not on its way: the card says so above it instead of "Sending…".
  if (held) props.labels = { ...props.labels, sending: '' };

  return (
    <div className="cki-interrupt" data-interrupt-id={interrupt.id} data-interrupt-status={status}>
      {language && answerFirst ? (
        <p className="cki-root cki-notice" role="alert" lang={language.locale} data-testid="interrupt-answer-first">
          {forOthers ? (language.labels.chatHeldForOthers ?? EN_LABELS.chatHeldForOthers) : language.labels.answerFirst}
        </p>
      ) : null}
      {held ? (
        <p className="cki-root cki-notice" role="status" lang={language?.locale} data-testid="interrupt-answer-held">
          {held}
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
      {language && fromElsewhere ? (
        <p className="cki-root cki-notice" role="status" lang={language.locale} data-testid="interrupt-answered-elsewhere">
          {language.labels.answeredElsewhere}
        </p>
      ) : null}
      <RenderedInterrupt registry={view.registry} props={props} />
    </div>
  );
}
