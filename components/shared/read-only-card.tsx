import { useId, useState, type ReactNode } from 'react';
import type { InterruptLabels } from '../../src/i18n/labels';
import { Badge, type BadgeTone } from './badge';
import { cx } from './class-names';

export interface ReadOnlyCardProps {
  testId?: string;
  labels: InterruptLabels;
  tone: BadgeTone;
  /** The outcome in one word ("Booked", "Answered", "Expired"). */
  badge: string;
  /** `data-testid` of the outcome badge. */
  badgeTestId?: string;
  title?: string;
  /** The answer as text: shown whole under the title, wrapping as long as it needs. */
  answer?: string;
  /** The full read-only details: rendered only while the disclosure is open. */
  details?: () => ReactNode;
  className?: string;
  /** Always shown under the summary (sending, error and Retry). */
  children?: ReactNode;
}

/**
 * Every card's read-only form: one summary line (outcome badge, title, answer) and the details on
 * demand. The details are not rendered until asked for, so an answered card in a long transcript
 * costs the same handful of DOM nodes however large its answer is.
 */
export function ReadOnlyCard({ testId, labels, tone, badge, badgeTestId, title, answer, details, className, children }: ReadOnlyCardProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className={cx('cki-card', 'cki-card--readonly', className)} data-testid={testId}>
      {/* Focusable from script only: focus lands here after the card is answered by keyboard. */}
      <p className="cki-summary" id={id + 's'} tabIndex={-1}>
        <Badge tone={tone} testId={badgeTestId}>
          {badge}
        </Badge>
        {title ? <span className="cki-summary__title">{title}</span> : null}
        {answer ? (
          <span className="cki-summary__answer" data-testid="read-only-answer">
            {answer}
          </span>
        ) : null}
      </p>
      {details ? (
        <button
          type="button"
          className="cki-button cki-button--ghost cki-disclosure"
          aria-expanded={open}
          aria-controls={open ? id + 'd' : undefined}
          aria-describedby={id + 's'}
          onClick={() => setOpen(!open)}
        >
          {labels.details}
        </button>
      ) : null}
      {open && details ? (
        <div className="cki-card__details" id={id + 'd'} data-testid="read-only-details">
          {details()}
        </div>
      ) : null}
      {children}
    </div>
  );
}
