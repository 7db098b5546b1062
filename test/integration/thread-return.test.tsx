import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import fc from 'fast-check';
import { Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { normalizeInterrupts } from '../../src/runtime';
import { createInterruptHistory } from '../../src/history';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts, sendMessage } from './harness';

// Returning to a thread by any road (the chat's `threadId` changes, the page reloads) replays the
// thread's runs: each card the thread holds is drawn once, under the id it had, and the history
// in localStorage keeps one record per card. Checked on arbitrary sequences of questions,
// answers, thread switches and reloads, through the real chat and a real CopilotRuntime.

/**
 * Asks one question per message: "ask" with a new id each time (as Mastra's), "fixed" with one id
 * it reuses in every run (as an agent with a constant interrupt id). Replies to a resume with what
 * it heard; CopilotRuntime keeps every run and replays the thread when the chat connects.
 */
class AskingAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      const resume = (input as { resume?: { interruptId: string; status: string }[] }).resume;
      const last = String((input.messages[input.messages.length - 1] as { content?: unknown }).content);
      let outcome: unknown;
      if (resume?.length) {
        const id = `reply-${runId}`;
        subscriber.next({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: `Heard ${resume[0].status}.` } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_END', messageId: id } as BaseEvent);
      } else {
        const id = last.startsWith('fixed') ? 'fixed' : `ask-${runId}`;
        outcome = { type: 'interrupt', interrupts: [{ id, reason: 'acme:ask', message: last }] };
      }
      subscriber.next({ type: 'RUN_FINISHED', threadId, runId, ...(outcome ? { outcome } : {}) } as BaseEvent);
      subscriber.complete();
    });
  }
}

let served: ServedRuntime;
beforeAll(async () => {
  served = await serveRuntime(new CopilotRuntime({ agents: { default: new AskingAgent().use(normalizeInterrupts()) } as never }));
});
afterAll(() => served?.close());
afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

