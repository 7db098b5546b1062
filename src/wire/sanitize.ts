/** Limits that keep unwrapping cheap and safe on hostile input. */
export const UNWRAP_LIMITS = Object.freeze({
  /** Longest JSON string that is parsed (and hashed, to name an interrupt). */
  maxJsonLength: 500_000,
  /** Deepest nesting kept; deeper values are dropped. */
  maxDepth: 64,
  /** Most objects, arrays and values copied for one interrupt. */
  maxNodes: 20_000,
  /**
   * Most values copied, and JSON characters parsed, for a whole interrupt set: a thousand
   * interrupts sharing one large object must not multiply the per-interrupt limits.
   */
  maxTotalNodes: 40_000,
  maxTotalJsonLength: 2_000_000,
  /** Most interrupts read from one set; the rest are named by one fallback card. */
  maxInterrupts: 1_000,
});

const MIN_NODES_EACH = 32;

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * What is left to spend on one interrupt set. One budget is shared by every interrupt of a set
 * (and by every decode and copy of one interrupt), so the work for any input stays bounded.
 */
export interface UnwrapBudget {
  nodes: number;
  jsonChars: number;
}

export const createUnwrapBudget = (): UnwrapBudget => ({
  nodes: UNWRAP_LIMITS.maxTotalNodes,
  jsonChars: UNWRAP_LIMITS.maxTotalJsonLength,
});

export interface Sanitized {
  value: unknown;
  /** Sentences for what had to be left out. */
  problems: string[];
}

/**
 * Boxed primitives (`new String('x')`) stand for their primitive: read as objects they would be
 * walked character by character. Their own `valueOf` is not trusted; the prototype's is called.
 */
const BOXES = [String, Number, Boolean];

/** One copy in progress: what it may still spend, and what it had to leave out. */
interface Copy {
  /** Values copied so far, and the most this copy may take. */
  nodes: number;
  readonly limit: number;
  /** The objects on the path being copied: one met again is a cycle. */
  readonly seen: WeakSet<object>;
  readonly unsafeKeys: Set<string>;
  tooDeep: boolean;
  tooMany: boolean;
  binary: boolean;
  unreadable: boolean;
}

/**
 * Copies a value into plain JSON-like data: drops prototype-polluting keys, functions, cycles,
 * binary data (typed arrays, buffers), and anything past the depth or size limits, and survives
 * throwing getters. The copy is a tree of at most `maxNodes` values (a shared reference is copied
 * each time it is met, and each copy counts), so hashing or printing it is cheap too.
 *
 * Every reader of untrusted data (unwrap, the stored history, the server middleware's legacy
 * decoding) should copy through here.
 */
export function sanitize(value: unknown, budget: UnwrapBudget = createUnwrapBudget()): Sanitized {
  // Each interrupt may always read a few values (its id and reason come first), so one huge
  // interrupt cannot leave the others nameless; that floor is bounded by `maxInterrupts`.
  const limit = Math.min(UNWRAP_LIMITS.maxNodes, Math.max(MIN_NODES_EACH, budget.nodes));
  const copy: Copy = {
    nodes: 0,
    limit,
    seen: new WeakSet<object>(),
    unsafeKeys: new Set<string>(),
    tooDeep: false,
    tooMany: false,
    binary: false,
    unreadable: false,
  };
  const copied = copyValue(copy, value, 0);
  budget.nodes = Math.max(0, budget.nodes - Math.min(copy.nodes, limit));
  return { value: copied, problems: problemsOf(copy) };
}

/** Sentences for what a copy had to leave out. */
function problemsOf(copy: Copy): string[] {
  const problems: string[] = [];
  if (copy.unsafeKeys.size > 0) problems.push(`Ignored unsafe keys: ${[...copy.unsafeKeys].join(', ')}.`);
  if (copy.tooDeep) problems.push(`Values nested deeper than ${UNWRAP_LIMITS.maxDepth} levels were dropped.`);
  // The limit named is the one that applied: this interrupt's, or what the set had left.
  if (copy.tooMany) problems.push(`The interrupt has more than ${copy.limit} values; the rest were dropped.`);
  if (copy.binary) problems.push('Binary data (typed arrays, buffers) was dropped.');
  if (copy.unreadable) problems.push('Some values could not be read.');
  return problems;
}

/** One value copied: a primitive as JSON has it, an object or a list walked; undefined for what is left out. */
function copyValue(copy: Copy, input: unknown, depth: number): unknown {
  if (++copy.nodes > copy.limit) {
    copy.tooMany = true;
    return undefined;
  }
  if (input === null || typeof input === 'string' || typeof input === 'boolean') return input;
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  if (typeof input !== 'object') return undefined;
  if (depth >= UNWRAP_LIMITS.maxDepth) {
    copy.tooDeep = true;
    return undefined;
  }
  if (copy.seen.has(input)) return undefined;
  copy.seen.add(input);
  try {
    return Array.isArray(input) ? copyList(copy, input, depth) : copyObject(copy, input, depth);
  } catch {
    copy.unreadable = true;
    return undefined;
  } finally {
    copy.seen.delete(input);
  }
}

/** Index by index up to the limit: a sparse `length: 1e9` costs no more than its budget. */
function copyList(copy: Copy, input: unknown[], depth: number): unknown[] {
  const out: unknown[] = [];
  const length = input.length;
  for (let i = 0; i < length && !copy.tooMany; i++) {
    let read: unknown;
    try {
      read = input[i];
    } catch {
      copy.unreadable = true;
      read = undefined;
    }
    const item = copyValue(copy, read, depth + 1);
    out.push(item === undefined ? null : item);
  }
  return out;
}

function copyObject(copy: Copy, input: object, depth: number): unknown {
  // A typed array lists every index as a key, whatever its prototype: never walk one.
  if (ArrayBuffer.isView(input)) {
    copy.binary = true;
    return undefined;
  }
  // Plain objects (what JSON.parse makes) skip the check for boxes.
  const proto: unknown = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null) {
    const box = BOXES.find((type) => input instanceof type);
    if (box) return copyValue(copy, (box.prototype.valueOf as (this: object) => unknown).call(input), depth);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (copy.tooMany) break;
    if (UNSAFE_KEYS.has(key)) {
      copy.unsafeKeys.add(key);
      continue;
    }
    // One value that throws when read (a getter, a proxy trap) is left out alone: the others,
    // the id and reason among them, are still read.
    let read: unknown;
    try {
      read = (input as Record<string, unknown>)[key];
    } catch {
      copy.unreadable = true;
      continue;
    }
    const item = copyValue(copy, read, depth + 1);
    if (item !== undefined) out[key] = item;
  }
  return out;
}
