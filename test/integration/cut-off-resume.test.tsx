import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalInterrupt } from '../fixtures/interrupts';
import { ScriptedAgent, createGate, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { Interrupts, makeTestCard, sendMessage, transcript } from './harness';

// A resume run the chat stops following before it ends: CopilotChat detaches the active run when
// it unmounts or changes thread. The agent got the answer, but AG-UI's client never sees
// RUN_FINISHED, so it would keep the interrupt as pending and refuse every later message.
afterEach(() => vi.restoreAllMocks());

const renderers = { 'aidev:tool_approval': makeTestCard('approval') };

/** A chat panel the user can close and reopen, or point at another thread; the provider and the hook stay. */
function Page({ agent, open = true, threadId = 'thread-A' }: { agent: ScriptedAgent; open?: boolean; threadId?: string }) {
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <Interrupts resolveDelayMs={0} renderers={renderers} />
      {open ? (
        <div style={{ height: 600 }}>
          <CopilotChat threadId={threadId} />
        </div>
      ) : null}
    </CopilotKitProvider>
  );
}

/** Raises the approval, then holds the resume run open until `gate` opens; later runs reply. */
function agentWithSlowResume(gate: ReturnType<typeof createGate>) {
  return new ScriptedAgent((input, n) => {
    if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))];
    if (n === 1) return [runStarted(input), gate.wait, ...textMessage('r1', 'Approved, carrying on.'), runFinished(input)];
    return [runStarted(input), ...textMessage(`r${n}`, `Reply ${n} in ${input.threadId}.`), runFinished(input)];
  });
}

/** Answers the approval, then changes the page (`cut`) while the resume run streams, then lets the run end. */
async function answerAndCutOff(agent: ScriptedAgent, gate: ReturnType<typeof createGate>, cut: { open?: boolean; threadId?: string }) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const page = render(<Page agent={agent} />);
  await sendMessage('Review it');
  fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
  await waitFor(() => expect(agent.runs).toHaveLength(2));
  page.rerender(<Page agent={agent} {...cut} />);
  await act(async () => gate.open());
  return page;
}

describe('a resume run cut off before it ends', () => {
  it('given the chat closed while the resume run streams, when it is reopened, the answered card stays and the next message gets its reply', async () => {
    const gate = createGate();
    const agent = agentWithSlowResume(gate);
    const page = await answerAndCutOff(agent, gate, { open: false });
    page.rerender(<Page agent={agent} />);

    const echo = await within(transcript()).findByTestId('approval-readonly');
    await waitFor(() => expect(echo).toHaveAttribute('data-status', 'resolved'));
    expect(agent.runs[1].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'resolved', payload: { ok: true } }]);

    await sendMessage('Next');
    expect(await screen.findByText('Reply 2 in thread-A.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(3);
    expect(agent.runs[2].resume).toBeUndefined();
  });

  it('given another thread opened while the resume run streams, a message there gets its reply, and back in the first thread the card is answered', async () => {
    const gate = createGate();
    const agent = agentWithSlowResume(gate);
    const page = await answerAndCutOff(agent, gate, { threadId: 'thread-B' });

    await sendMessage('Hello B');
    expect(await screen.findByText('Reply 2 in thread-B.')).toBeInTheDocument();
    expect(agent.runs.map((run) => [run.threadId, run.resume === undefined ? 'message' : 'resume'])).toEqual([
      ['thread-A', 'message'],
      ['thread-A', 'resume'],
      ['thread-B', 'message'],
    ]);

    page.rerender(<Page agent={agent} />);
    const echo = await within(transcript()).findByTestId('approval-readonly');
    await waitFor(() => expect(echo).toHaveAttribute('data-status', 'resolved'));
  });
});
