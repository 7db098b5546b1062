import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInterruptHistory, type InterruptHistory, type InterruptHistoryPersistence } from '../../../src/history';
import { unwrapInterrupt } from '../../../src/unwrap';
import { approvalInterrupt } from '../../fixtures/interrupts';

const approval = unwrapInterrupt(approvalInterrupt);
const KEY = 'h';

const answer = (id: string) => ({
  threadId: 't',
  id,
  reason: approval.reason,
  interrupt: { ...approval, id },
  status: 'resolved' as const,
  result: { approved: true },
  anchor: null,
});

/** Console warnings of the test so far, as text. */
const warnings = () => vi.mocked(console.warn).mock.calls.map(([message]) => String(message));

/** Waits until promises rejected so far have been reported as unhandled, if nobody handled them. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.restoreAllMocks());

describe('history on a store whose writes fail', () => {
  const failures: Record<string, () => unknown> = {
    throws: () => {
      throw new Error('quota');
    },
    'returns a rejected promise': () => Promise.reject(new Error('quota')),
    'returns a thenable that rejects': () => ({ then: (_ok: unknown, fail: (error: Error) => void) => fail(new Error('quota')) }),
  };
  const writes: Record<string, (history: InterruptHistory) => () => unknown> = {
    'an answer': (history) => {
      history.record(answer('a'));
      return () => history.getSnapshot('t').map((r) => r.id);
    },
    'an always-allowed tool': (history) => {
      history.allowTool('t', 'deploy');
      return () => history.allowedTools('t');
    },
  };

  for (const [how, fail] of Object.entries(failures)) {
    for (const [what, write] of Object.entries(writes)) {
      it(`given a store whose set ${how}, when ${what} is stored, should warn once, raise no unhandled rejection and keep it in this tab`, async () => {
        vi.spyOn(console, 'warn').mockImplementation(() => {});
        const unhandled = vi.fn();
        process.on('unhandledRejection', unhandled);
        try {
          const persistence = { get: () => null, set: fail } as InterruptHistoryPersistence;
          const kept = write(createInterruptHistory({ persistence, storageKey: KEY }));
          await settle();
          expect(unhandled).not.toHaveBeenCalled();
          expect(warnings()).toEqual([expect.stringMatching(/Could not store .*thread "t"/)]);
          expect(kept()).toHaveLength(1);
        } finally {
          process.off('unhandledRejection', unhandled);
        }
      });
    }
  }
});
