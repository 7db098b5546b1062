import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { useState } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeInterrupts } from '../../src/runtime';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts, makeTestCard, sendMessage } from './harness';

const resumes: { threadId: string; runId: string; resume: unknown }[] = [];
const resumesIn = (...threads: string[]) => resumes.filter((r) => threads.includes(r.threadId)).map((r) => [r.threadId, r.resume]);

/**
 * A backend that asks with one fixed id on every new request (in every thread: a reused id),
 * naming the thread it asks in, and replies to an answer with the thread it reached.
 */
class FixedIdAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      const resume = (input as { resume?: { interruptId: string; payload?: unknown }[] }).resume;
      if (resume?.length) {
        resumes.push({ threadId, runId, resume });
        const id = `reply-${runId}`;
        subscriber.next({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: `Done in ${threadId}.` } as BaseEvent);
        subscriber.next({ type: 'TEXT_MESSAGE_END', messageId: id } as BaseEvent);
        subscriber.next({ type: 'RUN_FINISHED', threadId, runId } as BaseEvent);
      } else {
        // "… both" asks two things at once (a set whose answers wait for each other).
        const last = input.messages.at(-1) as { content?: unknown } | undefined;
        const ids = String(last?.content ?? '').endsWith('both') ? ['approve-deploy', 'approve-migrate'] : ['approve-deploy'];
        subscriber.next({
          type: 'RUN_FINISHED',
          threadId,
          runId,
          outcome: { type: 'interrupt', interrupts: ids.map((id) => ({ id, reason: 'acme:ask', metadata: { asked: threadId } })) },
        } as BaseEvent);
      }
      subscriber.complete();
    });
  }
}

let served: ServedRuntime;
let runtimeUrl: string;
beforeAll(async () => {
  served = await serveRuntime(new CopilotRuntime({ agents: { default: new FixedIdAgent().use(normalizeInterrupts()) } as never }));
  runtimeUrl = served.url;
});
afterAll(() => served?.close());

