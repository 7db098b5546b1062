import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage } from '@langchain/core/messages';
import { END, MessagesValue, START, StateGraph, StateSchema, interrupt } from '@langchain/langgraph';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { LangGraphAgent } from '@copilotkit/runtime/langgraph';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolApprovalCard } from '../../components/tool-approval-card/tool-approval-card';
import { normalizeInterrupts, withNormalizedInterrupts } from '../../src/runtime';
import { createInterruptRunner, type InterruptRunner } from '../../src/runner';
import { serveGraphs, type ServedGraphs } from '../../demo/server/langgraph-server';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts, sendMessage } from './harness';
import { emptyEmbeddedStore } from '../helpers/embedded-store';

// An approval is bound to the tool and arguments its card showed. A real LangGraph graph served
// in-process, CopilotKit's LangGraphAgent behind withNormalizedInterrupts() in a real CopilotRuntime
// over HTTP, and the real provider and CopilotChat: while the card is open, the request the graph
// holds changes (the node ran again elsewhere and reads other arguments). The approval of the old
// card is refused; the card shows the notice with the request as it is now, and only an answer
// given to what is shown reaches the tool.

type Args = Record<string, unknown>;
/** What the node asks to approve; it reads this each time it runs. */
let current: Args = { name: 'old-feature' };
/** What the tool ran with, and the answer that let it. */
const ran: { args: Args; answer: unknown }[] = [];

const GRAPH = 'changed';
/** 32 hex digits no interrupt has: a resume map keyed by it reaches no node, which runs again. */
const NOBODY = '0'.repeat(32);

let graphs: ServedGraphs;
let runtime: ServedRuntime;
/** The same agent behind the durable runner (an embedded store in a temporary folder). */
let durable: ServedRuntime;
let runner: InterruptRunner;
let storeDir: string;
let langGraph: LangGraphAgent;
beforeAll(async () => {
  const State = new StateSchema({ messages: MessagesValue });
  const graph = new StateGraph(State)
    .addNode('deploy', () => {
      const args = current;
      const answer = interrupt({
        reason: 'aidev:tool_approval',
        message: 'Delete this branch?',
        metadata: { toolName: 'delete_branch', args },
      });
      ran.push({ args: (answer as { editedArgs?: Args })?.editedArgs ?? args, answer });
      return { messages: [new AIMessage(`Deleted ${JSON.stringify((answer as { editedArgs?: Args })?.editedArgs ?? args)}.`)] };
    })
    .addEdge(START, 'deploy')
    .addEdge('deploy', END)
    .compile();
  graphs = await serveGraphs({ [GRAPH]: graph });
  langGraph = new LangGraphAgent({ deploymentUrl: graphs.url, graphId: GRAPH, emitInterruptOutcome: true } as never);
  runtime = await serveRuntime(new CopilotRuntime({ agents: { default: withNormalizedInterrupts(langGraph) } as never }));
  storeDir = mkdtempSync(join(tmpdir(), 'cki-changed-'));
  runner = createInterruptRunner({ dataDir: await emptyEmbeddedStore(join(storeDir, 'store')) });
  // As an app's route declares it: the agent with the middleware, the runner beside it.
  const durableAgent = new LangGraphAgent({ deploymentUrl: graphs.url, graphId: GRAPH, emitInterruptOutcome: true } as never).use(
    normalizeInterrupts(),
  );
  durable = await serveRuntime(new CopilotRuntime({ agents: { default: durableAgent } as never, runner }));
}, 120_000);
afterAll(async () => {
  await durable?.close();
  await runner?.close();
  if (storeDir) rmSync(storeDir, { recursive: true, force: true });
  await runtime?.close();
  await graphs?.close();
});

/** Elsewhere (another process, a replayed run), the node runs again and now asks about `args`. */
async function requestChangesTo(threadId: string, args: Args) {
  current = args;
  await langGraph.client.runs.wait(threadId, GRAPH, { command: { resume: { [NOBODY]: null } } });
}

function renderApp(threadId: string, runtimeUrl = runtime.url) {
  return render(
    <CopilotKitProvider runtimeUrl={runtimeUrl} showDevConsole={false}>
      <Interrupts resolveDelayMs={0} defaults={{ 'aidev:tool_approval': ToolApprovalCard }} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>,
  );
}

