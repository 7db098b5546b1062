import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeInterrupts } from '../../src/runtime';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts, makeTestCard, sendMessage, transcript } from './harness';

// Issue 13, "Why" bullet 4, through the real chat: a legacy-only agent (on_interrupt CUSTOM events,
// forwardedProps.command resumes) behind CopilotRuntime over HTTP with normalizeInterrupts().
const commands: { threadId: string; command: { resume: unknown; interruptEvent: unknown } }[] = [];

class LegacyAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      const command = (input.forwardedProps as { command?: (typeof commands)[number]['command'] } | undefined)?.command;
      if (command) {
        commands.push({ threadId, command });
        const id = `reply-${runId}`;
        subscriber.next({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: `Noted for ${threadId}.` } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_END', messageId: id } as BaseEvent);
      } else {
        // Fixed ids, as in the protocol's examples: every thread raises the same two in one run.
        for (const [id, question] of [
          ['interrupt_db', `Which database for ${threadId}?`],
          ['interrupt_region', `Which region for ${threadId}?`],
        ]) {
          subscriber.next({
            type: 'CUSTOM',
            name: 'on_interrupt',
            value: JSON.stringify({ id, reason: 'acme:ask', message: question }),
          } as BaseEvent);
        }
      }
      subscriber.next({ type: 'RUN_FINISHED', threadId, runId } as BaseEvent);
      subscriber.complete();
    });
  }
}

let served: ServedRuntime;
let runtimeUrl: string;
beforeAll(async () => {
  served = await serveRuntime(new CopilotRuntime({ agents: { default: new LegacyAgent().use(normalizeInterrupts()) } as never }));
  runtimeUrl = served.url;
});
afterAll(() => served?.close());

function Chat({ threadId }: { threadId: string }) {
  return (
    <CopilotKitProvider runtimeUrl={runtimeUrl} showDevConsole={false}>
      <Interrupts resolveDelayMs={0} renderers={{ 'acme:ask': makeTestCard('ask', `answer from ${threadId}`) }} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

describe('legacy interrupts through CopilotRuntime and normalizeInterrupts(), in the real chat', () => {
  it('given two threads whose runs each raised the same two legacy interrupts, every answer reaches the agent in its own thread', async () => {
    for (const threadId of ['thread-a', 'thread-b']) {
      const view = render(<Chat threadId={threadId} />);
      await sendMessage('Set it up');
      await waitFor(() => expect(within(transcript()).getAllByTestId('ask')).toHaveLength(2), { timeout: 10_000 });
      for (const button of screen.getAllByRole('button', { name: 'Answer ask' })) fireEvent.click(button);
      expect(await screen.findByText(`Noted for ${threadId}.`, undefined, { timeout: 10_000 })).toBeInTheDocument();
      await waitFor(() => expect(screen.getAllByTestId('ask-readonly').map((c) => c.dataset.status)).toEqual(['resolved', 'resolved']));
      view.unmount();
    }

    expect(commands.map((c) => c.threadId)).toEqual(['thread-a', 'thread-b']);
    for (const { threadId, command } of commands) {
      // Both answers of the run, in one command: not only the first.
      expect(command.resume).toEqual({ interrupt_db: `answer from ${threadId}`, interrupt_region: `answer from ${threadId}` });
      // The event that travels with them is this thread's, never the other one's.
      expect(JSON.parse(command.interruptEvent as string)).toMatchObject({
        id: 'interrupt_db',
        message: `Which database for ${threadId}?`,
      });
    }
  });
});
