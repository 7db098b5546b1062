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

/**
 * A backend that asks one question for each message starting with "ask" (a new id each time, as
 * Mastra's `<runId>::<toolCallId>`; "quick" ones expire at once), and replies to every resume with
 * what it heard. CopilotRuntime keeps every run and replays the thread when a chat connects, as
 * after a reload.
 */
class AskingAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      const say = (text: string) => {
        const id = `reply-${runId}`;
        subscriber.next({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: text } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_END', messageId: id } as BaseEvent);
      };
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      const resume = (input as { resume?: { interruptId: string; status: string }[] }).resume;
      const last = String((input.messages[input.messages.length - 1] as { content?: unknown }).content);
      let outcome: unknown;
      if (resume?.length) say(`Heard ${resume.map((r) => `${r.interruptId}=${r.status}`).join(', ')}.`);
      else if (last.includes('ask')) {
        const expiresAt = last.includes('quick') ? new Date(Date.now() + 150).toISOString() : undefined;
        outcome = { type: 'interrupt', interrupts: [{ id: `ask-${runId}`, reason: 'acme:ask', ...(expiresAt && { expiresAt }) }] };
      } else say('Heard you.');
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
      <button type="button" disabled={readOnly} onClick={() => resolve('yes')}>
        Answer
      </button>
      <button type="button" disabled={readOnly} onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}

/** The page as an app has it: the history in localStorage, the chat on a thread it restores. */
function Page({ threadId }: { threadId: string }) {
  return (
    <CopilotKitProvider runtimeUrl={served.url} showDevConsole={false}>
      <Interrupts
        resolveDelayMs={0}
        renderers={{ 'acme:ask': AskCard }}
        history={createInterruptHistory({ persistence: 'localStorage', storageKey: 'test:reload' })}
      />
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

type Ending = 'resolved' | 'cancelled' | 'dismissed' | 'expired';
const cards = () => screen.queryAllByTestId('ask');
const openCard = () => cards().find((card) => card.dataset.readonly === 'no');
const replies = () => screen.queryAllByText(/^Heard /);

/** One question, ended the way the user ends it: answer, cancel, chat on (dismiss), or let it expire and chat on. */
async function askAndEnd(n: number, ending: Ending) {
  const heard = replies().length;
  await sendMessage(ending === 'expired' ? `quick ask ${n}` : `ask ${n}`);
  await waitFor(() => expect(openCard() ?? cards().find((c) => c.dataset.status === 'expired')).toBeDefined(), { timeout: 10_000 });
  const card = openCard();
  if (ending === 'resolved') fireEvent.click(within(card!).getByRole('button', { name: 'Answer' }));
  if (ending === 'cancelled') fireEvent.click(within(card!).getByRole('button', { name: 'Cancel' }));
  if (ending === 'dismissed') await sendMessage(`something else ${n}`);
  if (ending === 'expired') {
    await waitFor(() => expect(cards().at(-1)).toHaveAttribute('data-status', 'expired'), { timeout: 5_000 });
    await sendMessage(`moving on ${n}`);
  }
  await waitFor(() => expect(replies()).toHaveLength(heard + 1), { timeout: 10_000 });
  await waitFor(() => expect(cards().at(-1)).toHaveAttribute('data-status', ending));
}

/** Where each card is: its id, its status, and the question the user asked just before it. */
function cardsInTranscript() {
  const asked = screen.getAllByTestId('copilot-user-message');
  return cards().map((card) => {
    const before = asked.filter((message) => message.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING);
    return { id: card.dataset.id, status: card.dataset.status, after: before.at(-1)?.textContent?.trim() };
  });
}

let threads = 0;

describe('a reload of a thread with answered cards, through CopilotRuntime', () => {
  it('given any number of cards answered, cancelled, dismissed or expired, should draw each card exactly once after a reload, at its question, with its status', async () => {
    const errors: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Ending>('resolved', 'cancelled', 'dismissed', 'expired'), { minLength: 2, maxLength: 4 }),
        async (endings) => {
          const threadId = `reload-${++threads}`;
          const first = render(<Page threadId={threadId} />);
          for (const [n, ending] of endings.entries()) await askAndEnd(n, ending);
          const before = cardsInTranscript();
          expect(before.map((c) => c.status)).toEqual(endings);
          expect(before.map((c) => c.after)).toEqual(endings.map((e, n) => (e === 'expired' ? `quick ask ${n}` : `ask ${n}`)));
          first.unmount();

          // The reload: a new provider, chat and history; the runtime replays the thread's runs.
          render(<Page threadId={threadId} />);
          await waitFor(() => expect(replies()).toHaveLength(endings.length), { timeout: 10_000 });
          await waitFor(() => expect(cards()).toHaveLength(endings.length));
          await act(async () => {
            await new Promise((resolve) => setTimeout(resolve, 200));
          });
          expect(cardsInTranscript()).toEqual(before);
          cleanup();
        },
      ),
      { numRuns: 5 },
    );
    expect(errors).toEqual([]);
  }, 180_000);
});
