// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unwrapInterrupt } from '../../../src/unwrap';

// Whatever arrives, unwrapInterrupt answers with a usable object and leaves the world as it was.
function expectUsable(input: unknown) {
  const u = unwrapInterrupt(input);
  expect(typeof u.id).toBe('string');
  expect(u.id.length).toBeGreaterThan(0);
  expect(typeof u.reason).toBe('string');
  expect(u.reason.length).toBeGreaterThan(0);
  expect(typeof u.metadata).toBe('object');
  if (u.problem !== undefined) expect(u.problem).toMatch(/^[A-Z].*\S/);
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(Object.prototype).not.toHaveProperty('bad');
  return u;
}

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'reason', 'metadata', 'value', 'name', 'type');
const hostileObject = fc.dictionary(hostileKey, fc.jsonValue(), { maxKeys: 6 });

describe('unwrapInterrupt on arbitrary input', () => {
  it('never throws on any JSON value, and explains what it could not read', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => void expectUsable(value)),
      { numRuns: 500 },
    );
  });

  it('never throws on any string, JSON or not', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => void expectUsable(text)),
      { numRuns: 500 },
    );
  });

  it('never throws on interrupt-like objects with wrong field types', () => {
    const shape = fc.record({
      id: fc.anything(),
      reason: fc.anything(),
      metadata: fc.oneof(fc.anything(), fc.record({ mastra: fc.record({ suspendPayload: fc.anything(), toolName: fc.anything() }) })),
      message: fc.anything(),
    });
    fc.assert(
      fc.property(shape, (value) => void expectUsable(value)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(shape, (value) => void expectUsable({ name: 'on_interrupt', value: JSON.stringify(value) })),
      { numRuns: 500 },
    );
  });

  it('never pollutes prototypes, whether keys arrive as JSON or as own properties', () => {
    fc.assert(
      fc.property(hostileObject, (value) => {
        expectUsable(JSON.stringify(value));
        expectUsable(JSON.parse(JSON.stringify(value)));
        expectUsable({ id: 'x', reason: 'a:b', metadata: JSON.parse(JSON.stringify(value)) });
      }),
      { numRuns: 500 },
    );
    const literal = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"bad":1}}}');
    expect(expectUsable({ id: 'x', reason: 'mastra:tool_suspend', metadata: { mastra: { suspendPayload: literal } } }).problem).toMatch(
      /unsafe keys/,
    );
  });

  it('reads 10,000-deep nesting without overflowing, and says what it dropped', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    const u = expectUsable({ id: 'deep', reason: 'a:b', metadata: deep });
    expect(u.id).toBe('deep');
    expect(u.problem).toMatch(/nested deeper than/);

    const text = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    expect(expectUsable(text).problem).toMatch(/nested deeper than|not valid JSON/);
  });

  it('handles multi-megabyte strings', () => {
    const big = 'x'.repeat(3_000_000);
    expect(expectUsable(big).problem).toMatch(/too large to read/);
    const u = expectUsable({ id: 'big', reason: 'a:b', message: big });
    expect(u.message).toHaveLength(3_000_000);
  });
});

describe('unwrapInterrupt on objects with values that throw when read', () => {
  const field = fc.constantFrom('message', 'metadata', 'toolCallId', 'responseSchema', 'expiresAt', 'extra');

  it('given any top-level getters that throw, should keep the readable id, reason and the other fields, and say what it could not read', () => {
    fc.assert(
      fc.property(fc.uniqueArray(field, { minLength: 1, maxLength: 4 }), fc.string({ minLength: 1 }), (throwing, id) => {
        const interrupt: Record<string, unknown> = { id, reason: 'acme:ask', message: 'Still here', metadata: { kept: true } };
        for (const key of throwing) {
          Object.defineProperty(interrupt, key, {
            enumerable: true,
            get: () => {
              throw new Error(`cannot read ${key}`);
            },
          });
        }
        const read = unwrapInterrupt(interrupt);
        expect(read.id).toBe(id);
        expect(read.reason).toBe('acme:ask');
        expect(read.problem).toContain('Some values could not be read.');
        if (!throwing.includes('message')) expect(read.message).toBe('Still here');
        if (!throwing.includes('metadata')) expect(read.metadata).toMatchObject({ kept: true });
      }),
    );
  });

  it('given an array item that throws when read, should keep the other items', () => {
    const items: unknown[] = [{ id: 'a', reason: 'acme:ask' }, undefined, { id: 'c', reason: 'acme:ask' }];
    Object.defineProperty(items, 1, {
      get: () => {
        throw new Error('cannot read item 1');
      },
    });
    const read = unwrapInterrupt({ id: 'x', reason: 'acme:ask', metadata: { items } });
    expect(read.id).toBe('x');
    expect((read.metadata as { items: unknown[] }).items).toEqual([{ id: 'a', reason: 'acme:ask' }, null, { id: 'c', reason: 'acme:ask' }]);
  });
});
