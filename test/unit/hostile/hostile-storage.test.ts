// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { createInterruptHistory, type InterruptHistoryPersistence } from '../../../src/history';
import { unwrapInterrupt } from '../../../src/unwrap';
import { approvalInterrupt } from '../../fixtures/interrupts';

const approval = unwrapInterrupt(approvalInterrupt);
const KEY = 'h';

function memoryStorage(): InterruptHistoryPersistence & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: (key) => data.get(key) ?? null, set: (key, value) => void data.set(key, value) };
}

const stored = (id: string, time: number, extra: Record<string, unknown> = {}) => ({
  threadId: 't',
  id,
  reason: approval.reason,
  interrupt: { ...approval, id, raw: undefined },
  status: 'resolved',
  result: { approved: true },
  time,
  anchor: null,
  ...extra,
});

describe('history on broken storage', () => {
  it('given a stored record whose message is an object, should drop it with one warning naming it and keep the rest', () => {
    const storage = memoryStorage();
    storage.set(
      `${KEY}:t`,
      JSON.stringify([
        stored('good', 1),
        stored('bad', 2, { interrupt: { ...approval, id: 'bad', raw: undefined, message: { text: 'x' } } }),
      ]),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const records = createInterruptHistory({ persistence: storage, storageKey: KEY }).getSnapshot('t');
    expect(records.map((r) => r.id)).toEqual(['good']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/"bad".*message is not text/);
    warn.mockRestore();
  });

  it.each(['constructor', 'prototype', '__proto__'])(
    'given an answer with a key named %s, should keep its card after a reload, without that key, and say so',
    (key) => {
      const storage = memoryStorage();
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      // An edited argument named like a prototype key, as a user can type it in the JSON editor.
      const result = JSON.parse(`{"approved": true, "editedArgs": {"name": "Foo", "${key}": "(x) => x"}}`);
      createInterruptHistory({ persistence: storage, storageKey: KEY }).record({
        threadId: 't',
        id: approval.id,
        reason: approval.reason,
        interrupt: approval,
        status: 'resolved',
        result,
        anchor: null,
      });

      const reloaded = createInterruptHistory({ persistence: storage, storageKey: KEY }).getSnapshot('t');
      const warnings = warn.mock.calls.map(([message]) => String(message));
      warn.mockRestore();
      expect(reloaded.map((r) => [r.id, r.status])).toEqual([[approval.id, 'resolved']]);
      expect(reloaded[0].result).toEqual({ approved: true, editedArgs: { name: 'Foo' } });
      expect(Object.getPrototypeOf((reloaded[0].result as { editedArgs: object }).editedArgs)).toBe(Object.prototype);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`1 stored interrupt record(s) for thread "t" were malformed: #0 (id "${approval.id}"): kept,`);
      expect(warnings[0]).toContain(`Ignored unsafe keys: ${key}.`);
    },
  );

  it.each([
    [
      'a cycle',
      () => {
        const result: Record<string, unknown> = { approved: true };
        result.self = result;
        return result;
      },
    ],
    ['a BigInt', () => ({ approved: true, amount: BigInt(10) })],
  ])('given an answer JSON cannot hold (%s), should store the other answers and name the one left out', (_name, make) => {
    const storage = memoryStorage();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const history = createInterruptHistory({ persistence: storage, storageKey: KEY });
    const answer = (id: string, result: unknown) =>
      history.record({
        threadId: 't',
        id,
        reason: approval.reason,
        interrupt: { ...approval, id },
        status: 'resolved',
        result,
        anchor: null,
      });
    answer('before', { approved: true });
    answer('unwritable', make());
    answer('after', { approved: false });
    const warnings = warn.mock.calls.map(([message]) => String(message));
    warn.mockRestore();

    // In this tab every card is still there; stored, all but the one JSON cannot hold.
    expect(history.getSnapshot('t').map((r) => r.id)).toEqual(['before', 'unwritable', 'after']);
    expect(
      createInterruptHistory({ persistence: storage, storageKey: KEY })
        .getSnapshot('t')
        .map((r) => r.id),
    ).toEqual(['before', 'after']);
    expect(warnings.some((w) => w.includes('Could not store the answer of "unwritable" in the interrupt history for thread "t".'))).toBe(
      true,
    );
  });

  it('given an answered interrupt with more values than a stored record may hold, should keep its answer and status after a reload', () => {
    const storage = memoryStorage();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // 12,000 lines of arguments, read once as metadata and once more inside the payload.
    const args = { lines: Array.from({ length: 12_000 }, (_, i) => `line ${i}`) };
    const big = unwrapInterrupt({ ...approvalInterrupt, id: 'big', metadata: { toolName: 'apply_patch', args } });
    expect(big.problem).toBeUndefined();
    createInterruptHistory({ persistence: storage, storageKey: KEY }).record({
      threadId: 't',
      id: 'big',
      reason: big.reason,
      interrupt: { ...big, payload: { metadata: big.metadata } },
      status: 'resolved',
      result: { approved: true },
      anchor: 'm1',
    });

    const [reloaded] = createInterruptHistory({ persistence: storage, storageKey: KEY }).getSnapshot('t');
    const warnings = warn.mock.calls.map(([message]) => String(message));
    warn.mockRestore();
    expect(reloaded).toMatchObject({ id: 'big', status: 'resolved', result: { approved: true }, anchor: 'm1' });
    expect(reloaded.interrupt.metadata.toolName).toBe('apply_patch');
    expect(warnings).toEqual([expect.stringContaining('#0 (id "big"): kept,')]);
  });

  it('given storage whose get throws, should still save the answer', () => {
    const storage = memoryStorage();
    const broken: InterruptHistoryPersistence = {
      get: () => {
        throw new Error('read denied');
      },
      set: storage.set,
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const history = createInterruptHistory({ persistence: broken, storageKey: KEY });
    history.record({
      threadId: 't',
      id: approval.id,
      reason: approval.reason,
      interrupt: approval,
      status: 'resolved',
      result: { approved: true },
      anchor: null,
    });
    warn.mockRestore();
    expect(JSON.parse(storage.data.get(`${KEY}:t`) ?? '[]')).toMatchObject([
      { id: approval.id, status: 'resolved', result: { approved: true } },
    ]);
  });

  it('given 10,000 stored records and maxPerThread 10, should load only the newest 10', () => {
    const storage = memoryStorage();
    storage.set(`${KEY}:t`, JSON.stringify(Array.from({ length: 10_000 }, (_, i) => stored(`r${i}`, i))));
    const records = createInterruptHistory({ persistence: storage, storageKey: KEY, maxPerThread: 10 }).getSnapshot('t');
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => `r${9_990 + i}`));
  });

  it('given a tab still sending an interrupt another tab resolved, should keep the stored answer', () => {
    const storage = memoryStorage();
    const slow = createInterruptHistory({ persistence: storage, storageKey: KEY, now: () => 1 });
    const fast = createInterruptHistory({ persistence: storage, storageKey: KEY, now: () => 2 });
    const base = { threadId: 't', id: approval.id, reason: approval.reason, interrupt: approval, anchor: null };
    slow.getSnapshot('t');
    fast.record({ ...base, status: 'resolved', result: { approved: true } });
    slow.record({ ...base, status: 'submitting', result: { approved: false } });
    const again = createInterruptHistory({ persistence: storage, storageKey: KEY }).getSnapshot('t');
    expect(again).toMatchObject([{ id: approval.id, status: 'resolved', result: { approved: true } }]);
  });
});
