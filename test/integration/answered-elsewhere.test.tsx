import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInterruptHistory } from '../../src/history';
import { createInterruptRunner, type InterruptRunner } from '../../src/runner';
import { startPostgres, type PostgresCluster } from '../helpers/postgres';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts, makeTestCard } from './harness';

// Exactly one answer per interrupt: two devices show the same open card; the first answer wins,
// the second device's is refused by the durable runner, and its card shows the answer that won.

const resumes: unknown[] = [];

/** Asks one question on every user message; replies to the answer it gets. */
class OneQuestionAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      const emit = (event: Record<string, unknown>) => subscriber.next(event as unknown as BaseEvent);
      emit({ type: 'RUN_STARTED', threadId, runId });
      const resume = (input as { resume?: unknown[] }).resume;
      if (resume?.length) {
        resumes.push(resume);
        emit({ type: 'TEXT_MESSAGE_START', messageId: `reply-${runId}`, role: 'assistant' });
        emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: `reply-${runId}`, delta: `Got ${JSON.stringify(resume)}.` });
        emit({ type: 'TEXT_MESSAGE_END', messageId: `reply-${runId}` });
        emit({ type: 'RUN_FINISHED', threadId, runId });
      } else {
        emit({
          type: 'RUN_FINISHED',
          threadId,
          runId,
          outcome: { type: 'interrupt', interrupts: [{ id: `pick-${runId}`, reason: 'acme:pick' }] },
        });
      }
      subscriber.complete();
    });
  }
}

let cluster: PostgresCluster;
let runner: InterruptRunner;
let served: ServedRuntime;
beforeAll(async () => {
  cluster = await startPostgres();
  runner = createInterruptRunner({ url: cluster.url });
  await runner.ready();
  served = await serveRuntime(new CopilotRuntime({ agents: { default: new OneQuestionAgent() } as never, runner }));
}, 120_000);
afterAll(async () => {
  await served?.close();
  await runner?.close();
  await cluster?.stop();
});

/** One device: its own provider and history, on the shared thread; its card answers `answer`. */
function Device({ threadId, answer }: { threadId: string; answer: string }) {
  return (
    <CopilotKitProvider runtimeUrl={served.url} showDevConsole={false}>
      <Interrupts resolveDelayMs={0} history={createInterruptHistory()} renderers={{ 'acme:pick': makeTestCard('pick', answer) }} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

describe('two devices answer the same card', () => {
  it('given the laptop answered first, the phone should be refused and show the answer that won, and the agent hears one answer', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const threadId = `devices-${Date.now()}`;
    // The laptop raises the card; the phone opens the same conversation and sees it open too.
    const laptop = render(<Device threadId={threadId} answer="from the laptop" />);
    const textarea = await within(laptop.container).findByTestId('copilot-chat-textarea');
    fireEvent.change(textarea, { target: { value: 'Pick one' } });
    await waitFor(() => expect(within(laptop.container).getByTestId('copilot-send-button')).not.toBeDisabled(), { timeout: 10_000 });
    fireEvent.click(within(laptop.container).getByTestId('copilot-send-button'));
    const laptopCard = await within(laptop.container).findByTestId('pick', undefined, { timeout: 10_000 });
    const phone = render(<Device threadId={threadId} answer="from the phone" />);
    const phoneCard = await within(phone.container).findByTestId('pick', undefined, { timeout: 10_000 });

    fireEvent.click(within(laptopCard).getByRole('button', { name: 'Answer pick' }));
    await within(laptop.container).findByText(/from the laptop/, { selector: 'p, div, span' }, { timeout: 10_000 });
    fireEvent.click(within(phoneCard).getByRole('button', { name: 'Answer pick' }));

    const notice = await within(phone.container).findByTestId('interrupt-answered-elsewhere', undefined, { timeout: 10_000 });
    expect(notice).toHaveTextContent('Answered on another device.');
    const settled = within(phone.container).getByTestId('pick-readonly');
    expect(settled).toHaveAttribute('data-status', 'resolved');
    expect(within(settled).getByTestId('pick-result')).toHaveTextContent('"from the laptop"');
    expect(resumes).toHaveLength(1);
    expect(JSON.stringify(resumes[0])).toContain('from the laptop');
    expect((await runner.listInterrupts({ threadId }))[0]).toMatchObject({ status: 'resolved', response: 'from the laptop' });
    errors.mockRestore();
  });
});
