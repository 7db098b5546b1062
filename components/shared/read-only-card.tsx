import type { ReactNode } from 'react';
import { Badge, type BadgeTone } from './badge';
import { cx } from './class-names';

export interface ReadOnlyCardProps {
  testId: string;
  tone: BadgeTone;
  /** The outcome in one word ("Booked", "Answered", "Expired"). */
  badge: string;
  title?: string;
  className?: string;
  children?: ReactNode;
}

/** The common shape of every card's read-only form: an outcome badge, the title, the details. */
export function ReadOnlyCard({ testId, tone, badge, title, className, children }: ReadOnlyCardProps) {
  return (
    <div className={cx('cki-card', 'cki-card--readonly', className)} data-testid={testId}>
      <div className="cki-card__header">
        <Badge tone={tone}>{badge}</Badge>
      </div>
      {title ? <p className="cki-card__title">{title}</p> : null}
      {children}
    </div>
  );
}
