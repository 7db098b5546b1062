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

export interface SanitizeReport {
  unsafeKeys: Set<string>;
  tooDeep: boolean;
  tooMany: boolean;
  unreadable: boolean;
}

export function newReport(): SanitizeReport {
  return { unsafeKeys: new Set(), tooDeep: false, tooMany: false, unreadable: false };
}

/**
 * Copies a value into plain JSON-like data: drops prototype-polluting keys, functions, cycles,
 * and anything past the depth or size limits, and survives throwing getters.
 */
export function sanitize(value: unknown, report: SanitizeReport): unknown {
  let nodes = 0;
  const seen = new WeakSet<object>();

  const copy = (input: unknown, depth: number): unknown => {
    if (++nodes > UNWRAP_LIMITS.maxNodes) {
      report.tooMany = true;
      return undefined;
    }
    if (input === null || typeof input === 'string' || typeof input === 'boolean') return input;
    if (typeof input === 'number') return Number.isFinite(input) ? input : null;
    if (typeof input !== 'object') return undefined;
    if (depth >= UNWRAP_LIMITS.maxDepth) {
      report.tooDeep = true;
      return undefined;
    }
    if (seen.has(input)) return undefined;
    seen.add(input);
    try {
      if (Array.isArray(input)) {
        const out: unknown[] = [];
        for (let i = 0; i < input.length && !report.tooMany; i++) out.push(copy(input[i], depth + 1));
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(input)) {
        if (report.tooMany) break;
        if (UNSAFE_KEYS.has(key)) {
          report.unsafeKeys.add(key);
          continue;
        }
        const item = copy((input as Record<string, unknown>)[key], depth + 1);
        if (item !== undefined) out[key] = item;
      }
      return out;
    } catch {
      report.unreadable = true;
      return undefined;
    } finally {
      seen.delete(input);
    }
  };

  return copy(value, 0);
}

/** Sentences for what `sanitize` had to leave out. */
export function describeReport(report: SanitizeReport): string[] {
  const out: string[] = [];
  if (report.unsafeKeys.size > 0) {
    out.push(`Ignored unsafe keys: ${[...report.unsafeKeys].join(', ')}.`);
  }
  if (report.tooDeep) out.push(`Values nested deeper than ${UNWRAP_LIMITS.maxDepth} levels were dropped.`);
  if (report.tooMany) out.push(`The interrupt has more than ${UNWRAP_LIMITS.maxNodes} values; the rest were dropped.`);
  if (report.unreadable) out.push('Some values could not be read.');
  return out;
}
