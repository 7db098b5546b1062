import { formatJson } from './format-json';

/** A collapsed, keyboard-operable block of pretty JSON (native `<details>`). */
export function JsonDetails({ summary, value }: { summary: string; value: unknown }) {
  return (
    <details className="cki-details">
      <summary>{summary}</summary>
      {/* Focusable because a long value scrolls, and a scroll area must be reachable by keyboard;
          a region named like its summary, so focus lands on something a screen reader can name. */}
      <pre className="cki-code" tabIndex={0} role="region" aria-label={summary}>
        <code>{formatJson(value)}</code>
      </pre>
    </details>
  );
}
