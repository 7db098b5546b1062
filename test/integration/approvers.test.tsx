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
import { serveRuntime, type ServedRuntime } from '../helpers/runtime-server';
import { Interrupts } from './harness';
import { emptyEmbeddedStore } from '../helpers/embedded-store';

// Two people on one thread: Ana asks for a deploy the runner gives to Dan. Ana's card waits for
// Dan, read-only; Dan's card takes his approval; Ana, back on the thread, reads who approved it.

const resumes: unknown[] = [];

/** Asks to deploy on every user message; replies to the answer it gets. */
class DeployAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      const emit = (event: Record<string, unknown>) => subscriber.next(event as unknown as BaseEvent);
      emit({ type: 'RUN_STARTED', threadId, runId });
      const resume = (input as { resume?: unknown[] }).resume;
      if (resume?.length) {
        resumes.push(resume);
        emit({ type: 'TEXT_MESSAGE_START', messageId: `reply-${runId}`, role: 'assistant' });
        emit({ type: 'TEXT_MESSAGE_CONTENT', messageId: `reply-${runId}`, delta: 'Deployed.' });
        emit({ type: 'TEXT_MESSAGE_END', messageId: `reply-${runId}` });
        emit({ type: 'RUN_FINISHED', threadId, runId });
      } else {
        const interrupt = {
          id: `deploy-${runId}`,
          reason: 'aidev:tool_approval',
          message: 'Deploy the API?',
          metadata: { toolName: 'deploy', arguments: { service: 'api' } },
        };
        emit({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts: [interrupt] } });
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
    expect(resumes).toHaveLength(1);
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
});
