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
    if (current.length > UNWRAP_LIMITS.maxJsonLength) {
      return {
        ok: false,
        problem: `The interrupt is too large to read (${current.length} characters; the limit is ${UNWRAP_LIMITS.maxJsonLength}).`,
      };
    }
    if (current.length > budget.jsonChars) {
      return {
        ok: false,
        problem: `The interrupts are too large to read together (the limit is ${UNWRAP_LIMITS.maxTotalJsonLength} characters).`,
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
  const { value: clean, problems } = sanitize(value, budget);
  return { ok: true, value: clean, problems };
}

/** The start of a text, for messages. */
export function preview(text: string, length = 60): string {
  return JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
}

/**
 * A short stable hash (FNV-1a, 32 bit) to name interrupts that carry no id. Past the parse limit
 * only the length counts, so hashing any text is bounded.
 */
export function stableHash(text: string): string {
  let hash = 0x811c9dc5;
  const end = Math.min(text.length, UNWRAP_LIMITS.maxJsonLength);
  for (let i = 0; i < end; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  if (end < text.length) hash = Math.imul(hash ^ text.length, 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