/** The provider and the hook stay; the chat is pointed at another thread (a sidebar of conversations). */
function Page({ threadId, hook = true, delayMs = 0 }: { threadId: string; hook?: boolean; delayMs?: number }) {
  return (
    <CopilotKitProvider runtimeUrl={runtimeUrl} showDevConsole={false}>
      {hook ? <Interrupts resolveDelayMs={delayMs} renderers={{ 'acme:ask': makeTestCard('ask', `answer in ${threadId}`) }} /> : null}
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

describe('switching threads while an interrupt is open, through CopilotRuntime', () => {
  it('given an open card in one thread, the other thread shows none of it and its messages run; back in the first, the card answers its own thread', async () => {
    const page = render(<Page threadId="thread-x" />);
    await sendMessage('Deploy');
    await screen.findByTestId('ask', undefined, { timeout: 10_000 });

    // Another conversation: the card of thread-x is not part of it, and it takes messages.
    page.rerender(<Page threadId="thread-y" />);
    await waitFor(() => expect(screen.queryByTestId('ask')).not.toBeInTheDocument());
    await sendMessage('Deploy');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer ask' }, { timeout: 10_000 }));
    expect(await screen.findByText('Done in thread-y.', undefined, { timeout: 10_000 })).toBeInTheDocument();

    // Back in thread-x: its card is still open, and its answer goes to thread-x.
    page.rerender(<Page threadId="thread-x" />);
    const back = await screen.findByTestId('ask', undefined, { timeout: 10_000 });
    fireEvent.click(within(back).getByRole('button', { name: 'Answer ask' }));
    expect(await screen.findByText('Done in thread-x.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(resumesIn('thread-x', 'thread-y')).toEqual([
      ['thread-y', [{ interruptId: 'approve-deploy', status: 'resolved', payload: 'answer in thread-y' }]],
      ['thread-x', [{ interruptId: 'approve-deploy', status: 'resolved', payload: 'answer in thread-x' }]],
    ]);
  });

  it('given one card of a set answered and waiting for its sibling, when the chat switches thread and back, the answer is kept with its thread and goes with the sibling in one resume', async () => {
    const page = render(<Page threadId="thread-p" />);
    await sendMessage('Deploy both');
    await waitFor(() => expect(screen.getAllByTestId('ask')).toHaveLength(2), { timeout: 10_000 });
    fireEvent.click(screen.getAllByRole('button', { name: 'Answer ask' })[0]);
    await waitFor(() => expect(screen.getByTestId('ask-readonly')).toHaveAttribute('data-status', 'submitting'));

    page.rerender(<Page threadId="thread-q" />);
    await waitFor(() => expect(screen.queryByTestId('ask')).not.toBeInTheDocument());

    // Back: the answer given is still there, waiting, and the sibling is open.
    page.rerender(<Page threadId="thread-p" />);
    const open = await screen.findByTestId('ask', undefined, { timeout: 10_000 });
    expect(screen.getByTestId('ask-readonly')).toHaveAttribute('data-status', 'submitting');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.click(within(open).getByRole('button', { name: 'Answer ask' }));
    expect(await screen.findByText('Done in thread-p.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(resumesIn('thread-p', 'thread-q')).toEqual([
      [
        'thread-p',
        [
          { interruptId: 'approve-deploy', status: 'resolved', payload: 'answer in thread-p' },
          { interruptId: 'approve-migrate', status: 'resolved', payload: 'answer in thread-p' },
        ],
      ],
    ]);
    await waitFor(() => expect(screen.getAllByTestId('ask-readonly').map((card) => card.dataset.status)).toEqual(['resolved', 'resolved']));
  });

  it('given an open card, when the chat changes thread while the hook is unmounted, the remounted hook follows the new thread; back in the first, the card shows again and answers its own thread', async () => {
    const page = render(<Page threadId="thread-u" />);
    await sendMessage('Deploy');
    await screen.findByTestId('ask', undefined, { timeout: 10_000 });

    page.rerender(<Page threadId="thread-u" hook={false} />);
    page.rerender(<Page threadId="thread-v" hook={false} />);
    page.rerender(<Page threadId="thread-v" />);
    // The new thread shows none of the card it left, and takes messages.
    await waitFor(() => expect(screen.queryByTestId('ask')).not.toBeInTheDocument());
    await sendMessage('Deploy');
    const inV = await screen.findByTestId('ask', undefined, { timeout: 10_000 });
    expect(within(inV).getByTestId('ask-payload')).toHaveTextContent('thread-v');
    fireEvent.click(within(inV).getByRole('button', { name: 'Answer ask' }));
    expect(await screen.findByText('Done in thread-v.', undefined, { timeout: 10_000 })).toBeInTheDocument();

    page.rerender(<Page threadId="thread-u" />);
    const back = await screen.findByTestId('ask', undefined, { timeout: 10_000 });
    expect(within(back).getByTestId('ask-payload')).toHaveTextContent('thread-u');
    fireEvent.click(within(back).getByRole('button', { name: 'Answer ask' }));
    expect(await screen.findByText('Done in thread-u.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(resumesIn('thread-u', 'thread-v')).toEqual([
      ['thread-v', [{ interruptId: 'approve-deploy', status: 'resolved', payload: 'answer in thread-v' }]],
      ['thread-u', [{ interruptId: 'approve-deploy', status: 'resolved', payload: 'answer in thread-u' }]],
    ]);
  });

  it('given an answer not yet sent when the hook unmounts and the chat changes thread meanwhile, the answer is kept with its thread (no error in the new one) and reaches it on return', async () => {
    const page = render(<Page threadId="thread-s" delayMs={300} />);
    await sendMessage('Deploy');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer ask' }, { timeout: 10_000 }));
    page.rerender(<Page threadId="thread-s" delayMs={300} hook={false} />);
    page.rerender(<Page threadId="thread-t" delayMs={300} hook={false} />);
    page.rerender(<Page threadId="thread-t" delayMs={300} />);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByTestId(/^ask/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    page.rerender(<Page threadId="thread-s" delayMs={300} />);
    expect(await screen.findByText('Done in thread-s.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(resumesIn('thread-s', 'thread-t')).toEqual([
      ['thread-s', [{ interruptId: 'approve-deploy', status: 'resolved', payload: 'answer in thread-s' }]],
    ]);
  });

  it('given cards open in two threads and the thread switched inside the chat (the hook does not re-render), each thread shows only its own card and each answer reaches its own thread', async () => {
    render(<SwitchingPage />);
    await sendMessage('Deploy');
    expect(await screen.findByTestId('ask-payload', undefined, { timeout: 10_000 })).toHaveTextContent('thread-a');

    fireEvent.click(screen.getByRole('button', { name: 'Open thread-b' }));
    await waitFor(() => expect(screen.queryByTestId('ask')).not.toBeInTheDocument());
    await sendMessage('Deploy');
    await waitFor(() => expect(screen.getByTestId('ask-payload')).toHaveTextContent('thread-b'), { timeout: 10_000 });

    fireEvent.click(screen.getByRole('button', { name: 'Open thread-a' }));
    await waitFor(() => expect(screen.getByTestId('ask-payload')).toHaveTextContent('thread-a'), { timeout: 10_000 });
    expect(screen.getAllByTestId('ask')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Answer ask' }));
    expect(await screen.findByText('Done in thread-a.', undefined, { timeout: 10_000 })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Open thread-b' }));
    await waitFor(() => expect(screen.getByTestId('ask-payload')).toHaveTextContent('thread-b'), { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Answer ask' }));
    expect(await screen.findByText('Done in thread-b.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(resumesIn('thread-a', 'thread-b')).toEqual([
      ['thread-a', [{ interruptId: 'approve-deploy', status: 'resolved', payload: 'answered' }]],
      ['thread-b', [{ interruptId: 'approve-deploy', status: 'resolved', payload: 'answered' }]],
    ]);
  });
});

/** The hook mounted once; the chat switches threads itself (a sidebar inside the chat's own component). */
function SwitchingPage() {
  return (
    <CopilotKitProvider runtimeUrl={runtimeUrl} showDevConsole={false}>
      <Interrupts resolveDelayMs={0} renderers={{ 'acme:ask': makeTestCard('ask', 'answered') }} />
      <SwitchingChat />
    </CopilotKitProvider>
  );
}

function SwitchingChat() {
  const [threadId, setThreadId] = useState('thread-a');
  return (
    <div style={{ height: 600 }}>
      {['thread-a', 'thread-b'].map((id) => (
        <button key={id} type="button" onClick={() => setThreadId(id)}>
          Open {id}
        </button>
      ))}
      <CopilotChat threadId={threadId} />
    </div>
  );
}
