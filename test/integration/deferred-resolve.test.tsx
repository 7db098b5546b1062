import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { InterruptReason } from '../../src/protocol';
import { approvalInterrupt, questionInterrupt } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';

const answers = {
  answers: [{ question: 'Which sort should we use?', multiSelect: false, answer: [{ label: 'basic', description: 'Bubble sort' }] }],
};

function interruptThenReply(...interrupts: unknown[]) {
  return new ScriptedAgent((input, n) =>
    n === 0
      ? [runStarted(input), runFinished(input, interruptOutcome(...interrupts))]
      : [runStarted(input), ...textMessage(`reply-${n}`, 'All answered, thanks.'), runFinished(input)],
  );
}

describe('deferred resolve', () => {
  it('turns the card read-only at once and resumes only afterwards, passing the protocol resume record', async () => {
    const agent = interruptThenReply(questionInterrupt);
    const onInterruptResume = vi.fn();
    renderChat({
      agent,
      config: { onInterruptResume, renderers: { 'aidev:user_question': makeTestCard('question', answers) } },
    });
    await sendMessage('Ask me');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer question' }));

    // Same tick as the click: read-only, nothing sent yet.
    const card = screen.getByTestId('question-readonly');
    expect(card).toHaveAttribute('data-status', 'submitting');
    expect(agent.runs).toHaveLength(1);

    // The default 500 ms deferral is longer than Testing Library's default wait.
    expect(await screen.findByText('All answered, thanks.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: questionInterrupt.id, status: 'resolved', payload: answers }]);
    expect(onInterruptResume).toHaveBeenCalledTimes(1);
    const [record, protocolInterrupt] = onInterruptResume.mock.calls[0];
    expect(record).toEqual({
      interruptId: questionInterrupt.id,
      reason: InterruptReason.UserQuestion,
      status: 'resolved',
      payload: answers,
    });
    expect(protocolInterrupt).toMatchObject({
      id: questionInterrupt.id,
      reason: 'aidev:user_question',
      metadata: questionInterrupt.metadata,
    });
  });

  it('sends exactly one resume run for a double click', async () => {
    const agent = interruptThenReply(approvalInterrupt);
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('Review it');
    const button = await screen.findByRole('button', { name: 'Answer approval' });
    fireEvent.click(button);
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('All answered, thanks.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'resolved'));
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs.filter((run) => run.resume)).toHaveLength(1);
  });

  it('renders two open interrupts together and sends one resume addressing both', async () => {
    const agent = interruptThenReply(approvalInterrupt, questionInterrupt);
    const onInterruptResume = vi.fn();
    renderChat({
      agent,
      config: {
        resolveDelayMs: 0,
        onInterruptResume,
        renderers: { 'aidev:tool_approval': makeTestCard('approval'), 'aidev:user_question': makeTestCard('question', answers) },
      },
    });
    await sendMessage('Two things please');
    expect(await screen.findByTestId('approval')).toBeInTheDocument();
    expect(screen.getByTestId('question')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel approval' }));
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'cancelled'));
    // The other one is still open, so nothing has been sent.
    expect(screen.getByTestId('question')).toHaveAttribute('data-status', 'pending');
    expect(agent.runs).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Answer question' }));
    expect(await screen.findByText('All answered, thanks.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].runId).toBe(agent.runs[0].runId);
    expect(agent.runs[1].resume).toEqual([
      { interruptId: approvalInterrupt.id, status: 'cancelled' },
      { interruptId: questionInterrupt.id, status: 'resolved', payload: answers },
    ]);
    expect(onInterruptResume.mock.calls.map(([record]) => record.status)).toEqual(['cancelled', 'resolved']);
    await waitFor(() => expect(screen.getByTestId('question-readonly')).toHaveAttribute('data-status', 'resolved'));
    expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'cancelled');
  });
});
