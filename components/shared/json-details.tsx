import { withReadableDates } from '../../src/i18n/date-time';
import { formatJson } from './format-json';

/**
 * A collapsed, keyboard-operable block of pretty JSON (native `<details>`). With a `locale`, dates
 * inside read as dates in it, not as ISO text.
 */
export function JsonDetails({ summary, value, locale }: { summary: string; value: unknown; locale?: string }) {
  return (
    <details className="cki-details">
      <summary>{summary}</summary>
      {/* Focusable because a long value scrolls, and a scroll area must be reachable by keyboard;
          a region named like its summary, so focus lands on something a screen reader can name. */}
      <pre className="cki-code" tabIndex={0} role="region" aria-label={summary}>
        <code>{formatJson(locale ? withReadableDates(decoded(value), locale) : value)}</code>
      </pre>
    </details>
  );
}

/** A string holding JSON decoded (as {@link formatJson} would), so the dates inside it are found. */
function decoded(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
