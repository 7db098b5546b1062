/**
 * Names for interrupts that carry no id: short stable hashes of their text or of their sanitised
 * value, bounded by the set's budget.
 */
import { createUnwrapBudget, type UnwrapBudget } from '../wire/sanitize';

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
