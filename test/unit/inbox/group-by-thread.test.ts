// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupByThread, type PendingInterrupt } from '../../../src/inbox';

const interrupt = fc
  .record({
    threadId: fc.constantFrom('t-a', 't-b', 't-c', 't-d'),
    interruptId: fc.uuid(),
    raisedAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((date) => date.toISOString()),
  })
  .map((fields): PendingInterrupt => ({ ...fields, reason: 'acme:ask', title: null, message: null, expiresAt: null, waitingFor: 0 }));

describe('groupByThread', () => {
  it('given any open interrupts, should list each once under its thread, oldest first, the longest-waiting thread first', () => {
    fc.assert(
      fc.property(fc.array(interrupt, { maxLength: 30 }), (interrupts) => {
        const threads = groupByThread(interrupts);
        // Every interrupt once, under its own thread; no empty thread.
        expect(
          threads
            .flatMap((thread) => thread.interrupts)
            .map((item) => item.interruptId)
            .sort(),
        ).toEqual(interrupts.map((item) => item.interruptId).sort());
        expect(new Set(threads.map((thread) => thread.threadId)).size).toBe(threads.length);
        for (const thread of threads) {
          expect(thread.interrupts.length).toBeGreaterThan(0);
          expect(thread.interrupts.every((item) => item.threadId === thread.threadId)).toBe(true);
          const times = thread.interrupts.map((item) => Date.parse(item.raisedAt));
          expect(times).toEqual([...times].sort((a, b) => a - b));
          expect(Date.parse(thread.oldestRaisedAt)).toBe(Math.min(...times));
        }
        const oldest = threads.map((thread) => Date.parse(thread.oldestRaisedAt));
        expect(oldest).toEqual([...oldest].sort((a, b) => a - b));
      }),
    );
  });

  it('given interrupts raised at the same moment, should keep the order they came in (the order the run raised them)', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const make = (interruptId: string): PendingInterrupt => ({
      threadId: 't',
      interruptId,
      reason: 'r',
      title: null,
      message: null,
      raisedAt: at,
      expiresAt: null,
      waitingFor: 0,
    });
    expect(groupByThread([make('z'), make('a'), make('m')])[0]!.interrupts.map((item) => item.interruptId)).toEqual(['z', 'a', 'm']);
  });
});
