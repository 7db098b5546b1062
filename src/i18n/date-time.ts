/**
 * Dates and times as people read them. Agents and ticket systems send times as ISO 8601 text
 * (`2026-12-05T14:00:00.000Z`, `2026-04-24 14:30:15`, `2026-12-05`); a card shows them in the
 * reader's locale and time zone instead ("Sat, Dec 5, 2026, 2:00 PM", "2026年12月5日周六 14:00").
 */

// A calendar date, optionally a time (T or a space), seconds, fractions and a zone.
const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

const DATE_TIME: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};
const DATE_ONLY: Intl.DateTimeFormatOptions = { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' };

/** Intl for the locale, or for the runtime's default when the tag is not one Intl knows. */
function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options);
  }
}

/**
 * `text` as a date (and time) in `locale` when it is an ISO 8601-like date that names a real
 * moment; `undefined` for any other text. A date without a time is a calendar day, not midnight UTC.
 *
 * @example
 * readableDateTime('2026-12-05T14:00:00.000Z', 'en'); // 'Sat, Dec 5, 2026, 2:00 PM' (in UTC)
 * readableDateTime('hello', 'en'); // undefined
 */
export function readableDateTime(text: string, locale?: string): string | undefined {
  const match = ISO_LIKE.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h] = match;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  if (h === undefined) {
    const date = new Date(year, month - 1, day);
    // new Date() rolls 2026-02-31 over into March: only a real calendar day counts.
    if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return undefined;
    return formatter(locale, DATE_ONLY).format(date);
  }
  const at = Date.parse(text.trim().replace(' ', 'T'));
  if (!Number.isFinite(at)) return undefined;
  return formatter(locale, DATE_TIME).format(at);
}

/** Text with an ISO-like date shown readably; any other text unchanged. */
export const readableText = (text: string, locale?: string): string => readableDateTime(text, locale) ?? text;

/**
 * A copy of a JSON-like value whose string leaves that are dates read as dates, for display.
 * Keys, numbers and other strings are unchanged; a cycle is cut rather than followed.
 */
export function withReadableDates(value: unknown, locale?: string, seen: Set<object> = new Set()): unknown {
  if (typeof value === 'string') return readableText(value, locale);
  if (typeof value !== 'object' || value === null || seen.has(value)) return value;
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => withReadableDates(item, locale, seen));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: withReadableDates(item, locale, seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
