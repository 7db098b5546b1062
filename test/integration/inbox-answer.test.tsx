import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { lastValueFrom, Observable, toArray } from 'rxjs';
import { StrictMode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PendingInterruptsList } from '../../components/pending-interrupts-list';
import type { AnyInterruptRenderer, InterruptRendererProps } from '../../hooks/renderer-props';
import { usePendingInterrupts } from '../../hooks/use-pending-interrupts';
import { createInboxHandler, createInterruptRunner, type InterruptRunner, type Person } from '../../src/runner';
import { serveFetchHandlers } from '../helpers/fetch-handler-server';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { emptyEmbeddedStore } from '../helpers/embedded-store';

// Answering from the inbox: the list opens a thread's card in place and the answer goes to the
// agent as from the chat, with no chat mounted. The real provider, CopilotRuntime served over
// HTTP, and the durable runner on its embedded store; Ana owns the threads, deploys are Dan's.

/** Every resume the agent received, by thread. */
const resumes = new Map<string, unknown[]>();

/** Asks for a deploy on a thread named `deploy-…`, for a colour on any other; replies to the answer it gets. */
class AskingAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      const emit = (event: Record<string, unknown>) => subscriber.next(event as unknown as BaseEvent);
      emit({ type: 'RUN_STARTED', threadId, runId });
      const resume = (input as { resume?: unknown[] }).resume;
      if (resume?.length) {
        resumes.set(threadId, [...(resumes.get(threadId) ?? []), resume]);
        emit({ type: 'TEXT_MESSAGE_START', messageId: `reply-${runId}`, role: 'assistant' });
        emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: `reply-${runId}`, delta: 'Thanks.' });
        emit({ type: 'TEXT_MESSAGE_END', messageId: `reply-${runId}` });
        emit({ type: 'RUN_FINISHED', threadId, runId });
      } else {
        const deploy = threadId.startsWith('deploy-');
        const interrupt = deploy
          ? { id: 'deploy', reason: 'aidev:tool_approval', message: 'Deploy the API?', metadata: { toolName: 'deploy', arguments: {} } }
          : { id: 'colour', reason: 'acme:question', message: 'Which colour?', metadata: { ticket: { title: 'Pick a colour' } } };
        emit({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts: [interrupt] } });
      }
      subscriber.complete();
    });
  }
}

const PEOPLE: Record<string, Person> = { ana: { id: 'ana', name: 'Ana' }, dan: { id: 'dan', name: 'Dan' } };
const bearer = (person: string) => ({ authorization: `Bearer ${person}` });

let dir: string;
let runner: InterruptRunner;
let runtime: ServedRuntime;
let inbox: { origin: string; close(): Promise<void> };
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cki-inbox-answer-'));
  runner = createInterruptRunner({
    dataDir: await emptyEmbeddedStore(join(dir, 'store')),
    identify: (request) => PEOPLE[/^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''] ?? null,
    approvers: ({ toolName }) => (toolName === 'deploy' ? { users: [{ id: 'dan', name: 'Dan' }] } : null),
  });
  await runner.ready();
  runtime = await serveRuntime(new CopilotRuntime({ agents: { default: new AskingAgent() } as never, runner }));
  inbox = await serveFetchHandlers({ '/api/inbox': createInboxHandler({ runner }) });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await inbox?.close();
  await runner?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Ana starts a thread (a `kind` one) whose first run stops on a request, as her chat would. */
async function raise(kind: 'question' | 'deploy'): Promise<string> {
  const threadId = `${kind}-${randomUUID()}`;
  const agent = Object.assign(new AskingAgent({ agentId: 'default', threadId }), { headers: bearer('ana') });
  const input = {
    threadId,
    runId: randomUUID(),
    messages: [{ id: `m-${threadId}`, role: 'user', content: 'Go' }],
    state: {},
    tools: [],
    context: [],
    forwardedProps: {},
  } as unknown as RunAgentInput;
  await lastValueFrom(runner.run({ threadId, agent, input }).pipe(toArray()));
  return threadId;
}

/** A card that sends its answer whatever the page was told (as a tampered browser would). */
function AnswerAnyway({ interrupt, status, error, readOnly, resolve }: InterruptRendererProps<unknown>) {
  return (
    <div data-testid="card" data-status={status} data-read-only={readOnly}>
      <p>{interrupt.message}</p>
      {error ? <p role="alert">{error}</p> : null}
      <button type="button" onClick={() => resolve({ colour: 'teal' })}>
        Send
      </button>
    </div>
  );
}
const renderers = { 'acme:question': AnswerAnyway, 'aidev:tool_approval': AnswerAnyway } as Record<string, AnyInterruptRenderer>;

/** Ana's page: the inbox list, inside her provider (on `runtimeUrl`, the runtime by default), and no chat. */
function AnasInbox({ runtimeUrl = runtime.url }: { runtimeUrl?: string }) {
  const { threads, error, loading } = usePendingInterrupts({ url: `${inbox.origin}/api/inbox`, requestInit: { headers: bearer('ana') } });
  return (
    <CopilotKitProvider runtimeUrl={runtimeUrl} headers={bearer('ana')} showDevConsole={false}>
      <PendingInterruptsList
        threads={threads}
        error={error}
        loading={loading}
        onSelect={() => undefined}
        answerInPlace={{ renderers, resolveDelayMs: 0 }}
      />
    </CopilotKitProvider>
  );
}

/** The list's row of a thread, once the inbox lists it. */
const rowOf = (threadId: string) =>
  waitFor(
    () =>
      screen
        .getAllByTestId('pending-thread')
        .find((row) => row.dataset.threadId === threadId)!
        .closest('li')!,
    { timeout: 10_000 },
  );
