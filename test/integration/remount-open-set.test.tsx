import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useInterruptRenderersWith } from '../../components/host/use-interrupt-renderers-with';
import { customEvent, interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { Interrupts, sendMessage, transcript } from './harness';
import { A, B, C, renderers, RemountPage } from './remount-page';

afterEach(() => vi.restoreAllMocks());

const three = [A, B, C];

/** Stops with `first` on the first run; every later run replies. */
const stopsThenReplies = (first: (input: Parameters<typeof runStarted>[0]) => ReturnType<typeof runStarted>[]) =>
  new ScriptedAgent((input, n) =>
    n === 0 ? first(input) : [runStarted(input), ...textMessage(`r${n}`, 'All received.'), runFinished(input)],
  );

/** The whole provider (CopilotKit's core, the hook and the chat) remounts with `providerKey`; the agent stays. */
function RemountedProvider({ agent, providerKey }: { agent: ScriptedAgent; providerKey: number }) {
  return (
    <CopilotKitProvider key={providerKey} agents__unsafe_dev_only={{ default: agent }}>
      <Interrupts resolveDelayMs={0} renderers={renderers} />
      <div style={{ height: 600 }}>
        <CopilotChat threadId="thread-remount-provider" />
      </div>
    </CopilotKitProvider>
  );
}

/** The hook's cards placed by the app (`renderInChat: false`). */
function Panel() {
  const element = useInterruptRenderersWith({ renderInChat: false, resolveDelayMs: 0 }, { renderers });
  return <aside data-testid="side-panel">{element}</aside>;
}

/** The panel remounts with `hookKey`; the chat stays. */
function SidePanel({ agent, hookKey }: { agent: ScriptedAgent; hookKey: number }) {
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <Panel key={hookKey} />
      <CopilotChat threadId="thread-remount-panel" />
    </CopilotKitProvider>
  );
}

describe('an open set across a remount of the hook', () => {
  it("given three open interrupts with one answered, when the hook's component remounts, should keep the other two answerable and send one resume with all three", async () => {
    const agent = stopsThenReplies((input) => [runStarted(input), runFinished(input, interruptOutcome(...three))]);
    const config = { resolveDelayMs: 0, renderers };
    const view = render(<RemountPage agent={agent} config={config} hookKey={0} />);
    await sendMessage('Ask me three things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    expect(await screen.findByTestId('a-readonly')).toHaveAttribute('data-status', 'submitting');

    view.rerender(<RemountPage agent={agent} config={config} hookKey={1} />);

    // The agent still waits on b and c: their cards must still be there to answer.
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Answer c' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs.map((run) => run.resume)).toEqual([
      undefined,
      [
        { interruptId: 'int-a', status: 'resolved', payload: 'A' },
        { interruptId: 'int-b', status: 'resolved', payload: 'B' },
        { interruptId: 'int-c', status: 'resolved', payload: 'C' },
      ],
    ]);
    await waitFor(() => expect(within(transcript()).getAllByText('status: resolved')).toHaveLength(3));
    // Each shown once, read-only: no card of the set is left open after the reply.
    const answerButtons = screen.getAllByRole('button', { name: /^Answer / });
    expect(answerButtons).toHaveLength(3);
    for (const button of answerButtons) expect(button).toBeDisabled();
  });

  it('given three open interrupts with one answered, when the whole provider remounts, should keep the other two answerable and send one resume with all three', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // CopilotKit's refused reconnect (see docs/hook.md)
    const agent = stopsThenReplies((input) => [runStarted(input), runFinished(input, interruptOutcome(...three))]);
    const view = render(<RemountedProvider agent={agent} providerKey={0} />);
    await sendMessage('Ask me three things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    await screen.findByTestId('a-readonly');

    view.rerender(<RemountedProvider agent={agent} providerKey={1} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Answer c' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'int-a', status: 'resolved', payload: 'A' },
      { interruptId: 'int-b', status: 'resolved', payload: 'B' },
      { interruptId: 'int-c', status: 'resolved', payload: 'C' },
    ]);
    expect(agent.runs).toHaveLength(2);
    await waitFor(() => expect(within(transcript()).getAllByText('status: resolved')).toHaveLength(3));
  });

  it('given a legacy on_interrupt event open, when the hook remounts twice, should still show one card and resume it once', async () => {
    const event = JSON.stringify({ id: 'int-legacy', reason: 'acme:b', message: 'Proceed?' });
    const agent = stopsThenReplies((input) => [runStarted(input), customEvent('on_interrupt', event), runFinished(input)]);
    const config = { resolveDelayMs: 0, renderers };
    const view = render(<RemountPage agent={agent} config={config} hookKey={0} />);
    await sendMessage('Go on');
    expect(await screen.findByTestId('b')).toBeInTheDocument();

    view.rerender(<RemountPage agent={agent} config={config} hookKey={1} />);
    view.rerender(<RemountPage agent={agent} config={config} hookKey={2} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(screen.getAllByTestId(/^b(-readonly)?$/)).toHaveLength(1);
    expect(agent.runs.map((run) => run.forwardedProps?.command)).toEqual([undefined, { resume: 'B', interruptEvent: event }]);
  });

  it('given cards placed by the app (renderInChat: false), when their panel remounts, should show them in the panel again and send the answer', async () => {
    const agent = stopsThenReplies((input) => [runStarted(input), runFinished(input, interruptOutcome(three[0], three[2]))]);
    const view = render(<SidePanel agent={agent} hookKey={0} />);
    await sendMessage('Ask me two things');
    expect(await within(screen.getByTestId('side-panel')).findByTestId('a')).toBeInTheDocument();

    view.rerender(<SidePanel agent={agent} hookKey={1} />);

    const panel = screen.getByTestId('side-panel');
    fireEvent.click(await within(panel).findByRole('button', { name: 'Answer a' }));
    fireEvent.click(within(panel).getByRole('button', { name: 'Answer c' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'int-a', status: 'resolved', payload: 'A' },
      { interruptId: 'int-c', status: 'resolved', payload: 'C' },
    ]);
    expect(within(screen.getByTestId('copilot-message-list')).queryByTestId('a')).not.toBeInTheDocument();
  });
});
