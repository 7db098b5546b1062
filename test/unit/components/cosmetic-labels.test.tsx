import { cleanup, render, screen, within } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PendingInterruptsList } from '../../../components/pending-interrupts-list';
import { UserQuestionCard } from '../../../components/user-question-card/user-question-card';
import type { PendingThread } from '../../../src/inbox';
import { unwrapInterrupt } from '../../../src/unwrap';
import { questionInterrupt, questions } from '../../../stories/support/fixtures';

afterEach(cleanup);

const pending = (qs: unknown[]) => ({
  interrupt: unwrapInterrupt(questionInterrupt(qs)),
  status: 'pending' as const,
  readOnly: false,
  locale: 'en',
  resolve: vi.fn(),
  cancel: vi.fn(),
  retry: vi.fn(),
});

describe('the question card pager', () => {
  it('given any number of questions, when the card is open, should show "‹ n / total ›" only when there are two or more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), (count) => {
        const qs = Array.from({ length: count }, (_, i) => ({ ...questions[i % questions.length], question: `Question ${i + 1}?` }));
        render(<UserQuestionCard {...pending(qs)} />);
        const card = screen.getByTestId('user-question-card');
        const pager = [within(card).queryByTestId('user-question-prev'), within(card).queryByTestId('user-question-next')];
        if (count === 1) {
          expect(pager).toEqual([null, null]);
          expect(card).not.toHaveTextContent(/1\s*\/\s*1/);
        } else {
          expect(pager.every((button) => button !== null)).toBe(true);
          expect(card).toHaveTextContent(`1 / ${count}`);
        }
        cleanup();
      }),
      { examples: [[1], [2]] },
    );
  });
});

describe('the inbox list', () => {
  const thread = (reason: string): PendingThread => ({
    threadId: `t-${reason}`,
    oldestRaisedAt: '2026-06-01T11:00:00Z',
    interrupts: [
      {
        threadId: `t-${reason}`,
        interruptId: 'i',
        reason,
        title: 'Intro call',
        message: null,
        raisedAt: '2026-06-01T11:00:00Z',
        expiresAt: null,
        waitingFor: 60_000,
      } as PendingThread['interrupts'][number],
    ],
  });

  it('given a thread that waits on a request of any reason, when listed, should never label it "Your answer" (nothing is answered yet); one of no known kind reads "Request"', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('mastra:tool_suspend', 'time_picker', 'langgraph:interrupt', 'toString', '__proto__'), fc.string()),
        (reason) => {
          render(<PendingInterruptsList threads={[thread(reason)]} onSelect={() => {}} />);
          try {
            const row = screen.getByTestId('pending-thread');
            expect(row).not.toHaveTextContent(/your answer/i);
            if (!['aidev:tool_approval', 'aidev:user_question'].includes(reason))
              expect(row.querySelector('.cki-inbox__kind')).toHaveTextContent(/^Request$/);
          } finally {
            // Each run draws on a clean page, so a failing value is reported as itself.
            cleanup();
          }
        },
      ),
    );
  });
});
