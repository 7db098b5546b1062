import type { InterruptLabels } from '../../src/i18n/labels';
import { formatLabel } from '../../src/i18n/labels';
import type { ArgChange } from './approval-edit-model';

const compact = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/** The arguments an approval changed, one line each: `name: before → after` (added, removed). */
export function ApprovalArgsDiff({ changes, labels }: { changes: readonly ArgChange[]; labels: InterruptLabels }) {
  return (
    <div className="cki-approval__diff" data-testid="approval-edited-args">
      <p className="cki-field__label">{labels.approvalEditedArguments}</p>
      <ul className="cki-diff">
        {changes.map((change) => {
          const before = 'before' in change ? compact(change.before) : undefined;
          const after = 'after' in change ? compact(change.after) : undefined;
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
