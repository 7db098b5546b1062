/** Limits that keep unwrapping cheap and safe on hostile input. */
export const UNWRAP_LIMITS = Object.freeze({
  /** Longest JSON string that is parsed. */
  maxJsonLength: 1_000_000,
  /** Deepest nesting kept; deeper values are dropped. */
  maxDepth: 64,
  /** Most objects, arrays and values copied. */
  maxNodes: 50_000,
});

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface Sanitized {
  value: unknown;
  /** Sentences for what had to be left out. */
  problems: string[];
}

/**
 * Copies a value into plain JSON-like data: drops prototype-polluting keys, functions, cycles,
 * and anything past the depth or size limits, and survives throwing getters.
 */
export function sanitize(value: unknown): Sanitized {
  let nodes = 0;
  const seen = new WeakSet<object>();
  const unsafeKeys = new Set<string>();
  let tooDeep = false;
  let tooMany = false;
  let unreadable = false;

  const copy = (input: unknown, depth: number): unknown => {
    if (++nodes > UNWRAP_LIMITS.maxNodes) {
      tooMany = true;
      return undefined;
    }
    if (input === null || typeof input === 'string' || typeof input === 'boolean') return input;
    if (typeof input === 'number') return Number.isFinite(input) ? input : null;
    if (typeof input !== 'object') return undefined;
    if (depth >= UNWRAP_LIMITS.maxDepth) {
      tooDeep = true;
      return undefined;
    }
    if (seen.has(input)) return undefined;
    seen.add(input);
    try {
      if (Array.isArray(input)) {
        const out: unknown[] = [];
        for (let i = 0; i < input.length && !tooMany; i++) out.push(copy(input[i], depth + 1));
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(input)) {
        if (tooMany) break;
        if (UNSAFE_KEYS.has(key)) {
          unsafeKeys.add(key);
          continue;
        }
        const item = copy((input as Record<string, unknown>)[key], depth + 1);
        if (item !== undefined) out[key] = item;
      }
      return out;
    } catch {
      unreadable = true;
      return undefined;
    } finally {
      seen.delete(input);
    }
  };

  const copied = copy(value, 0);
  const problems: string[] = [];
  if (unsafeKeys.size > 0) problems.push(`Ignored unsafe keys: ${[...unsafeKeys].join(', ')}.`);
  if (tooDeep) problems.push(`Values nested deeper than ${UNWRAP_LIMITS.maxDepth} levels were dropped.`);
  if (tooMany) problems.push(`The interrupt has more than ${UNWRAP_LIMITS.maxNodes} values; the rest were dropped.`);
  if (unreadable) problems.push('Some values could not be read.');
  return { value: copied, problems };
}
