import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { LastResortCard } from '../../components/host/last-resort-card';
import { FallbackInterruptCard } from '../../components/fallback-interrupt-card/fallback-interrupt-card';
import { approvalInterrupt, slots } from '../fixtures/interrupts';
import {
  ScriptedAgent,
  createGate,
  customEvent,
  interruptOutcome,
  runError,
  runFinished,
  runStarted,
  textMessage,
  type ScriptStep,
} from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';
import { setInterruptsDebug } from '../../src';

type Input = Parameters<typeof runStarted>[0];
const reply = (input: Input, n: number, text = 'Carrying on.'): ScriptStep[] => [
  runStarted(input),
  ...textMessage(`reply-${n}`, text),
  runFinished(input),
];

/**
 * A resolve delay long enough for the user to send a chat message between answering a card and
 * the answer going out (the window in which CopilotKit may drop the interrupt). Generous, so a
 * loaded CI machine still sends the chat message inside it.
 */
const SEND_DELAY_MS = 3000;

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('failure paths', () => {
  it('renders an unknown reason with the fallback renderer, which can still answer', async () => {
    const unknown = {
      id: 'int-unknown',
      reason: 'acme:sign_contract',
      toolCallId: 'tc-1',
      message: 'Sign the contract?',
      metadata: { contract: 'NDA' },
    };
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(unknown))] : reply(input, n),
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('Contract please');
    const card = await screen.findByTestId('interrupt-builtin-fallback');
    expect(within(card).getByText('Sign the contract?')).toBeInTheDocument();
    expect(within(card).getByText('acme:sign_contract')).toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Carrying on.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-unknown', status: 'resolved', payload: {} }]);
  });

  it('uses the configured fallback for unknown reasons', async () => {
    const agent = new ScriptedAgent((input) => [
      runStarted(input),
      runFinished(input, interruptOutcome({ id: 'x1', reason: 'acme:other', message: 'Something else' })),
    ]);
    renderChat({ agent, config: { fallback: makeTestCard('my-fallback') } });
    await sendMessage('Go');
    expect(await screen.findByTestId('my-fallback')).toBeInTheDocument();
  });

  it('renders a malformed interrupt with the fallback showing the problem, and logs it', async () => {
    const warn = vi.spyOn(console, 'warn');
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), customEvent('on_interrupt', '{"type":"mastra_suspend", broken'), runFinished(input)] : reply(input, n),
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'tool:schedule_meeting': makeTestCard('time-picker') } } });
    await sendMessage('Book a call');
    const card = await screen.findByTestId('interrupt-builtin-fallback');
    expect(within(card).getByRole('note')).toHaveTextContent('not valid JSON');
    expect(screen.queryByTestId('time-picker')).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not be fully understood'), expect.anything());
  });

  it('catches a throwing renderer, shows the fallback instead and keeps the chat usable', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(_props: InterruptRendererProps): never {
      throw new Error('ticket.approvers is not iterable');
    }
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))] : reply(input, n),
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': Broken } } });
    await sendMessage('Review it');
    const card = await screen.findByTestId('interrupt-builtin-fallback');
    expect(within(card).getByRole('note')).toHaveTextContent('The "aidev:tool_approval" renderer failed: ticket.approvers is not iterable');
    expect(error).toHaveBeenCalledWith(expect.stringContaining('threw; showing the fallback card'), expect.anything(), expect.anything());

    fireEvent.click(within(card).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('Carrying on.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'cancelled' }]);
    await sendMessage('And another thing');
    await waitFor(() => expect(agent.runs).toHaveLength(3));
    expect(await screen.findAllByText('Carrying on.')).toHaveLength(2);
  });

  it('puts the card in error when the resume run fails, and Retry sends the same answer', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = { chosen_time: slots[0].iso, chosen_label: slots[0].label };
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))];
      if (n === 1) return [runStarted(input), runError('The approval service is down')];
      return reply(input, n, 'Approved after all.');
    });
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval', answer) } } });
    await sendMessage('Review it');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));

    const failed = await screen.findByRole('alert');
    expect(failed).toHaveTextContent('The approval service is down');
    expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'error');
    expect(error).toHaveBeenCalledWith(expect.stringContaining('failed: The approval service is down'));

    const retry = screen.getByRole('button', { name: 'Retry approval' });
    fireEvent.click(retry);
    fireEvent.click(retry); // a second click while the retry is on its way is ignored
    expect(await screen.findByText('Approved after all.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'resolved'));
    expect(agent.runs).toHaveLength(3);
    expect(agent.runs[2].resume).toEqual(agent.runs[1].resume);
    expect(agent.runs[2].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'resolved', payload: answer }]);
    expect(agent.runs[2].runId).toBe(agent.runs[0].runId);
  });

  it('settles a retried answer by its own run, not by the chat reply the retry cut off', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // A legacy interrupt leaves the chat usable: its resume fails, the user chats on, and clicks
    // Retry while the reply still streams. CopilotKit ends that reply to start the retry's run.
    const confirm = {
      name: 'on_interrupt',
      value: JSON.stringify({ id: 'int-legacy', reason: 'acme:confirm', message: 'Really delete?' }),
    };
    const streaming = createGate();
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), customEvent(confirm.name, confirm.value), runFinished(input)];
      if (n === 1) return [runStarted(input), runError('The file service is down')];
      if (n === 2) return [runStarted(input), ...textMessage('reply-2', 'Meanwhile, here is'), () => streaming.wait(), runFinished(input)];
      return [runStarted(input), runError('The file service is still down')];
    });
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'acme:confirm': makeTestCard('confirm') } } });
    await sendMessage('Delete the files');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer confirm' }));
    await waitFor(() => expect(screen.getByTestId('confirm-readonly')).toHaveAttribute('data-status', 'error'));

    await sendMessage('What else can you do?');
    expect(await screen.findByText('Meanwhile, here is')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry confirm' }));
    await waitFor(() => expect(agent.runs).toHaveLength(4));
    expect(agent.runs[3].forwardedProps.command).toEqual({ resume: { ok: true }, interruptEvent: confirm.value });

    // The retried run failed too: the card says so (it must not count the cut-off reply as its answer).
    await waitFor(() =>
      expect(within(screen.getByTestId('confirm-readonly')).getByRole('alert')).toHaveTextContent('The file service is still down'),
    );
    expect(screen.getByTestId('confirm-readonly')).toHaveAttribute('data-status', 'error');
    expect(screen.getByRole('button', { name: 'Retry confirm' })).toBeInTheDocument();
    streaming.open();
  });

  it('shows an expired interrupt read-only as Expired, silently, and answers it cancelled with the next message the user sends', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn');
    const debug = vi.spyOn(console, 'debug');
    const expired = { ...approvalInterrupt, id: 'int-expired', expiresAt: new Date(Date.now() - 60_000).toISOString() };
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(expired))] : reply(input, n, 'Sure, what next?'),
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('Review it');
    const card = await screen.findByTestId('approval-readonly');
    await waitFor(() => expect(card).toHaveAttribute('data-status', 'expired'));
    expect(within(card).getByRole('button', { name: 'Answer approval' })).toBeDisabled();
    // Expiry is normal and the card says it: nothing in the console unless the app asks for debug messages.
    // (jsdom has no layout, so CopilotKit's own scroll warning is not about this.)
    const ours = (spy: typeof warn) => spy.mock.calls.flat().filter((arg) => String(arg).includes('copilotkit-interrupts'));
    expect(ours(warn)).toEqual([]);
    expect(ours(debug)).toEqual([]);

    await sendMessage('Never mind, something else');
    expect(await screen.findByText('Sure, what next?')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    // AG-UI 1.0: an expired interrupt is answered `cancelled`, so the agent is never left suspended.
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-expired', status: 'cancelled' }]);
    expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'expired');
  });

  it('given debug messages turned on, tells the app when an interrupt expires, and nothing once they are off again', async () => {
    const messages: string[] = [];
    setInterruptsDebug((message) => void messages.push(message));
    try {
      const expired = { ...approvalInterrupt, id: 'int-expired-debug', expiresAt: new Date(Date.now() - 60_000).toISOString() };
      const agent = new ScriptedAgent((input, n) =>
        n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(expired))] : reply(input, n, 'Sure, what next?'),
      );
      renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
      await sendMessage('Review it');
      await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'expired'));
      expect(messages).toEqual([expect.stringMatching(/^\[copilotkit-interrupts\] Interrupt "int-expired-debug" expired at /)]);
    } finally {
      setInterruptsDebug(false);
    }
  });

  it('sends the answer of the open interrupt with cancelled for its expired sibling', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const expired = { ...approvalInterrupt, id: 'int-expired', expiresAt: new Date(Date.now() - 60_000).toISOString() };
    const open = { id: 'int-open', reason: 'acme:confirm', message: 'Confirm?' };
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(expired, open))] : reply(input, n, 'Sure, what next?'),
    );
    renderChat({
      agent,
      config: {
        resolveDelayMs: 0,
        renderers: { 'aidev:tool_approval': makeTestCard('approval'), 'acme:confirm': makeTestCard('confirm') },
      },
    });
    await sendMessage('Two things');
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'expired'));
    fireEvent.click(screen.getByRole('button', { name: 'Answer confirm' }));
    expect(await screen.findByText('Sure, what next?')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'int-expired', status: 'cancelled' },
      { interruptId: 'int-open', status: 'resolved', payload: { ok: true } },
    ]);
    await waitFor(() => expect(screen.getByTestId('confirm-readonly')).toHaveAttribute('data-status', 'resolved'));
    expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'expired');
  });

  it("sends the package cards' answers with cancelled for an expired sibling", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const expired = { ...approvalInterrupt, id: 'int-expired', expiresAt: new Date(Date.now() - 60_000).toISOString() };
    const form = { id: 'int-form', reason: 'acme:form', message: 'Fill this in?' };
    const plain = { id: 'int-plain', reason: 'acme:plain', message: 'Go ahead?' };
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(expired, form, plain))] : reply(input, n, 'Carrying on.'),
    );
    renderChat({
      agent,
      config: {
        resolveDelayMs: 0,
        renderers: { 'aidev:tool_approval': makeTestCard('approval'), 'acme:form': FallbackInterruptCard, 'acme:plain': LastResortCard },
      },
    });
    await sendMessage('Three things');
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'expired'));
    fireEvent.click(within(screen.getByTestId('fallback-interrupt-card')).getByRole('button', { name: 'Continue' }));
    fireEvent.click(within(screen.getByTestId('interrupt-builtin-fallback')).getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Carrying on.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume?.map((e) => [e.interruptId, e.status])).toEqual([
      ['int-expired', 'cancelled'],
      ['int-form', 'resolved'],
      ['int-plain', 'resolved'],
    ]);
    await waitFor(() => expect(screen.getByTestId('interrupt-builtin-fallback')).toHaveAttribute('data-status', 'resolved'));
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('offers no Retry when the answered interrupt was replaced before its answer went out', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // A legacy interrupt does not block the chat: the user answers and, before the deferred send,
    // sends a message whose run raises a new interrupt. The answer has nowhere to go.
    const confirm = {
      name: 'on_interrupt',
      value: JSON.stringify({ id: 'int-legacy', reason: 'acme:confirm', message: 'Really delete?' }),
    };
    const next = { id: 'int-next', reason: 'acme:next', message: 'Something new' };
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), customEvent(confirm.name, confirm.value), runFinished(input)]
        : [runStarted(input), runFinished(input, interruptOutcome(next))],
    );
    renderChat({
      agent,
      config: { resolveDelayMs: SEND_DELAY_MS, renderers: { 'acme:confirm': makeTestCard('confirm'), 'acme:next': makeTestCard('next') } },
    });
    await sendMessage('Delete the files');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer confirm' }));
    await sendMessage('Wait, something else first');
    expect(await screen.findByTestId('next')).toBeInTheDocument();

    const card = await screen.findByTestId('confirm-readonly');
    await waitFor(() => expect(card).toHaveAttribute('data-status', 'error'), { timeout: SEND_DELAY_MS + 2000 });
    expect(within(card).getByRole('alert')).toHaveTextContent('The interrupt is no longer open, so the answer could not be sent.');
    expect(within(card).queryByRole('button', { name: 'Retry confirm' })).not.toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].forwardedProps.command).toBeUndefined();
  });

  it('says the answer was not sent when CopilotKit dropped the interrupt before it went out, and Retry sends it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The user answers a legacy interrupt and, before the deferred send, sends a chat message: its
    // run clears CopilotKit's pending interrupt, so CopilotKit's resolve later does nothing.
    const confirm = {
      name: 'on_interrupt',
      value: JSON.stringify({ id: 'int-legacy', reason: 'acme:confirm', message: 'Really delete?' }),
    };
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), customEvent(confirm.name, confirm.value), runFinished(input)]
        : reply(input, n, n === 1 ? 'Sure, something else.' : 'Deleted.'),
    );
    renderChat({ agent, config: { resolveDelayMs: SEND_DELAY_MS, renderers: { 'acme:confirm': makeTestCard('confirm') } } });
    await sendMessage('Delete the files');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer confirm' }));
    await sendMessage('Actually, something else first');
    expect(await screen.findByText('Sure, something else.')).toBeInTheDocument();

    // Not "Sending…" forever, and not "resolved" once some other run ends: an error saying so.
    await waitFor(() => expect(screen.getByTestId('confirm-readonly')).toHaveAttribute('data-status', 'error'), {
      timeout: SEND_DELAY_MS + 2000,
    });
    expect(within(screen.getByTestId('confirm-readonly')).getByRole('alert')).toHaveTextContent(
      'Not sent: CopilotKit no longer had this interrupt open',
    );
    expect(error).toHaveBeenCalledWith(expect.stringContaining('the answer never reached the agent'));
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].forwardedProps.command).toBeUndefined();

    // The answer is kept, so Retry can send it, straight to the agent.
    fireEvent.click(screen.getByRole('button', { name: 'Retry confirm' }));
    // A retry waits for the paint and the resolve delay, like the first send.
    expect(await screen.findByText('Deleted.', undefined, { timeout: SEND_DELAY_MS + 2000 })).toBeInTheDocument();
    expect(agent.runs).toHaveLength(3);
    expect(agent.runs[2].forwardedProps.command).toEqual({ resume: { ok: true }, interruptEvent: confirm.value });
    await waitFor(() => expect(screen.getByTestId('confirm-readonly')).toHaveAttribute('data-status', 'resolved'));
  });

  it('says the answer was not sent when the interrupt expired while it waited to go out, and answers it cancelled', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ['Date'] }); // only the clock: timers, frames and CopilotKit run for real
    const soon = { ...approvalInterrupt, id: 'int-soon', expiresAt: new Date(Date.now() + 60_000).toISOString() };
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(soon))] : reply(input, n, 'Sure, what next?'),
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('Review it');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    // Answered in time, but the send waits for the paint; by then the interrupt has expired, and
    // AG-UI allows only `cancelled` for it.
    vi.setSystemTime(Date.now() + 120_000);

    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'error'));
    expect(screen.getByRole('alert')).toHaveTextContent('Not sent: interrupt "int-soon" expired before the answer went out.');
    expect(screen.queryByRole('button', { name: 'Retry approval' })).not.toBeInTheDocument();
    expect(await screen.findByText('Sure, what next?')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-soon', status: 'cancelled' }]);
    expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'error');
  });
});