const listed = (threadId: string) => screen.queryAllByTestId('pending-thread').some((row) => row.dataset.threadId === threadId);

describe('answering from the inbox list, without the chat', () => {
  it('given a thread with an open question (in StrictMode), when the user answers it in the list, the agent should receive exactly that resume and the thread record say resolved', async () => {
    const threadId = await raise('question');
    render(
      <StrictMode>
        <AnasInbox />
      </StrictMode>,
    );
    const row = await rowOf(threadId);
    // The heading counts the threads waiting: this one, and any an earlier test of this file left open.
    const heading = () => screen.getByTestId('pending-interrupts').querySelector('h2')!;
    const waitingBefore = Number(/\((\d+)\)$/.exec(heading().textContent ?? '')?.[1]);
    expect(waitingBefore).toBeGreaterThanOrEqual(1);
    fireEvent.click(within(row).getByRole('button', { name: 'Answer here' }));

    const card = await within(row).findByTestId('card', undefined, { timeout: 10_000 });
    expect(card).toHaveTextContent('Which colour?');
    fireEvent.click(within(card).getByRole('button', { name: 'Send' }));

    // The server has it: the thread no longer waits, but its row stays where it was, answered, with
    // the card read-only and the answer given, until Ana closes it.
    await waitFor(() => expect(row).toHaveAttribute('data-answered', 'true'), { timeout: 10_000 });
    expect(within(row).getByTestId('pending-thread')).toHaveTextContent('answered by you');
    expect(screen.getByTestId('pending-thread-answered')).toHaveTextContent('answered by you');
    const settled = within(row).getByTestId('card');
    // The inbox hears of the answer when the runner records it; the card, when the run that carried
    // it ends: two streams, either first (a few milliseconds apart).
    await waitFor(() => expect(settled).toHaveAttribute('data-status', 'resolved'), { timeout: 10_000 });
    expect(settled).toHaveAttribute('data-read-only', 'true');
    // The answered thread no longer counts as waiting (no count at all when it was the only one).
    expect(heading()).toHaveTextContent(waitingBefore === 1 ? /^Waiting for you$/ : `Waiting for you (${waitingBefore - 1})`);
    expect(resumes.get(threadId)).toEqual([[{ interruptId: 'colour', status: 'resolved', payload: { colour: 'teal' } }]]);
    expect(await runner.listInterrupts({ threadId })).toEqual([
      expect.objectContaining({
        interruptId: 'colour',
        status: 'resolved',
        response: { colour: 'teal' },
        answeredBy: { id: 'ana', name: 'Ana' },
      }),
    ]);
    fireEvent.click(within(row).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(listed(threadId)).toBe(false));
    expect(screen.queryByTestId('pending-thread-answered')).toBeNull();
  });

  it('given the runtime refuses to read the thread, the row should say so (role alert) instead of only the console, and Check again should open the card once it can', async () => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // A gateway in front of the runtime that is down for connects until told otherwise.
    let down = true;
    const target = new URL(runtime.url);
    const forward = async (request: Request) => {
      const url = new URL(request.url);
      if (down && url.pathname.endsWith('/connect')) {
        return new Response(JSON.stringify({ error: 'The runtime is restarting.' }), {
          status: 503,
          headers: { 'content-type': 'application/json' },
        });
      }
      const headers = new Headers(request.headers);
      headers.delete('host');
      headers.delete('content-length');
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      return fetch(`${target.origin}${url.pathname}${url.search}`, { method: request.method, headers, body });
    };
    const base = '/api/copilotkit';
    const gateway = await serveFetchHandlers(
      Object.fromEntries(
        ['/info', '/agent/default/connect', '/agent/default/run', '/agent/default/stop'].map((path) => [`${base}${path}`, forward]),
      ),
    );
    try {
      const threadId = await raise('question');
      render(<AnasInbox runtimeUrl={`${gateway.origin}${base}`} />);
      const row = await rowOf(threadId);
      fireEvent.click(within(row).getByRole('button', { name: 'Answer here' }));

      const alert = await within(row).findByRole('alert', undefined, { timeout: 10_000 });
      expect(alert).toHaveTextContent(/^The request could not be opened: /);
      expect(within(row).queryByTestId('card')).toBeNull();

      down = false;
      fireEvent.click(within(alert).getByRole('button', { name: 'Check again' }));
      const card = await within(row).findByTestId('card', undefined, { timeout: 10_000 });
      expect(card).toHaveTextContent('Which colour?');
      expect(within(row).queryByRole('alert')).toBeNull();
    } finally {
      await gateway.close();
      warnings.mockRestore();
      errors.mockRestore();
    }
  });

  it('given a deploy the runner gave to Dan, when Ana sends an answer from the list anyway, the card should say it waits for Dan, the agent hear nothing and the interrupt stay open', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const threadId = await raise('deploy');
      render(<AnasInbox />);
      const row = await rowOf(threadId);
      fireEvent.click(within(row).getByRole('button', { name: 'Answer here' }));

      const card = await within(row).findByTestId('card', undefined, { timeout: 10_000 });
      expect(card).toHaveAttribute('data-read-only', 'true'); // the page was told it waits for Dan
      fireEvent.click(within(card).getByRole('button', { name: 'Send' }));

      // The card is drawn again from its record once it has an outcome (here, the refusal).
      const alert = await within(row).findByRole('alert', undefined, { timeout: 10_000 });
      expect(alert).toHaveTextContent('it waits for "Dan", not for you. The run was refused.');
      expect(resumes.get(threadId)).toBeUndefined();
      expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ interruptId: 'deploy', status: 'open' })]);
      expect(listed(threadId)).toBe(true);
    } finally {
      errors.mockRestore();
    }
  });
});
