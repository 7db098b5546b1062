import { randomUUID } from 'node:crypto';
import type { BaseEvent, RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import fc from 'fast-check';
import { StrictMode, useState } from 'react';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { usePendingInterrupts } from '../../hooks/use-pending-interrupts';
import { PendingInterruptsSource } from '../../src/inbox';
import { createInboxHandler, createInterruptRunner, type InterruptRunner } from '../../src/runner';
import { serveFetchHandlers, type FetchHandler } from '../helpers/fetch-handler-server';
import { startPostgres, type PostgresCluster } from '../helpers/postgres';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage, type RunScript } from '../helpers/scripted-agent';
import { Interrupts, makeTestCard } from './harness';

// The inbox: the threads waiting for the user, read by `usePendingInterrupts` from the inbox
// endpoint (`createInboxHandler`) served over HTTP on loopback, backed by the durable runner on a
// real PostgreSQL. A second runner instance on the same database plays another device's server.

const approval = (id: string, title: string) => ({
  id,
  reason: 'acme:pick',
  message: `Approve ${title}?`,
  metadata: { ticket: { title } },
});

/** Raises the interrupts on a thread's first run; a resume finishes with "Done.". */
const raising =
  (...interrupts: unknown[]): RunScript =>
  (input) =>
    (input as { resume?: unknown }).resume
      ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)]
      : [
          runStarted(input),
          ...textMessage(`ask-${input.runId}`, 'Needs your answer.'),
          runFinished(input, interruptOutcome(...interrupts)),
        ];

const inputFor = (threadId: string, resume?: unknown): RunAgentInput =>
  ({
    threadId,
    runId: randomUUID(),
    messages: [],
    state: {},
    tools: [],
    context: [],
    forwardedProps: {},
    ...(resume ? { resume } : {}),
  }) as RunAgentInput;

const drain = (events: import('rxjs').Observable<BaseEvent>) => lastValueFrom(events.pipe(toArray()));

let cluster: PostgresCluster;
let runner: InterruptRunner;
/** Another runtime instance on the same database: where "another device" answers. */
let elsewhere: InterruptRunner;
let runtime: ServedRuntime;
let server: { origin: string; close(): Promise<void> };
/** What `/api/flaky` answers; `undefined` passes the request to the real inbox. */
let flaky: (() => Response) | undefined;

beforeAll(async () => {
  cluster = await startPostgres();
  const url = await cluster.createDatabase('inbox');
  runner = createInterruptRunner({ url, pollIntervalMs: 20 });
  elsewhere = createInterruptRunner({ url, pollIntervalMs: 20 });
  await Promise.all([runner.ready(), elsewhere.ready()]);
  const inbox = createInboxHandler({ runner });
  const routes: Record<string, FetchHandler> = {
    '/api/inbox': inbox,
    '/api/flaky': (request) => (flaky ? Promise.resolve(flaky()) : inbox(request)),
    '/api/private': createInboxHandler({ runner, resolveUser: (request) => request.headers.get('x-user') }),
  };
  server = await serveFetchHandlers(routes);
  runtime = await serveRuntime(new CopilotRuntime({ agents: { default: new ScriptedAgent(raising()) } as never, runner }));
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await server?.close();
  await elsewhere?.close();
  await runner?.close();
  await cluster?.stop();
});

/** Raises interrupts on a new thread through the runner, as a run in the chat would. */
async function raise(...interrupts: unknown[]): Promise<string> {
  const threadId = `inbox-${randomUUID()}`;
  await drain(runner.run({ threadId, agent: new ScriptedAgent(raising(...interrupts)), input: inputFor(threadId) }));
  return threadId;
}

/** Another device answers through the other instance. */
const answerElsewhere = (threadId: string, interruptId: string) =>
  drain(
    elsewhere.run({
      threadId,
      agent: new ScriptedAgent(raising()),
      input: inputFor(threadId, [{ interruptId, status: 'resolved', payload: { approved: true } }]),
    }),
  );

