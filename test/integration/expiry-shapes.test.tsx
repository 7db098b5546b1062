import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';

afterEach(() => vi.restoreAllMocks());

// AG-UI's client reads `expiresAt` with `new Date(expiresAt)` and refuses every run, the one
// answering the interrupt included, while it holds an interrupt that reads as past: `null` (a
// backend's "no deadline") and a number are dates in 1970 to it.
describe('an expiresAt that is not an ISO string', () => {
  it.each([
    ['null', null],
    ['an epoch number', 1],
  ])('given an open interrupt whose expiresAt is %s, when the user chats on, should get the reply', async (_name, expiresAt) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const interrupt = { id: 'int-odd-expiry', reason: 'acme:confirm', message: 'Go ahead?', expiresAt };
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(interrupt))]
        : [runStarted(input), ...textMessage(`r${n}`, 'Sure, what next?'), runFinished(input)],
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'acme:confirm': makeTestCard('confirm') } } });
    await sendMessage('Do it');
    await screen.findByTestId('confirm');

    await sendMessage('Never mind, something else');
    expect(await screen.findByText('Sure, what next?', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-odd-expiry', status: 'cancelled' }]);
  });
});

// setTimeout keeps its delay in 32 bits: a card cannot wait more than about 24.8 days in one timer.
describe('a deadline further away than one timer can wait', () => {
  it('given an interrupt that expires in 40 days, when the longest timer fires, should stay answerable until the deadline, then expire', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ['Date'] }); // only the clock: timers, frames and CopilotKit run for real
    const longest = 2 ** 31 - 1;
    const timers = vi.spyOn(globalThis, 'setTimeout');
    /** Runs the card's pending deadline timer (the latest one of `longest` or more) as if it had fired. */
    const fireDeadlineTimer = () => {
      const call = timers.mock.calls.findLast(([, delay]) => typeof delay === 'number' && delay >= longest / 2);
      expect(call).toBeDefined();
      act(() => (call![0] as () => void)());
    };
    const start = Date.now();
    const day = 24 * 60 * 60 * 1000;
    const interrupt = { id: 'int-far', reason: 'acme:confirm', message: 'Go ahead?', expiresAt: new Date(start + 40 * day).toISOString() };
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(interrupt))]
        : [runStarted(input), ...textMessage(`r${n}`, 'Done.'), runFinished(input)],
    );
    try {
      renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'acme:confirm': makeTestCard('confirm') } } });
      await sendMessage('Do it');
      await screen.findByTestId('confirm');

      vi.setSystemTime(start + longest + 1);
      fireDeadlineTimer();
      expect(screen.getByTestId('confirm')).toHaveAttribute('data-status', 'pending');

      vi.setSystemTime(start + 40 * day + 1);
      fireDeadlineTimer();
      expect(await screen.findByTestId('confirm-readonly')).toHaveAttribute('data-status', 'expired');
    } finally {
      vi.useRealTimers();
    }
  });
});
