import type { InterruptLabels } from '../../src/i18n/labels';
import { ReadOnlyCard } from './read-only-card';

/** The read-only body of any card whose deadline passed: no answer was or will be sent. */
export function ExpiredBody({ labels, testId, title }: { labels: InterruptLabels; testId: string; title?: string }) {
  return (
    <ReadOnlyCard
      testId={testId}
      labels={labels}
      tone="neutral"
      badge={labels.expired}
      title={title}
      answer={labels.expiredText}
      className="cki-card--expired"
    />
  );
}
