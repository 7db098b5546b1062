import { useEffect, useRef, type ReactNode } from 'react';
import type { InterruptLocale } from '../../src/i18n/locale';

export interface CardFrameProps {
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
 * take back keyboard focus when the button that had it is replaced by the read-only answer.
 */
export function CardFrame({ locale, announcement, phase, busy, children }: CardFrameProps) {
  const root = useRef<HTMLDivElement>(null);
  const previousPhase = useRef(phase);
  useEffect(() => {
    if (previousPhase.current === phase) return;
    previousPhase.current = phase;
    const active = document.activeElement;
    // Only when focus fell to the page: never pull it away from somewhere the user put it.
    if (!active || active === document.body) root.current?.focus({ preventScroll: true });
  }, [phase]);

  return (
    <div className="cki-root" lang={locale} ref={root} tabIndex={-1}>
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
