// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { UNWRAP_LIMITS, unwrapInterrupt, unwrapInterrupts } from '../../../src/unwrap';

/** A proxy around `target` (and everything read through it) that counts each property read. */
function counted<T extends object>(target: T, counter: { reads: number }): T {
  const wrap = (value: unknown): unknown => (typeof value === 'object' && value !== null ? counted(value as object, counter) : value);
  return new Proxy(target, {
    get(t, key, receiver) {
      counter.reads++;
      return wrap(Reflect.get(t, key, receiver));
    },
  });
}

/** `depth` levels of `{a, b}` where both keys hold the same object: 2^depth paths, `depth` objects. */
function sharedTree(depth: number): unknown {
  let node: unknown = { leaf: 1 };
  for (let i = 0; i < depth; i++) node = { a: node, b: node };
  return node;
}

function nested(depth: number, leaf: string): string {
  return `${'{"x":'.repeat(depth)}"${leaf}"${'}'.repeat(depth)}`;
}

describe('unwrap on hostile input', () => {
  it('given a legacy on_interrupt event whose value is a JSON string with unsafe keys, should drop them and say so', () => {
    const value = JSON.stringify({ reason: 'x:y', metadata: {}, note: 'hi' }).replace(
      '{',
      '{"__proto__":{"polluted":true},"constructor":1,',
    );
    const unwrapped = unwrapInterrupt({ name: 'on_interrupt', value });
    expect(unwrapped.problem).toMatch(/unsafe keys: __proto__, constructor/);
    expect(Object.prototype.hasOwnProperty.call(unwrapped.payload, '__proto__')).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(unwrapped.payload, 'constructor')).toBe(false);
    expect((unwrapped.payload as Record<string, unknown>).note).toBe('hi');
  });

  it('given legacy JSON-string values nested 5,000 deep, should cut them with a problem and keep their ids apart', () => {
    const a = unwrapInterrupt({ name: 'on_interrupt', value: nested(5000, 'a') });
    const b = unwrapInterrupt({ name: 'on_interrupt', value: nested(5000, 'b') });
    expect(a.problem).toMatch(/deeper than 64 levels/);
    expect(a.id).not.toBe(b.id);
    let depth = 0;
    for (let node = a.payload as Record<string, unknown> | undefined; node && typeof node === 'object'; node = node.x as never) depth++;
    expect(depth).toBeLessThanOrEqual(UNWRAP_LIMITS.maxDepth);
  });

  it('given a sparse list of a million slots, should name it without reading every slot', () => {
    const counter = { reads: 0 };
    const unwrapped = unwrapInterrupt(counted(new Array(1_000_000), counter));
    expect(unwrapped.problem).toMatch(/should be an object/);
    expect(counter.reads).toBeLessThan(UNWRAP_LIMITS.maxNodes * 2);
  });

  it('given references shared 2^20 ways, should read no more than the node cap', () => {
    const counter = { reads: 0 };
    const unwrapped = unwrapInterrupt(counted([sharedTree(20)], counter));
    expect(unwrapped.id).toMatch(/^invalid-/);
    expect(counter.reads).toBeLessThan(UNWRAP_LIMITS.maxNodes * 4);
  });

  it('given many interrupts sharing one large object, should cap the work for the whole set, not per interrupt', () => {
    const counter = { reads: 0 };
    const big = { items: Array.from({ length: 20_000 }, (_, i) => i) };
    const interrupts = Array.from({ length: 100 }, (_, i) => counted({ id: `i${i}`, reason: 'x:y', metadata: { big } }, counter));
    const unwrapped = unwrapInterrupts({ interrupts });
    expect(unwrapped).toHaveLength(100);
    expect(unwrapped.map((u) => u.id)).toEqual(interrupts.map((_, i) => `i${i}`));
    expect(unwrapped.at(-1)?.problem).toMatch(/more than \d+ values/);
    expect(counter.reads).toBeLessThan(UNWRAP_LIMITS.maxTotalNodes * 3);
  });

  it('given typed arrays and boxed strings, should drop the binary data and read the boxed text as text', () => {
    const unwrapped = unwrapInterrupt({
      id: 'b',
      reason: 'x:y',
      metadata: { bytes: new Uint8Array(100_000), note: new String('y'.repeat(100_000)) },
    });
    expect(unwrapped.problem).toMatch(/Binary data/);
    expect(unwrapped.metadata.bytes).toBeUndefined();
    expect(unwrapped.metadata.note).toBe('y'.repeat(100_000));
  });
});
