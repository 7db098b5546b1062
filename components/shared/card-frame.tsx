import { useEffect, useRef, type ReactNode } from 'react';
import type { InterruptLocale } from '../../src/i18n/locale';
import { registerFrame, settleFocus } from './focus-after-answer';

export interface CardFrameProps {
  /** The interrupt the card answers: where focus goes after answering follows it across redraws. */
  interruptId: string;
  locale: InterruptLocale;
  /** Text screen readers announce when it changes (the card's state in words). */
  announcement: string;
  /** Which body the card shows; when it changes, focus lost with the old body comes back here. */
  phase: string;
  busy?: boolean;
  children: ReactNode;
}

/**
 * The outer wrapper every card renders in. It stays mounted while the card swaps between its
 * interactive and read-only bodies, so its polite live region can announce the change (a live
 * region inserted together with its text is not announced by most screen readers), and it can
 * take back keyboard focus when the button that had it is replaced by the read-only answer: to
 * the next open card of the set if one waits, else to the answer's summary.
 */
export function CardFrame({ interruptId, locale, announcement, phase, busy, children }: CardFrameProps) {
  const root = useRef<HTMLDivElement>(null);
  const previousPhase = useRef(phase);

  useEffect(() => {
    const frame = root.current;
    if (!frame) return undefined;
    const unregister = registerFrame(interruptId, frame);
    // Drawn again after an answer (the transcript's copy of a card answered in the slot).
    if (phase !== 'interactive') settleFocus(interruptId, frame);
    return unregister;
    // Mount only: the phase is handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [interruptId]);

  useEffect(() => {
    const frame = root.current;
    if (previousPhase.current === phase || !frame) return;
    previousPhase.current = phase;
    if (phase !== 'interactive') settleFocus(interruptId, frame);
    const active = document.activeElement;
    // Only when focus fell to the page: never pull it away from somewhere the user put it.
    if (!active || active === document.body) {
      const target =
        phase === 'interactive'
          ? frame.querySelector<HTMLElement>('.cki-root__body > [tabindex="-1"]')
          : frame.querySelector<HTMLElement>('.cki-summary');
      (target ?? frame).focus({ preventScroll: true });
    }
  }, [phase, interruptId]);

  // A control the user was on that a change inside the card removes or disables (Edit arguments
  // turning into its form, Back, a button that waits) would drop focus to the page: one rule here
  // for every card puts it on the next sensible control of the card instead.
  useEffect(() => {
    const frame = root.current;
    if (!frame || typeof MutationObserver === 'undefined') return undefined;
    let last: HTMLElement | undefined;
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && event.target !== frame) last = event.target;
    };
    const observer = new MutationObserver(() => {
      // A card that left its interactive body is settled by the phase effect (next open card first).
      if (frame.dataset.phase !== 'interactive') return;
      if (!last || (last.isConnected && !last.matches(':disabled'))) return;
      const active = document.activeElement;
      if (active && active !== document.body && active !== last) return;
      last = undefined;
      nextControl(frame)?.focus({ preventScroll: true });
    });
    frame.addEventListener('focusin', onFocusIn);
    observer.observe(frame, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
    return () => {
      frame.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, []);

  return (
    <div className="cki-root" lang={locale} ref={root} tabIndex={-1} data-phase={phase}>
      {/* aria-busy sits on the body, not the frame: a busy ancestor would hold back the live region. */}
      <div className="cki-root__body" aria-busy={busy || undefined}>
        {children}
      </div>
      <div className="cki-sr-only" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
    </div>
  );
}

const FIELD = 'input:not([type="hidden"]):not(:disabled), textarea:not(:disabled), select:not(:disabled)';

/**
 * Where focus goes when the control that had it went away inside a card that is still open: the
 * first field of what replaced it (a form opened), else the card's own group (read out, one Tab
 * from its buttons), else the frame.
 */
function nextControl(frame: HTMLElement): HTMLElement | null {
  return (
    frame.querySelector<HTMLElement>(`.cki-approval__edit :is(${FIELD}), .cki-form :is(${FIELD})`) ??
    frame.querySelector<HTMLElement>('.cki-root__body > [tabindex="-1"]') ??
    frame
  );
}
