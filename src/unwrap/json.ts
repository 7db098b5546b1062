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

/** FNV-1a (32 bit) of `text[from, to)`, continuing from `hash`. */
function fnv(hash: number, text: string, from = 0, to = text.length): number {
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/** Characters of a text hashed once a budget has run out: its head and tail, and its length. */
const SAMPLE = 2048;

/** Hashes a text in full while `budget` lasts (and spends it), else a bounded sample of it. */
function addText(hash: number, text: string, budget: UnwrapBudget): number {
  const n = text.length;
  if (n <= budget.jsonChars) {
    budget.jsonChars -= n;
    return fnv(hash, text);
  }
  return fnv(fnv(fnv(hash, `${n}`), text, 0, Math.min(SAMPLE, n)), text, Math.max(0, n - SAMPLE));
}

const hex = (hash: number) => (hash >>> 0).toString(16).padStart(8, '0');
const SEED = 0x811c9dc5;

/**
 * A short stable hash (FNV-1a, 32 bit) of a text, to name interrupts that carry no id. Hashing
 * spends the set's JSON budget; past it, only a bounded sample of the text counts.
 */
export const stableHash = (text: string, budget: UnwrapBudget = createUnwrapBudget()): string => hex(addText(SEED, text, budget));

/**
 * A stable hash of a sanitised value (a tree of at most `maxNodes` JSON values), walked directly
 * rather than printed first: the same value gets the same hash, and its long texts cost no more
 * than the budget allows.
 */
export function hashValue(value: unknown, budget: UnwrapBudget = createUnwrapBudget()): string {
  const walk = (hash: number, node: unknown): number => {
    if (typeof node === 'string') return addText(fnv(hash, '"'), node, budget);
    if (typeof node !== 'object' || node === null) return fnv(hash, `${node}`);
    hash = fnv(hash, Array.isArray(node) ? '[' : '{');
    for (const [key, item] of Object.entries(node)) hash = walk(addText(fnv(hash, ':'), key, budget), item);
    return fnv(hash, '}');
  };
  return hex(walk(SEED, value));
}