/** A new thread whose node first asks about `args`: the app drawn on it and a message sent. */
async function startThread(args: Args, text = 'Clean up the branches', runtimeUrl = runtime.url) {
  const threadId = randomUUID();
  current = args;
  ran.length = 0;
  const view = renderApp(threadId, runtimeUrl);
  await sendMessage(text);
  return { threadId, view };
}

/** The open approval card (the one with an Approve button) and the arguments it shows. */
async function openCard(timeout = 10_000) {
  const approve = await screen.findByTestId('approval-approve', undefined, { timeout });
  const card = approve.closest<HTMLElement>('[data-interrupt-id]')!;
  return { card, approve, args: within(card).getByTestId('approval-args').textContent ?? '' };
}

describe('an approval whose request changed before the answer arrived', () => {
  it('given an approval card drawn, when the args change before the answer arrives, the card shows the notice with the new args, and approving runs the tool with exactly those', async () => {
    const { threadId } = await startThread({ name: 'old-feature' });
    // The file's first run is the graph server's first: it starts its workers then.
    const first = await openCard(30_000);
    expect(first.args).toContain('old-feature');

    await requestChangesTo(threadId, { name: 'main', force: true });
    // As a user does: the button takes the focus, then the click.
    first.approve.focus();
    fireEvent.click(first.approve);

    // The approval of "old-feature" never reached the tool; the card shows the request as it is now.
    const notice = await screen.findByTestId('interrupt-request-changed', undefined, { timeout: 10_000 });
    expect(notice).toHaveTextContent('This request changed. Review it again.');
    expect(notice).toHaveAttribute('role', 'alert');
    await waitFor(() => expect(notice).toHaveFocus());
    const again = await openCard();
    expect(again.card).toContainElement(notice);
    expect(again.args).toContain('main');
    expect(again.args).toContain('force');
    expect(again.args).not.toContain('old-feature');
    expect(ran).toEqual([]);

    // A second change before this answer arrives: refused again, the notice again, with the newest.
    await requestChangesTo(threadId, { name: 'release/1.0' });
    fireEvent.click(again.approve);
    await waitFor(async () => expect((await openCard()).args).toContain('release/1.0'), { timeout: 10_000 });
    const third = await openCard();
    expect(within(third.card).getByTestId('interrupt-request-changed')).toHaveTextContent('This request changed. Review it again.');
    expect(ran).toEqual([]);

    fireEvent.click(third.approve);
    expect(await screen.findByText('Deleted {"name":"release/1.0"}.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(ran).toEqual([{ args: { name: 'release/1.0' }, answer: { approved: true } }]);
    expect(screen.queryByTestId('interrupt-request-changed')).toBeNull();
    // Its first wait allows 30 s for the graph server's first run (see above): the default 20 s
    // would end the test before that wait does.
  }, 60_000);

  it('given an edit of the card that showed the old arguments, should refuse it as changed, and an edit of the new ones reaches the tool exactly', async () => {
    const { threadId } = await startThread({ name: 'old-feature' });
    await openCard();

    await requestChangesTo(threadId, { name: 'main' });
    fireEvent.click(screen.getByTestId('approval-edit-open'));
    fireEvent.change(screen.getByLabelText('Arguments (JSON)'), { target: { value: '{"name": "old-feature-2"}' } });
    fireEvent.click(screen.getByTestId('approval-approve-edited'));

    const notice = await screen.findByTestId('interrupt-request-changed', undefined, { timeout: 10_000 });
    const again = await openCard();
    expect(again.card).toContainElement(notice);
    expect(again.args).toContain('main');
    expect(ran).toEqual([]);

    fireEvent.click(within(again.card).getByTestId('approval-edit-open'));
    fireEvent.change(within(again.card).getByLabelText('Arguments (JSON)'), { target: { value: '{"name": "main-old"}' } });
    fireEvent.click(within(again.card).getByTestId('approval-approve-edited'));
    expect(await screen.findByText('Deleted {"name":"main-old"}.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(ran).toEqual([{ args: { name: 'main-old' }, answer: { approved: true, editedArgs: { name: 'main-old' } } }]);
  });

  it('given any arguments, changed any number of times while the card is open, only an approval of the last ones shown reaches the tool, with exactly those', async () => {
    const value = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/), fc.integer({ min: -999, max: 999 }), fc.boolean());
    const args = fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,7}$/), value, { minKeys: 1, maxKeys: 3 });
    const sorted = (a: Args) => JSON.stringify(Object.entries(a).sort(([x], [y]) => (x < y ? -1 : 1)));
    // Each change is a change: arguments equal to the last ones (in any key order) are the same request.
    const distinct = (list: Args[]) => list.every((a, i) => i === 0 || sorted(a) !== sorted(list[i - 1]));
    await fc.assert(
      fc.asyncProperty(fc.array(args, { minLength: 2, maxLength: 3 }).filter(distinct), async ([shown, ...changes]) => {
        const { threadId, view } = await startThread(shown, 'Go');
        try {
          let card = await openCard();
          for (const next of changes) {
            await requestChangesTo(threadId, next);
            fireEvent.click(card.approve);
            await waitFor(() => expect(screen.getByTestId('approval-approve').closest('[data-interrupt-id]')).not.toBe(card.card), {
              timeout: 10_000,
            });
            card = await openCard();
            expect(within(card.card).getByTestId('interrupt-request-changed')).toBeInTheDocument();
            for (const [name, item] of Object.entries(next)) {
              expect(card.args).toContain(name);
              expect(card.args).toContain(String(item));
            }
            expect(ran).toEqual([]);
          }
          fireEvent.click(card.approve);
          await waitFor(() => expect(ran).toHaveLength(1), { timeout: 10_000 });
          expect(ran[0]).toEqual({ args: changes[changes.length - 1], answer: { approved: true } });
        } finally {
          view.unmount();
        }
      }),
      { numRuns: 3 },
    );
  }, 120_000);
});