function AskCard({ interrupt, status, resolve, cancel, readOnly }: InterruptRendererProps<any>) {
  return (
    <div data-testid="ask" data-id={interrupt.id} data-status={status} data-readonly={readOnly ? 'yes' : 'no'}>
      <span data-testid="ask-question">{interrupt.message}</span>
      <button type="button" disabled={readOnly} onClick={() => resolve('yes')}>
        Answer
      </button>
      <button type="button" disabled={readOnly} onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}

const STORAGE = 'test:return';

/** The page as an app has it: one provider, the history in localStorage, the chat on the thread the app picks. */
function Page({ threadId, history }: { threadId: string; history: ReturnType<typeof createInterruptHistory> }) {
  return (
    <CopilotKitProvider runtimeUrl={served.url} showDevConsole={false}>
      <Interrupts resolveDelayMs={0} renderers={{ 'acme:ask': AskCard }} history={history} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

type Step =
  { type: 'ask'; fixed: boolean } | { type: 'answer'; how: 'resolved' | 'cancelled' } | { type: 'switch'; to: number } | { type: 'reload' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ type: fc.constant('ask' as const), fixed: fc.boolean() }),
  fc.record({ type: fc.constant('answer' as const), how: fc.constantFrom<'resolved' | 'cancelled'>('resolved', 'cancelled') }),
  fc.record({ type: fc.constant('switch' as const), to: fc.nat(2) }),
  fc.record({ type: fc.constant('reload' as const) }),
);

const cards = () => screen.queryAllByTestId('ask');
const replies = () => screen.queryAllByText(/^Heard /);
const drawn = () =>
  cards().map((card) => ({
    id: card.dataset.id,
    status: card.dataset.status,
    question: within(card).getByTestId('ask-question').textContent,
  }));
const stored = (threadId: string): Array<{ id: string; status: string }> =>
  JSON.parse(localStorage.getItem(`${STORAGE}:${threadId}`) ?? '[]');

/** What the user expects to see in one thread: its questions in order, with how each ended. */
type Expected = Array<{ question: string; status: 'pending' | 'resolved' | 'cancelled' }>;

let runs = 0;

describe('returning to a thread, through CopilotRuntime', () => {
  it('given any sequence of questions, answers, thread switches and reloads, each card of the shown thread is drawn once, and its history stores each answered card once, under the id it is drawn with', async () => {
    const errors: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 4, maxLength: 10 }), async (steps) => {
        // A run that failed left its page mounted: each run starts on an empty screen.
        cleanup();
        const run = ++runs;
        const threads = [0, 1, 2].map((n) => `return-${run}-${n}`);
        const expected = new Map<string, Expected>(threads.map((t) => [t, []]));
        let shown = threads[0];
        let asked = 0;
        const newHistory = () => createInterruptHistory({ persistence: 'localStorage', storageKey: STORAGE });
        let history = newHistory();
        let page = render(<Page threadId={shown} history={history} />);

        /** The shown thread is drawn as expected: each card once, in order, with its status; the cache agrees. */
        const settle = async ({ cache = true } = {}) => {
          const want = expected.get(shown)!;
          const answered = want.filter((c) => c.status !== 'pending').length;
          await waitFor(() => expect(replies()).toHaveLength(answered), { timeout: 10_000 });
          await waitFor(() => expect(drawn().map(({ question, status }) => ({ question, status }))).toEqual(want), { timeout: 10_000 });
          // A copy would come with the replay's last events: give them a moment to show.
          await act(async () => {
            await new Promise((resolve) => setTimeout(resolve, 150));
          });
          const now = drawn();
          expect(now.map(({ question, status }) => ({ question, status }))).toEqual(want);
          expect(new Set(now.map((c) => c.id)).size).toBe(now.length);
          if (!cache) return;
          // The history stores what is drawn settled: the same ids, each once.
          const records = stored(shown);
          expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
          expect(records.map((r) => r.id).sort()).toEqual(
            now
              .filter((c) => c.status !== 'pending')
              .map((c) => c.id)
              .sort(),
          );
        };

        for (const step of steps) {
          const want = expected.get(shown)!;
          const open = want.find((c) => c.status === 'pending');
          if (step.type === 'ask' && !open) {
            const question = `${step.fixed ? 'fixed' : 'ask'} ${++asked}`;
            await sendMessage(question);
            want.push({ question, status: 'pending' });
          } else if (step.type === 'answer' && open) {
            const card = cards().find((c) => c.dataset.readonly === 'no')!;
            fireEvent.click(within(card).getByRole('button', { name: step.how === 'resolved' ? 'Answer' : 'Cancel' }));
            open.status = step.how;
          } else if (step.type === 'switch') {
            shown = threads[step.to];
            page.rerender(<Page threadId={shown} history={history} />);
          } else if (step.type === 'reload') {
            page.unmount();
            history = newHistory();
            page = render(<Page threadId={shown} history={history} />);
          }
          await settle();
        }
        // A device with no cache draws the same cards from the thread's replay alone.
        const cached = drawn();
        page.unmount();
        render(<Page threadId={shown} history={createInterruptHistory()} />);
        await settle({ cache: false });
        expect(drawn()).toEqual(cached);
        cleanup();
      }),
      {
        numRuns: 6,
        // The road of issue 37 always runs: answered cards and an open one, away and back, then a reload.
        examples: [
          [
            [
              { type: 'ask', fixed: false },
              { type: 'answer', how: 'resolved' },
              { type: 'ask', fixed: true },
              { type: 'answer', how: 'cancelled' },
              { type: 'ask', fixed: false },
              { type: 'switch', to: 1 },
              { type: 'ask', fixed: true },
              { type: 'switch', to: 0 },
              { type: 'reload' },
            ],
          ],
        ],
      },
    );
    expect(errors).toEqual([]);
  }, 300_000);
});
