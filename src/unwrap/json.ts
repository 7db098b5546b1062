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

/** FNV-1a (32 bit), fed piece by piece. */
class Fnv {
  private hash = 0x811c9dc5;
  add(text: string, from = 0, to = text.length): this {
    for (let i = from; i < to; i++) {
      this.hash ^= text.charCodeAt(i);
      this.hash = Math.imul(this.hash, 0x01000193);
    }
    return this;
  }
  toString(): string {
    return (this.hash >>> 0).toString(16).padStart(8, '0');
  }
}

/** Characters of a text hashed in full once a budget has run out: its head and tail, and its length. */
const SAMPLE = 2048;

/** Adds a text to the hash: in full while `budget` lasts (and spends it), else a bounded sample. */
function addText(fnv: Fnv, text: string, budget: UnwrapBudget): void {
  if (text.length <= budget.jsonChars) {
    budget.jsonChars -= text.length;
    fnv.add(text);
    return;
  }
  fnv.add(String(text.length)).add(text, 0, Math.min(SAMPLE, text.length)).add(text, Math.max(0, text.length - SAMPLE));
}

/**
 * A short stable hash (FNV-1a, 32 bit) of a text, to name interrupts that carry no id. Hashing
 * spends the set's JSON budget; past it, only a bounded sample of the text counts.
 */
export function stableHash(text: string, budget: UnwrapBudget = createUnwrapBudget()): string {
  const fnv = new Fnv();
  addText(fnv, text, budget);
  return fnv.toString();
}

/**
 * A stable hash of a sanitised value (a tree of at most `maxNodes` JSON values), walked directly
 * rather than printed first: the same value gets the same hash, and its long texts cost no more
 * than the budget allows.
 */
export function hashValue(value: unknown, budget: UnwrapBudget = createUnwrapBudget()): string {
  const fnv = new Fnv();
  const walk = (node: unknown): void => {
    if (typeof node === 'string') {
      fnv.add('"');
      addText(fnv, node, budget);
    } else if (Array.isArray(node)) {
      fnv.add('[');
      for (const item of node) walk(item);
      fnv.add(']');
    } else if (typeof node === 'object' && node !== null) {
      fnv.add('{');
      for (const [key, item] of Object.entries(node)) {
        fnv.add(':');
        addText(fnv, key, budget);
        walk(item);
      }
      fnv.add('}');
    } else {
      fnv.add(String(node));
    }
  };
  walk(value);
  return fnv.toString();
}