/** The inbox an app would draw from the hook: one button per waiting thread. */
function Inbox({
  url,
  pollIntervalMs,
  stream,
  onOpen,
}: {
  url: string;
  pollIntervalMs?: number;
  stream?: boolean;
  onOpen?: (threadId: string) => void;
}) {
  const { threads, error, loading } = usePendingInterrupts({ url, pollIntervalMs, stream });
  return (
    <section aria-label="Waiting for you">
      {loading ? <p>Checking…</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <ul>
        {threads.map((thread) => (
          <li key={thread.threadId} data-testid={`waiting-${thread.threadId}`}>
            <button type="button" onClick={() => onOpen?.(thread.threadId)}>
              {thread.interrupts.map((interrupt) => interrupt.title ?? interrupt.reason).join(', ')}
            </button>
            <span data-testid="count">{thread.interrupts.length}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

describe('usePendingInterrupts against a served inbox on the durable runner', () => {
  it('given a thread waiting for an answer, the inbox should list it, and drop it once another device answers', async () => {
    const threadId = await raise(approval('i-deploy', 'Deploy to production'), approval('i-budget', 'Raise the budget'));
    render(<Inbox url={`${server.origin}/api/inbox`} pollIntervalMs={100} />);

    const row = await screen.findByTestId(`waiting-${threadId}`, undefined, { timeout: 10_000 });
    expect(within(row).getByRole('button')).toHaveTextContent('Deploy to production, Raise the budget');
    expect(within(row).getByTestId('count')).toHaveTextContent('2');

    await answerElsewhere(threadId, 'i-deploy');
    await waitFor(() => expect(within(screen.getByTestId(`waiting-${threadId}`)).getByTestId('count')).toHaveTextContent('1'), {
      timeout: 10_000,
    });
    await answerElsewhere(threadId, 'i-budget');
    await waitFor(() => expect(screen.queryByTestId(`waiting-${threadId}`)).not.toBeInTheDocument(), { timeout: 10_000 });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('given a long poll interval (in StrictMode), the inbox should follow the stream: a thread raised and answered elsewhere shows and goes without a focus, and no console warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      render(
        <StrictMode>
          <Inbox url={`${server.origin}/api/inbox`} pollIntervalMs={600_000} />
        </StrictMode>,
      );
      await waitFor(() => expect(screen.queryByText('Checking…')).not.toBeInTheDocument(), { timeout: 10_000 });
      const threadId = await raise(approval('i-streamed', 'Raised on another device'));
      await screen.findByTestId(`waiting-${threadId}`, undefined, { timeout: 5_000 });
      await answerElsewhere(threadId, 'i-streamed');
      await waitFor(() => expect(screen.queryByTestId(`waiting-${threadId}`)).not.toBeInTheDocument(), { timeout: 5_000 });
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('given polling only and a long poll interval (in StrictMode), the inbox should check once on mount, then again when the window regains focus or the tab becomes visible', async () => {
    render(
      <StrictMode>
        <Inbox url={`${server.origin}/api/inbox`} pollIntervalMs={60_000} stream={false} />
      </StrictMode>,
    );
    await waitFor(() => expect(screen.queryByText('Checking…')).not.toBeInTheDocument(), { timeout: 10_000 });
    const first = await raise(approval('i-late', 'Raised after the first check'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId(`waiting-${first}`)).not.toBeInTheDocument();

    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await screen.findByTestId(`waiting-${first}`, undefined, { timeout: 10_000 });

    const second = await raise(approval('i-later', 'Raised while the tab was hidden'));
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await screen.findByTestId(`waiting-${second}`, undefined, { timeout: 10_000 });
  });

  it('given the user picks a thread in the inbox, the chat should switch to it, show its open card, and the thread leave the inbox once answered there', async () => {
    const threadId = await raise(approval(`i-switch-${randomUUID()}`, 'Ship the release'));
    function Page() {
      const [chosen, setChosen] = useState<string | undefined>(undefined);
      return (
        <>
          <Inbox url={`${server.origin}/api/inbox`} pollIntervalMs={100} onOpen={setChosen} />
          <CopilotKitProvider runtimeUrl={runtime.url} showDevConsole={false}>
            <Interrupts resolveDelayMs={0} renderers={{ 'acme:pick': makeTestCard('pick', { approved: true }) }} />
            <div style={{ height: 600 }}>{chosen ? <CopilotChat key={chosen} threadId={chosen} /> : <p>Pick a conversation.</p>}</div>
          </CopilotKitProvider>
        </>
      );
    }
    render(<Page />);
    const row = await screen.findByTestId(`waiting-${threadId}`, undefined, { timeout: 10_000 });
    fireEvent.click(within(row).getByRole('button', { name: 'Ship the release' }));

    const card = await screen.findByTestId('pick', undefined, { timeout: 15_000 });
    fireEvent.click(within(card).getByRole('button', { name: 'Answer pick' }));
    await waitFor(() => expect(screen.queryByTestId(`waiting-${threadId}`)).not.toBeInTheDocument(), { timeout: 15_000 });
    expect((await runner.listInterrupts({ threadId }))[0]).toMatchObject({ status: 'resolved', response: { approved: true } });
  });

  it('given a bad answer from the endpoint, the inbox should show a clear error, warn once, keep the threads it had, and recover', async () => {
    const threadId = await raise(approval('i-kept', 'Kept through an outage'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      flaky = undefined;
      render(<Inbox url={`${server.origin}/api/flaky`} pollIntervalMs={50} stream={false} />);
      await screen.findByTestId(`waiting-${threadId}`, undefined, { timeout: 10_000 });

      flaky = () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
      const alert = await screen.findByRole('alert', undefined, { timeout: 10_000 });
      expect(alert).toHaveTextContent(`${server.origin}/api/flaky answered 502.`);
      // Several polls fail the same way: one warning, and the list the user had stays.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(warn.mock.calls.filter(([text]) => String(text).includes('/api/flaky'))).toHaveLength(1);
      expect(screen.getByTestId(`waiting-${threadId}`)).toBeInTheDocument();

      flaky = undefined;
      await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument(), { timeout: 10_000 });
      expect(screen.getByTestId(`waiting-${threadId}`)).toBeInTheDocument();
    } finally {
      flaky = undefined;
      warn.mockRestore();
    }
  });

  it('given an endpoint that refuses an unknown user, the inbox should show its reason; with the header it needs, the threads', async () => {
    const threadId = await raise(approval('i-private', 'For signed-in eyes'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const first = render(<Inbox url={`${server.origin}/api/private`} pollIntervalMs={60_000} />);
      const alert = await screen.findByRole('alert', undefined, { timeout: 10_000 });
      expect(alert).toHaveTextContent(
        `copilotkit-interrupts inbox: ${server.origin}/api/private answered 401: sign in to see the interrupts waiting for you.`,
      );
      expect(screen.queryByTestId(`waiting-${threadId}`)).not.toBeInTheDocument();
      expect(warn).toHaveBeenCalledTimes(1);
      first.unmount();

      function SignedIn() {
        const { threads } = usePendingInterrupts({ url: `${server.origin}/api/private`, requestInit: { headers: { 'x-user': 'alice' } } });
        return <p>{threads.map((thread) => thread.threadId).join(' ')}</p>;
      }
      render(<SignedIn />);
      await screen.findByText(new RegExp(threadId), undefined, { timeout: 10_000 });
    } finally {
      warn.mockRestore();
    }
  });

  it('given any answer that is not the inbox list (other JSON, text, an error status), the source should report an error and never throw', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const bad = fc.oneof(
      fc.record({ status: fc.constant(200), body: fc.jsonValue().map((value) => JSON.stringify(value)) }),
      fc.record({ status: fc.constant(200), body: fc.string().filter((text) => text.trim() !== '' && !isJson(text)) }),
      fc.record({ status: fc.integer({ min: 400, max: 599 }), body: fc.string() }),
    );
    try {
      await fc.assert(
        fc.asyncProperty(bad, async ({ status, body }) => {
          const listsInterrupts =
            status === 200 && isJson(body) && Array.isArray((JSON.parse(body) as { interrupts?: unknown })?.interrupts);
          fc.pre(!listsInterrupts);
          flaky = () => new Response(body, { status });
          const source = new PendingInterruptsSource({ url: `${server.origin}/api/flaky`, pollIntervalMs: 60_000 });
          const stop = source.subscribe(() => {});
          try {
            await source.refresh();
            const { error, loading } = source.getSnapshot();
            expect(loading).toBe(false);
            expect(error).toMatch(/^copilotkit-interrupts inbox: .*\/api\/flaky/);
          } finally {
            stop();
          }
        }),
        { numRuns: 30 },
      );
    } finally {
      flaky = undefined;
      warn.mockRestore();
    }
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
