import type { ReactNode } from 'react';
import type { InterruptLocale } from '../../src/i18n/locale';
import { cx } from './class-names';

export interface CardFrameProps {
  locale: InterruptLocale;
  /** Text screen readers announce when it changes (the card's state in words). */
  announcement: string;
  busy?: boolean;
  className?: string;
  children: ReactNode;
}

/**
 * The outer wrapper every card renders in. It stays mounted while the card swaps between its
 * interactive and read-only bodies, so its polite live region can announce the change (a live
 * region inserted together with its text is not announced by most screen readers).
 */
export function CardFrame({ locale, announcement, busy, className, children }: CardFrameProps) {
  return (
    <div className={cx('cki-root', className)} lang={locale}>
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
