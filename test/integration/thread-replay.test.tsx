import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInterruptHistory } from '../../src/history';
import { normalizeInterrupts } from '../../src/runtime';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts, makeTestCard, sendMessage } from './harness';

// The thread is the record: a device that has never seen a conversation (a new browser, a phone,
// cleared storage) connects to it and draws every answered card and the set still open from the
// thread's replay alone. CopilotRuntime's runner keeps each run's events with its input.

/** Asks `count` questions ("ask-<run>-<n>") for every user message; replies to an answer with what it got. */
class AskingAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      const emit = (event: Record<string, unknown>) => subscriber.next(event as unknown as BaseEvent);
      emit({ type: 'RUN_STARTED', threadId, runId });
      const resume = (input as { resume?: { interruptId: string; status: string; payload?: unknown }[] }).resume;
      const last = input.messages[input.messages.length - 1];
      if (resume?.length) {
        const id = `reply-${runId}`;
        const said = resume.map((r) => `${r.interruptId}=${r.status === 'resolved' ? JSON.stringify(r.payload) : r.status}`).join(' ');
        emit({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' });
        emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: `Got ${said}.` });
        emit({ type: 'TEXT_MESSAGE_END', messageId: id });
        emit({ type: 'RUN_FINISHED', threadId, runId });
      } else {
        const text = typeof last?.content === 'string' ? last.content : '';
        const count = Number(/(\d+)/.exec(text)?.[1] ?? 1);
        const interrupts = Array.from({ length: count }, (_, n) => ({
          id: `ask-${runId}-${n}`,
          reason: 'acme:ask',
          message: `Question ${n + 1} of "${text}"`,
        }));
        emit({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts } });
      }
      subscriber.complete();
    });
  }
}

const agent = new AskingAgent();
let served: ServedRuntime;
beforeAll(async () => {
  served = await serveRuntime(new CopilotRuntime({ agents: { default: agent.use(normalizeInterrupts()) } as never }));
});
afterAll(() => served?.close());

/** One device: its own provider and its own (empty, in-memory) history, on a shared thread. */
function Device({ threadId }: { threadId: string }) {
  return (
    <CopilotKitProvider runtimeUrl={served.url} showDevConsole={false}>
      <Interrupts resolveDelayMs={0} history={createInterruptHistory()} renderers={{ 'acme:ask': makeTestCard('ask', 'yes') }} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

const answeredCards = () => screen.queryAllByTestId('ask-readonly');
const idOf = (card: HTMLElement) => card.closest('[data-interrupt-id]')?.getAttribute('data-interrupt-id');

describe('cards rebuilt from the thread on another device', () => {
  it('given two turns answered on one device, a new device shows each answered card once, in place, with its answer', async () => {
    const threadId = `replay-${Date.now()}`;
    render(<Device threadId={threadId} />);
    await sendMessage('Ask 2');
    for (const card of await screen.findAllByRole('button', { name: 'Answer ask' }, { timeout: 10_000 })) fireEvent.click(card);
    await screen.findByText(/^Got ask-.*-0="yes" ask-.*-1="yes"\.$/, undefined, { timeout: 10_000 });
    await sendMessage('Ask 1');
    fireEvent.click(within(await screen.findByTestId('ask', undefined, { timeout: 10_000 })).getByRole('button', { name: 'Cancel ask' }));
    await screen.findByText(/^Got ask-.*-0=cancelled\.$/, undefined, { timeout: 10_000 });
    const ids = answeredCards().map(idOf);
    expect(ids).toHaveLength(3);
    cleanup();

    render(<Device threadId={threadId} />);
    await waitFor(() => expect(answeredCards()).toHaveLength(3), { timeout: 10_000 });
    expect(answeredCards().map(idOf)).toEqual(ids);
    const statuses = answeredCards().map((card) => card.getAttribute('data-status'));
    expect(statuses).toEqual(['resolved', 'resolved', 'cancelled']);
    expect(within(answeredCards()[0]).getByTestId('ask-result')).toHaveTextContent('"yes"');
    // Each card sits after the message that was last when it appeared, before the agent's reply.
    const order = [
      ...screen.getByTestId('copilot-message-list').querySelectorAll('[data-testid="copilot-user-message"], [data-interrupt-id]'),
    ]
      .filter((el) => !el.parentElement?.closest('[data-interrupt-id]'))
      .map((el) => el.getAttribute('data-interrupt-id') ?? el.textContent?.match(/Ask \d/)?.[0]);
    expect(order).toEqual(['Ask 2', ids[0], ids[1], 'Ask 1', ids[2]]);
    expect(screen.queryByTestId('ask')).not.toBeInTheDocument();
  });

  it('given a set left open on one device, a new device shows it answerable and its answer completes the run', async () => {
    const threadId = `replay-open-${Date.now()}`;
    render(<Device threadId={threadId} />);
    await sendMessage('Ask 2');
    await screen.findAllByRole('button', { name: 'Answer ask' }, { timeout: 10_000 });
    cleanup();

    render(<Device threadId={threadId} />);
    const buttons = await screen.findAllByRole('button', { name: 'Answer ask' }, { timeout: 10_000 });
    expect(buttons).toHaveLength(2);
    buttons.forEach((button) => fireEvent.click(button));
    expect(await screen.findByText(/^Got ask-.*-0="yes" ask-.*-1="yes"\.$/, undefined, { timeout: 10_000 })).toBeInTheDocument();
  });
});
