import { readableText, withReadableDates } from '../../src/i18n/date-time';
import type { InterruptLabels } from '../../src/i18n/labels';
import { formatJson } from '../shared/format-json';
import { argsObject } from './approval-edit-model';

/** A value longer than this on one line is folded behind its first words. */
const FOLD_CHARS = 120;
const PREVIEW_CHARS = 60;

/**
 * One argument's value as text: a string as it is (a date readable), anything else as JSON; on
 * one line (`inline`) and, for a folded value, in full (`full`: pretty JSON, or the text).
 */
function valueTexts(value: unknown, locale: string): { inline: string; full: string } {
  if (typeof value === 'string') {
    const text = readableText(value, locale);
    return { inline: text.replace(/\s+/g, ' '), full: text };
  }
  const full = formatJson(withReadableDates(value, locale));
  return { inline: full.replace(/\n\s*/g, ' '), full };
}

/**
 * One value, whole when short; when long, its first words with the rest folded inside a native
 * (keyboard-operable) disclosure, so the list of arguments stays readable at a glance.
 */
function ArgValue({ value, locale, name }: { value: unknown; locale: string; name: string }) {
  const { inline, full } = valueTexts(value, locale);
  if (inline.length <= FOLD_CHARS && !full.includes('\n')) return <span className="cki-args__value">{full}</span>;
  if (inline.length <= FOLD_CHARS) return <span className="cki-args__value">{inline}</span>;
  const preview = inline.slice(0, PREVIEW_CHARS).trimEnd() + '…';
  return (
    <details className="cki-details cki-args__long">
      <summary>{preview}</summary>
      {/* Focusable because a long value scrolls, and a scroll area must be reachable by keyboard. */}
      <pre className="cki-code" tabIndex={0} role="region" aria-label={name}>
        <code>{full}</code>
      </pre>
    </details>
  );
}

/**
 * Every argument of the tool call, by name, shown without a click: what the user approves is
 * never hidden behind a disclosure. Arguments that are not an object (a list, plain text) show
 * as one value.
 */
export function ApprovalArgsList({ args, labels, locale }: { args: unknown; labels: InterruptLabels; locale: string }) {
  const object = argsObject(args);
  return (
    <div className="cki-args" data-testid="approval-args">
      <p className="cki-field__label">{labels.approvalArguments}</p>
      {object ? (
        Object.keys(object).length > 0 ? (
          <dl className="cki-fields">
            {Object.entries(object).map(([name, value]) => (
              <div className="cki-fields__row" key={name}>
                <dt>
                  <code>{name}</code>
                </dt>
                <dd>
                  <ArgValue value={value} locale={locale} name={name} />
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="cki-card__note">{'{}'}</p>
        )
      ) : (
        <ArgValue value={args} locale={locale} name={labels.approvalArguments} />
      )}
    </div>
  );
}
