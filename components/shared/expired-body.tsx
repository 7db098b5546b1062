import type { InterruptLabels } from '../../src/i18n/labels';
import { Badge } from './badge';

/** The read-only body of any card whose deadline passed: no answer was or will be sent. */
export function ExpiredBody({ labels, testId, title }: { labels: InterruptLabels; testId: string; title?: string }) {
  return (
    <div className="cki-card cki-card--readonly cki-card--expired" data-testid={testId}>
      <div className="cki-card__header">
        <Badge tone="neutral">{labels.expired}</Badge>
      </div>
      {title ? <p className="cki-card__title">{title}</p> : null}
      <p className="cki-card__text">{labels.expiredText}</p>
    </div>
  );
}
