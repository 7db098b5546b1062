import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ToolApprovalCard } from '../../components/tool-approval-card/tool-approval-card';
import type { AnyInterruptRenderer } from '../../hooks/renderer-props';
import { createInterruptHistory } from '../../src/history';
import { createInterruptRunner, type InterruptRunner, type Person } from '../../src/runner';
import { clientAs, eventsOf } from '../helpers/runtime-client';
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts } from './harness';
import { emptyEmbeddedStore } from '../helpers/embedded-store';

// Two people on one thread: Ana asks for a deploy the runner gives to Dan. Ana's card waits for
// Dan, read-only; Dan's card takes his approval; Ana, back on the thread, reads who approved it.

/** What the agent heard, by thread: each test reads its own thread's, whatever ran before it. */
const resumes: { threadId: string; resume: unknown[] }[] = [];
const resumesIn = (threadId: string) => resumes.filter((r) => r.threadId === threadId).map((r) => r.resume);

/** Asks to deploy on every user message; replies to the answer it gets. */
class DeployAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      const emit = (event: Record<string, unknown>) => subscriber.next(event as unknown as BaseEvent);
      emit({ type: 'RUN_STARTED', threadId, runId });
      const resume = (input as { resume?: unknown[] }).resume;
      if (resume?.length) {
        resumes.push({ threadId, resume });
        emit({ type: 'TEXT_MESSAGE_START', messageId: `reply-${runId}`, role: 'assistant' });
        emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: `reply-${runId}`, delta: 'Deployed.' });
        emit({ type: 'TEXT_MESSAGE_END', messageId: `reply-${runId}` });
        emit({ type: 'RUN_FINISHED', threadId, runId });
      } else {
        const interrupts = [
          {
            id: `deploy-${runId}`,
            reason: 'aidev:tool_approval',
            message: 'Deploy the API?',
            metadata: { toolName: 'deploy', arguments: { service: 'api' } },
          },
        ];
        // "… and notify": a second approval in the same stop, the thread owner's to answer.
        const asked = JSON.stringify(input.messages.at(-1)?.content ?? '');
        if (asked.includes('notify'))
          interrupts.push({
            id: `notify-${runId}`,
            reason: 'aidev:tool_approval',
            message: 'Notify the team?',
            metadata: { toolName: 'notify', arguments: { service: 'team' } },
          });
        emit({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts } });
      }
      subscriber.complete();
    });
  }
}

const PEOPLE: Record<string, Person> = { ana: { id: 'ana', name: 'Ana' }, dan: { id: 'dan', name: 'Dan' } };

