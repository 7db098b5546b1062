import type { InterruptLabels } from '../../src/i18n/labels';
import { formatLabel } from '../../src/i18n/labels';
import { readableDateTime, withReadableDates } from '../../src/i18n/date-time';
import type { ArgChange } from './approval-edit-model';

/** A value on one line as compact JSON; a date as people read it. */
const compact = (value: unknown, locale: string) => {
  const date = typeof value === 'string' ? readableDateTime(value, locale) : undefined;
  if (date) return date;
  try {
    return JSON.stringify(withReadableDates(value, locale)) ?? String(value);
  } catch {
    return String(value);
  }
};

/** The arguments an approval changed, one line each: `name: before → after` (added, removed). */
export function ApprovalArgsDiff({ changes, labels, locale }: { changes: readonly ArgChange[]; labels: InterruptLabels; locale: string }) {
  return (
    <div className="cki-approval__diff" data-testid="approval-edited-args">
      <p className="cki-field__label">{labels.approvalEditedArguments}</p>
      <ul className="cki-diff">
        {changes.map((change) => {
          const before = 'before' in change ? compact(change.before, locale) : undefined;
          const after = 'after' in change ? compact(change.after, locale) : undefined;
          let spoken: string;
          if (before === undefined) spoken = formatLabel(labels.approvalArgAdded, { name: change.name, after: after! });
          else if (after === undefined) spoken = formatLabel(labels.approvalArgRemoved, { name: change.name, before });
          else spoken = formatLabel(labels.approvalArgChanged, { name: change.name, before, after });
          return (
            <li key={change.name} className="cki-diff__row" aria-label={spoken}>
              <code>{change.name}</code>: {before !== undefined ? <del className="cki-diff__before">{before}</del> : null}
              {before !== undefined && after !== undefined ? ' → ' : null}
              {after !== undefined ? <ins className="cki-diff__after">{after}</ins> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
