import type { ReactNode } from 'react';
import { cx } from './class-names';

/** Colour families; each maps to CSS variables in styles.css. */
export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export interface BadgeProps {
  tone: BadgeTone;
  children: ReactNode;
  testId?: string;
  className?: string;
}

/** A small status pill. Colour is never the only signal: the text says the status too. */
export function Badge({ tone, children, testId, className }: BadgeProps) {
  return (
    <span className={cx('cki-badge', `cki-badge--${tone}`, className)} data-testid={testId}>
      {children}
    </span>
  );
}
