import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { approvalInterrupt } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';

describe('resume shape', () => {
  it.each([
    ['', false],
    [' (StrictMode)', true],
  ])('sends resume [{interruptId, status, payload}] with the interrupted run id%s', async (_label, strict) => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))]
        : [runStarted(input), ...textMessage('reply-1', 'Approved, going ahead.'), runFinished(input)],
    );
    renderChat({
      agent,
      strict,
      config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval', { approved: true }) } },
    });
    await sendMessage('Please review');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('Approved, going ahead.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'resolved', payload: { approved: true } }]);
    expect(agent.runs[1].runId).toBe(agent.runs[0].runId);
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'resolved'));
  });
});