describe('a changed request on a durable thread (createInterruptRunner)', () => {
  it('given the request changed, should record the refused answer as changed and the request as it is now as open, and approving that runs the tool once with exactly its arguments', async () => {
    const { threadId, view: first } = await startThread({ name: 'old-feature' }, 'Clean up the branches', durable.url);
    const shown = await openCard(30_000);
    await requestChangesTo(threadId, { name: 'main' });
    fireEvent.click(shown.approve);
    await screen.findByTestId('interrupt-request-changed', undefined, { timeout: 10_000 });
    expect((await openCard()).args).toContain('main');
    // The store records it: the refused answer is `changed`, the request as it is now is open.
    const rows = await runner.listInterrupts({ threadId });
    expect(rows.map((row) => row.status).sort()).toEqual(['changed', 'open']);
    expect(JSON.stringify(rows.find((row) => row.status === 'open')!.interrupt)).toContain('main');

    // The request as it is now is answered once; the store holds the refused answer as `changed`.
    const now = await openCard();
    expect(ran).toEqual([]);
    fireEvent.click(now.approve);
    expect(await screen.findByText('Deleted {"name":"main"}.', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(ran).toEqual([{ args: { name: 'main' }, answer: { approved: true } }]);
    const settled = await runner.listInterrupts({ threadId });
    expect(settled.filter((row) => row.status === 'open')).toEqual([]);
    expect(settled.filter((row) => row.status === 'resolved')).toHaveLength(1);
    expect(settled.filter((row) => row.status === 'changed')).toHaveLength(1);

    // A reload draws the thread from the store: the answer the agent received, to the request as
    // it was when answered, and nothing left open.
    first.unmount();
    renderApp(threadId, durable.url);
    await waitFor(() => expect(document.querySelectorAll('[data-interrupt-id]')).toHaveLength(1), { timeout: 10_000 });
    const [answered] = document.querySelectorAll<HTMLElement>('[data-interrupt-id]');
    expect(answered).toHaveTextContent('Approved');
    fireEvent.click(within(answered!).getByRole('button', { name: 'Details' }));
    expect(answered).toHaveTextContent('main');
    expect(answered).not.toHaveTextContent('old-feature');
    expect(screen.queryByTestId('approval-approve')).toBeNull();
  }, 60_000);
});
