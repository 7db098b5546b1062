import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotChat, CopilotKitProvider, useCopilotKit } from '@copilotkit/react-core/v2';
import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { interruptOutcome, playSteps, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { Interrupts, makeTestCard } from './harness';

const A = { id: 'int-a', reason: 'acme:a' };
const renderers = { 'acme:a': makeTestCard('a', 'A') };

/** A backend whose thread already went through an interrupt that was answered: connect replays both runs (as CopilotRuntime's runner does). */
class ReplayAgent extends ScriptedAgent {
  protected override connect(input: RunAgentInput) {
    const t = input.threadId;
    return playSteps([
      { type: EventType.RUN_STARTED, threadId: t, runId: 'old-1' } as BaseEvent,
      ...textMessage('m1', 'Let me ask you something.'),
      { type: EventType.RUN_FINISHED, threadId: t, runId: 'old-1', outcome: interruptOutcome(A) } as BaseEvent,
      { type: EventType.RUN_STARTED, threadId: t, runId: 'old-2' } as BaseEvent,
      ...textMessage('m2', 'Thanks, all done.'),
      { type: EventType.RUN_FINISHED, threadId: t, runId: 'old-2' } as BaseEvent,
    ]);
  }
}

/** CopilotKit's core, as the page's components see it. */
const seen: { core?: { interruptElement: unknown } } = {};
function SeeCore() {
  const { copilotkit } = useCopilotKit();
  useEffect(() => {
    seen.core = copilotkit as never;
  }, [copilotkit]);
  return null;
}

// CopilotRuntime's runner replays every stored run when a chat connects to a thread (a reload, a
// switch back): the run that stopped for the interrupt, then the run that answered it.
describe('a thread whose connect replays an answered interrupt', () => {
  it('given a stored run that stopped and one that answered it, when the chat connects, should show no open card and leave the interrupt slot empty', async () => {
    const agent = new ReplayAgent((input) => [runStarted(input), runFinished(input)]);
    render(
      <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
        <Interrupts resolveDelayMs={0} renderers={renderers} />
        <SeeCore />
        <div style={{ height: 600 }}>
          <CopilotChat threadId="thread-replayed" />
        </div>
      </CopilotKitProvider>,
    );
    expect(await screen.findByText('Thanks, all done.')).toBeInTheDocument();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 100));
    });
    // CopilotKit itself shows nothing for this thread; a non-null element disables the v1 chat's input.
    expect(seen.core?.interruptElement ?? null).toBeNull();
    expect(screen.queryByRole('button', { name: 'Answer a' })).toBeNull();
  });
});
