import { createUnwrapBudget, sanitize, UNWRAP_LIMITS, type UnwrapBudget } from './sanitize';
import { errorMessage } from '../error-message';

export type DecodeResult = { ok: true; value: unknown } | { ok: false; problem: string };

const MAX_DECODE_ROUNDS = 3;

/**
 * Parses a JSON string, and again while the result is still a string (double encoding). The
 * result is raw `JSON.parse` output; {@link decodeUntrusted} also sanitises it.
 */
export function decodeJson(text: string, budget: UnwrapBudget = createUnwrapBudget()): DecodeResult {
  let value: unknown = text;
  for (let round = 0; round < MAX_DECODE_ROUNDS && typeof value === 'string'; round++) {
    const current: string = value;
    const trimmed = current.trim();
    // After the first round, only a string that looks like JSON is decoded again.
    if (round > 0 && !/^[[{"]/.test(trimmed)) break;
    // The limit named is the one that applied: this string's, or what the set had left.
    const limit = Math.min(UNWRAP_LIMITS.maxJsonLength, budget.jsonChars);
    if (current.length > limit) {
      return {
        ok: false,
        problem: `The interrupt is too large to read (${current.length} characters; the limit is ${limit}).`,
      };
    }
    budget.jsonChars -= current.length;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      return { ok: false, problem: `The interrupt is not valid JSON (${errorMessage(error)}): ${preview(trimmed)}` };
    }
  }
  return { ok: true, value };
}

export type UntrustedResult = { ok: true; value: unknown; problems: string[] } | { ok: false; problem: string };

/**
 * The one way to read an untrusted value, whatever path it came by: a JSON string is decoded
 * (double encoding too), and the result, or the value itself, is copied through {@link sanitize}
 * (unsafe keys, depth, size, binary data), spending `budget`. Pass one budget for a whole set of
 * interrupts so their caps hold together. The server middleware's legacy `on_interrupt` decoding
 * should call this too.
 */
export function decodeUntrusted(input: unknown, budget: UnwrapBudget = createUnwrapBudget()): UntrustedResult {
  let value = input;
  if (typeof value === 'string') {
    const decoded = decodeJson(value, budget);
    if (!decoded.ok) return decoded;
    value = decoded.value;
  }
  return { ok: true, ...sanitize(value, budget) };
}

/** The start of a text, for messages. */
export function preview(text: string, length = 60): string {
  return JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
}
