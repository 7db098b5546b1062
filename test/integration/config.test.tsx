import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultFallback, defaultRenderers } from '../../components/default-renderers';
import type { OnDemand } from '../../components/host/on-demand';
import { useInterruptRenderers } from '../../components/interrupt-renderers';
import { useInterruptRenderersWith } from '../../components/host/use-interrupt-renderers-with';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { approvalInterrupt } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { Interrupts, makeTestCard, renderChat, sendMessage } from './harness';
import { zhCN } from '../../src/i18n/locales/zh-CN';

const interruptThenReply = (interrupt: unknown, agentId = 'default') =>
  new ScriptedAgent(
    (input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(interrupt))]
        : [runStarted(input), ...textMessage(`reply-${n}`, 'Done.'), runFinished(input)],
    { agentId },
  );

describe('hook options', () => {
  it('with renderInChat: false returns the cards for the app to place', async () => {
    const agent = interruptThenReply(approvalInterrupt);
    function Outside() {
      const element = useInterruptRenderersWith(
        { renderInChat: false, resolveDelayMs: 0 },
        { renderers: { 'aidev:tool_approval': makeTestCard('approval') } },
      );
      return <aside data-testid="side-panel">{element}</aside>;
    }
    render(
      <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
        <Outside />
        <CopilotChat />
      </CopilotKitProvider>,
    );
    await sendMessage('Review it');
    const card = await within(screen.getByTestId('side-panel')).findByTestId('approval');
    expect(within(screen.getByTestId('copilot-message-list')).queryByTestId('approval')).not.toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('Done.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'resolved', payload: { ok: true } }]);
  });

  it('serves the agent named by agentId', async () => {
    const agent = interruptThenReply(approvalInterrupt, 'helper');
    function App() {
      useInterruptRenderersWith(
        { agentId: 'helper', resolveDelayMs: 0 },
        { renderers: { 'aidev:tool_approval': makeTestCard('approval') } },
      );
      return <CopilotChat agentId="helper" />;
    }
    render(
      <CopilotKitProvider agents__unsafe_dev_only={{ helper: agent }}>
        <App />
      </CopilotKitProvider>,
    );
    await sendMessage('Review it');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('Done.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'resolved'));
  });

  it('passes locale and labels to the cards', async () => {
    const agent = interruptThenReply({ id: 'u1', reason: 'acme:unknown', message: '请确认' });
    renderChat({ agent, config: { ...zhCN, labels: { ...zhCN.labels, fallbackDismiss: '不用了' } } });
    await sendMessage('你好');
    const card = await screen.findByTestId('interrupt-builtin-fallback');
    expect(within(card).getByRole('button', { name: '继续' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: '不用了' })).toBeInTheDocument();
  });

  it('expires a card that is on screen when its expiresAt passes', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // expiresAt is set when the run happens, so the card is on screen, open, before it passes.
    const agent = new ScriptedAgent((input) => [
      runStarted(input),
      runFinished(input, interruptOutcome({ ...approvalInterrupt, expiresAt: new Date(Date.now() + 2500).toISOString() })),
    ]);
    renderChat({ agent, config: { renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('Review it');
    expect(await screen.findByTestId('approval')).toHaveAttribute('data-status', 'pending');
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'expired'), { timeout: 8000 });
    expect(agent.runs).toHaveLength(1);
    vi.restoreAllMocks();
  });

  it("keeps the app's own custom message renderer working next to the echo", async () => {
    const agent = interruptThenReply(approvalInterrupt);
    function Stamp({ message, position }: { message: { id: string; role: string }; position: string }) {
      return position === 'after' && message.role === 'user' ? <small data-testid="app-stamp">sent</small> : null;
    }
    const customRenderers = [{ render: Stamp }];
    render(
      <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }} renderCustomMessages={customRenderers}>
        <Interrupts resolveDelayMs={0} renderers={{ 'aidev:tool_approval': makeTestCard('approval') }} />
        <CopilotChat />
      </CopilotKitProvider>,
    );
    await sendMessage('Review it');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('Done.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'resolved'));
    expect(screen.getByTestId('app-stamp')).toBeInTheDocument();
  });

  it('anchors the echo after the assistant text the interrupt followed', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [
            runStarted(input),
            ...textMessage('pre-1', 'Let me check with you first.'),
            runFinished(input, interruptOutcome(approvalInterrupt)),
          ]
        : [runStarted(input), ...textMessage(`reply-${n}`, 'Done.'), runFinished(input)],
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('Review it');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    const done = await screen.findByText('Done.');
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'resolved'));
    const echo = screen.getByTestId('approval-readonly');
    const pre = screen.getByText('Let me check with you first.');
    expect(pre.compareDocumentPosition(echo) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(echo.compareDocumentPosition(done) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('the built-in cards the hook fetches', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A spy on the fetch of each built-in card's code (the fetch itself still happens). */
  function watchFetches() {
    const watch = (card: unknown) => vi.spyOn(card as OnDemand<InterruptRendererProps>, 'preload');
    return {
      approval: watch(defaultRenderers['aidev:tool_approval']),
      question: watch(defaultRenderers['aidev:user_question']),
      picker: watch(defaultRenderers['tool:schedule_meeting']),
      fallback: watch(defaultFallback),
    };
  }

  function chatWith(options: Parameters<typeof useInterruptRenderers>[0]) {
    function App() {
      const [renders, setRenders] = useState(1);
      // Inline options, as apps write them: new objects on every render.
      useInterruptRenderers({ ...options, renderers: options?.renderers && { ...options.renderers } });
      return (
        <>
          <button type="button" onClick={() => setRenders(renders + 1)}>
            Rendered {renders} times
          </button>
          <CopilotChat />
        </>
      );
    }
    const agent = interruptThenReply(approvalInterrupt);
    return render(
      <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
        <App />
      </CopilotKitProvider>,
    );
  }

  it('given an app that replaces every card and the fallback, when the chat mounts, should fetch none of them', async () => {
    const fetches = watchFetches();
    chatWith({
      renderers: {
        'aidev:tool_approval': makeTestCard('approval'),
        'aidev:user_question': makeTestCard('question'),
        'tool:schedule_meeting': makeTestCard('picker'),
      },
      fallback: makeTestCard('fallback'),
    });
    expect(await screen.findByRole('textbox')).toBeInTheDocument();
    for (const fetch of Object.values(fetches)) expect(fetch).not.toHaveBeenCalled();
  });

  it('given an app that replaces the time picker, should fetch the other cards and the fallback once, however often it renders', async () => {
    const fetches = watchFetches();
    chatWith({ renderers: { 'tool:schedule_meeting': makeTestCard('picker') } });
    expect(await screen.findByRole('textbox')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Rendered 1 times' }));
    fireEvent.click(screen.getByRole('button', { name: 'Rendered 2 times' }));
    expect(screen.getByRole('button', { name: 'Rendered 3 times' })).toBeInTheDocument();
    expect(fetches.picker).not.toHaveBeenCalled();
    expect(fetches.approval).toHaveBeenCalledTimes(1);
    expect(fetches.question).toHaveBeenCalledTimes(1);
    expect(fetches.fallback).toHaveBeenCalledTimes(1);
  });
});
