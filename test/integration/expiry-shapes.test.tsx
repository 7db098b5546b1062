import { screen } from '@testing-library/react';
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
