import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CopilotKit } from '@copilotkit/react-core';
import { CopilotChat } from '@copilotkit/react-ui';
import { describe, expect, it } from 'vitest';
import { mastraScheduleInterrupt, slots } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { Interrupts, makeTestCard, sendMessage } from './harness';

describe('on the v1 UI (@copilotkit/react-ui CopilotChat under <CopilotKit>)', () => {
  it('renders the card in the chat and resumes with the answer', async () => {
    const answer = { chosen_time: slots[3].iso, chosen_label: slots[3].label };
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))]
        : [runStarted(input), ...textMessage('reply-1', `Scheduled for ${slots[3].label}.`), runFinished(input)],
    );
    render(
      <CopilotKit agents__unsafe_dev_only={{ default: agent }}>
        <Interrupts resolveDelayMs={0} renderers={{ 'tool:schedule_meeting': makeTestCard('time-picker', answer) }} />
        <CopilotChat />
      </CopilotKit>,
    );
    await sendMessage('Book a call with sales');
    const card = await screen.findByTestId('time-picker');
    expect(card.textContent).toContain('Monday 3:30 PM');

    fireEvent.click(screen.getByRole('button', { name: 'Answer time-picker' }));
    expect(screen.getByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'submitting');
    expect(await screen.findByText(`Scheduled for ${slots[3].label}.`)).toBeInTheDocument();
    await waitFor(() => expect(agent.runs).toHaveLength(2));
    expect(agent.runs[1].resume).toEqual([{ interruptId: mastraScheduleInterrupt.id, status: 'resolved', payload: answer }]);
  });
});
