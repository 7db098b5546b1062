/**
 * The hook moves to another component that mounts before the old one unmounts (a tab kept alive
 * while the next loads, a layout that moves the hook into a panel). Two hooks serve one agent for a
 * while; CopilotKit's `useInterrupt` of the one that leaves clears the provider's interrupt element,
 * and the hook that stays puts its cards back while the agent waits.
 */
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { Interrupts, makeTestCard, sendMessage, transcript } from './harness';

const A = { id: 'int-a', reason: 'acme:a' };
const B = { id: 'int-b', reason: 'acme:b' };
const renderers = { 'acme:a': makeTestCard('a', 'A'), 'acme:b': makeTestCard('b', 'B') };
const config = { resolveDelayMs: 0, renderers };

/** Phase 0: the old holder; 1: both; 2: only the new one. The chat stays. */
function Page({ agent, phase }: { agent: ScriptedAgent; phase: 0 | 1 | 2 }) {
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      {phase < 2 ? <Interrupts key="old" {...config} /> : null}
      {phase > 0 ? <Interrupts key="new" {...config} /> : null}
      <div style={{ height: 600 }}>
        <CopilotChat threadId="thread-overlap" />
      </div>
    </CopilotKitProvider>
  );
}

describe('the hook moving to a component that mounts before the old one unmounts', () => {
  it('given two open interrupts with one answered, when the new holder mounts and then the old one unmounts, should keep the answered card in the transcript and the other answerable', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(A, B))]
        : [runStarted(input), ...textMessage(`r${n}`, 'All received.'), runFinished(input)],
    );
    const view = render(<Page agent={agent} phase={0} />);
    await sendMessage('Two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    await screen.findByTestId('a-readonly');

    view.rerender(<Page agent={agent} phase={1} />);
    expect(await screen.findByTestId('b')).toBeInTheDocument();
    view.rerender(<Page agent={agent} phase={2} />);

    expect(await within(transcript()).findByTestId('a-readonly')).toHaveAttribute('data-status', 'submitting');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'int-a', status: 'resolved', payload: 'A' },
      { interruptId: 'int-b', status: 'resolved', payload: 'B' },
    ]);
    await waitFor(() => expect(within(transcript()).getAllByText('status: resolved')).toHaveLength(2));
  });
});
