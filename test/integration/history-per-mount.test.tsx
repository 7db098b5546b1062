import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { createInterruptHistory } from '../../src/history';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted } from '../helpers/scripted-agent';
import { Interrupts, sendMessage } from './harness';
import { A, B, renderers, reply } from './remount-page';

/** The hook's component creates its own history on every mount (what an app may well write). */
function HookWithOwnHistory() {
  const [history] = useState(() => createInterruptHistory());
  return <Interrupts resolveDelayMs={0} renderers={renderers} history={history} />;
}

function Page({ agent, mount }: { agent: ScriptedAgent; mount: number }) {
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <HookWithOwnHistory key={mount} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId="thread-own-history" />
      </div>
    </CopilotKitProvider>
  );
}

describe('a history created by the component that remounts', () => {
  it('given one card answered and its sibling open, when the component remounts with a new history, should still send both in one resume', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(A, B))] : reply(input, n, 'Both received.'),
    );
    const page = render(<Page agent={agent} mount={0} />);
    await sendMessage('Two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    await screen.findByTestId('a-readonly');

    page.rerender(<Page agent={agent} mount={1} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));

    expect(await screen.findByText('Both received.')).toBeInTheDocument();
    expect(agent.runs[1]!.resume).toEqual([
      { interruptId: A.id, status: 'resolved', payload: 'A' },
      { interruptId: B.id, status: 'resolved', payload: 'B' },
    ]);
    await waitFor(() => expect(screen.queryByText(/Sending/)).not.toBeInTheDocument());
    // Both answered cards stay in the transcript.
    expect(screen.getByTestId('a-readonly')).toHaveAttribute('data-status', 'resolved');
    expect(screen.getByTestId('b-readonly')).toHaveAttribute('data-status', 'resolved');
  });
});
