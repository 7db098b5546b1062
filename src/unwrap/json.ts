import { UNWRAP_LIMITS } from './sanitize';
import { errorMessage } from '../error-message';

export type DecodeResult = { ok: true; value: unknown } | { ok: false; problem: string };

const MAX_DECODE_ROUNDS = 3;

/** Parses a JSON string, and again while the result is still a string (double encoding). */
export function decodeJson(text: string): DecodeResult {
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
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      return { ok: false, problem: `The interrupt is not valid JSON (${errorMessage(error)}): ${preview(trimmed)}` };
    }
  }
  return { ok: true, value };
}

/** The start of a text, for messages. */
export function preview(text: string, length = 60): string {
  return JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
}

/** A short stable hash (FNV-1a, 32 bit) to name interrupts that carry no id. */
export function stableHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