let dir: string;
let runner: InterruptRunner;
let served: ServedRuntime;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cki-approvers-chat-'));
  runner = createInterruptRunner({
    dataDir: await emptyEmbeddedStore(join(dir, 'store')),
    identify: (request) => PEOPLE[/^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''] ?? null,
    approvers: ({ toolName }) => (toolName === 'deploy' ? { users: [{ id: 'dan', name: 'Dan' }] } : null),
  });
  await runner.ready();
  served = await serveRuntime(new CopilotRuntime({ agents: { default: new DeployAgent() } as never, runner }));
}, 120_000);
afterAll(async () => {
  await served?.close();
  await runner?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One person's browser: their provider (a bearer token names them) and history, on the shared thread. */
function Browser({ threadId, person }: { threadId: string; person: string }) {
  return (
    <CopilotKitProvider runtimeUrl={served.url} headers={{ authorization: `Bearer ${person}` }} showDevConsole={false}>
      <Interrupts
        resolveDelayMs={0}
        history={createInterruptHistory()}
        defaults={{ 'aidev:tool_approval': ToolApprovalCard as AnyInterruptRenderer }}
      />
      <div style={{ height: 600 }}>
        <CopilotChat threadId={threadId} />
      </div>
    </CopilotKitProvider>
  );
}

describe('an approval the runner gives to someone else', () => {
  it('given a deploy assigned to Dan, Ana should see it wait for Dan, Dan should approve it, and Ana should read who approved it', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const threadId = `approvers-${Date.now()}`;
    const ana = render(<Browser threadId={threadId} person="ana" />);
    const textarea = await within(ana.container).findByTestId('copilot-chat-textarea');
    fireEvent.change(textarea, { target: { value: 'Deploy the API' } });
    await waitFor(() => expect(within(ana.container).getByTestId('copilot-send-button')).not.toBeDisabled(), { timeout: 10_000 });
    fireEvent.click(within(ana.container).getByTestId('copilot-send-button'));

    // Ana reads the request, waiting for Dan; she cannot approve it.
    const waiting = await within(ana.container).findByTestId('interrupt-waiting-for', undefined, { timeout: 10_000 });
    expect(waiting).toHaveTextContent('Waiting for Dan');
    expect(within(ana.container).getByTestId('approval-approve')).toBeDisabled();
    ana.unmount();

    // Dan opens the thread (it is not his): his card takes his approval, and the agent hears it once.
    const dan = render(<Browser threadId={threadId} person="dan" />);
    const approve = await within(dan.container).findByTestId('approval-approve', undefined, { timeout: 10_000 });
    expect(within(dan.container).queryByTestId('interrupt-waiting-for')).toBeNull();
    fireEvent.click(approve);
    await within(dan.container).findByText('Deployed.', undefined, { timeout: 10_000 });
    expect(resumesIn(threadId)).toHaveLength(1);
    expect(within(dan.container).queryByTestId('interrupt-answered-by')).toBeNull(); // he answered it himself
    dan.unmount();

    // Ana comes back to the thread: her card says Dan approved it, and when.
    const back = render(<Browser threadId={threadId} person="ana" />);
    const by = await within(back.container).findByTestId('interrupt-answered-by', undefined, { timeout: 10_000 });
    expect(by.textContent).toMatch(/^Approved by Dan · \d/);
    expect((await runner.listInterrupts({ threadId }))[0]).toMatchObject({ status: 'resolved', answeredBy: { id: 'dan', name: 'Dan' } });
    back.unmount();
    errors.mockRestore();
  });

  it('given Ana keeps her card open while Dan approves elsewhere, Ana should read only "Approved by Dan" once she comes back, not "another device" too', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const threadId = `approvers-away-${Date.now()}`;
    const ana = render(<Browser threadId={threadId} person="ana" />);
    const textarea = await within(ana.container).findByTestId('copilot-chat-textarea');
    fireEvent.change(textarea, { target: { value: 'Deploy the API' } });
    await waitFor(() => expect(within(ana.container).getByTestId('copilot-send-button')).not.toBeDisabled(), { timeout: 10_000 });
    fireEvent.click(within(ana.container).getByTestId('copilot-send-button'));
    await within(ana.container).findByTestId('interrupt-waiting-for', undefined, { timeout: 10_000 });
    const [open] = await runner.listInterrupts({ threadId, status: 'open' });

    // Dan approves from his own client while Ana's page stays open on the thread.
    const events = await eventsOf(clientAs(served.url, threadId, 'dan', 'run'), {
      resume: [{ interruptId: open!.interruptId, status: 'resolved', payload: { approved: true } }],
    });
    expect(events.map((event) => event.type)).toContain('RUN_FINISHED');

    // Ana's window regains focus: the chat reads the thread again.
    window.dispatchEvent(new Event('focus'));
    const by = await within(ana.container).findByTestId('interrupt-answered-by', undefined, { timeout: 10_000 });
    expect(by.textContent).toMatch(/^Approved by Dan · \d/);
    // One attribution: the card names who answered, so it does not also say "another device".
    expect(within(ana.container).queryByTestId('interrupt-answered-elsewhere')).toBeNull();
    expect(within(ana.container).queryByText(/another device/)).toBeNull();
    // Its live region says who answered, not just the outcome.
    const frame = by.closest('[data-phase]');
    expect(frame?.querySelector('[aria-live]')?.textContent).toMatch(/Approved by Dan/);
    ana.unmount();
    errors.mockRestore();
  });

  /** Ana sends `text` on her thread and waits for the deploy card to wait for Dan. */
  async function askAsAna(threadId: string, text: string) {
    const ana = render(<Browser threadId={threadId} person="ana" />);
    const textarea = await within(ana.container).findByTestId('copilot-chat-textarea');
    fireEvent.change(textarea, { target: { value: text } });
    await waitFor(() => expect(within(ana.container).getByTestId('copilot-send-button')).not.toBeDisabled(), { timeout: 10_000 });
    fireEvent.click(within(ana.container).getByTestId('copilot-send-button'));
    await within(ana.container).findByTestId('interrupt-waiting-for', undefined, { timeout: 10_000 });
    return ana;
  }

  /** The runs the browser asks the runtime for from now on (each a POST to the agent's run endpoint). */
  function watchRuns() {
    const fetching = vi.spyOn(globalThis, 'fetch');
    return {
      count: () => fetching.mock.calls.filter(([url]) => String(url instanceof Request ? url.url : url).includes('/run')).length,
      stop: () => fetching.mockRestore(),
    };
  }

  it('given a card waiting for Dan, when Ana chats, the card should stay open and waiting, say her message waits, and nothing should be sent or refused', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const threadId = `approvers-chat-${Date.now()}`;
    const ana = await askAsAna(threadId, 'Deploy the API');
    const runs = watchRuns();

    const textarea = within(ana.container).getByTestId('copilot-chat-textarea');
    fireEvent.change(textarea, { target: { value: 'Any news?' } });
    await waitFor(() => expect(within(ana.container).getByTestId('copilot-send-button')).not.toBeDisabled(), { timeout: 10_000 });
    fireEvent.click(within(ana.container).getByTestId('copilot-send-button'));

    const notice = await within(ana.container).findByTestId('interrupt-answer-first', undefined, { timeout: 10_000 });
    expect(notice).toHaveAttribute('role', 'alert');
    expect(notice).toHaveTextContent('Your message was not sent: the agent takes no message until this request is answered.');
    // The card is still the open request, read-only, waiting for Dan; not dismissed.
    expect(within(ana.container).getByTestId('interrupt-waiting-for')).toHaveTextContent('Waiting for Dan');
    expect(ana.container.querySelector('[data-interrupt-status]')).toHaveAttribute('data-interrupt-status', 'pending');
    expect(within(ana.container).queryByText('Dismissed')).toBeNull();
    // Nothing went to the runtime, so nothing was refused; the interrupt is open for Dan.
    expect(runs.count()).toBe(0);
    expect((await runner.listInterrupts({ threadId }))[0]).toMatchObject({ status: 'open', answeredBy: null });
    expect(errors).not.toHaveBeenCalled();
    runs.stop();
    ana.unmount();
    errors.mockRestore();
  });

  it('given a set where one card waits for Dan, when Ana answers hers, it should say it waits for Dan before it goes to the agent, and send nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const threadId = `approvers-set-${Date.now()}`;
    const ana = await askAsAna(threadId, 'Deploy the API and notify the team');
    const runs = watchRuns();

    // Her own card (notify) takes her approval; Dan's (deploy) stays read-only.
    const approve = within(ana.container)
      .getAllByTestId('approval-approve')
      .find((button) => !button.matches(':disabled'))!;
    fireEvent.click(approve);

    const held = await within(ana.container).findByTestId('interrupt-answer-held', undefined, { timeout: 10_000 });
    expect(held).toHaveAttribute('role', 'status');
    expect(held).toHaveTextContent('Not sent yet: the agent takes the answers of this set together, and one request waits for Dan.');
    expect(within(ana.container).queryByText('Sending…')).toBeNull();
    expect(within(ana.container).getByTestId('interrupt-waiting-for')).toHaveTextContent('Waiting for Dan');
    // Kept in her page: nothing went out, the agent heard nothing, both rows are open.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs.count()).toBe(0);
    expect(resumesIn(threadId)).toEqual([]);
    const rows = await runner.listInterrupts({ threadId });
    expect(rows.map((row) => row.status)).toEqual(['open', 'open']);
    expect(errors).not.toHaveBeenCalled();
    runs.stop();
    ana.unmount();
    errors.mockRestore();
  });
});
