import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CopilotKit } from '@copilotkit/react-core';
import { AssistantMessage, CopilotChat, UserMessage } from '@copilotkit/react-ui';
import { withInterruptEcho } from '../../components/host/with-interrupt-echo';
import { describe, expect, it } from 'vitest';
import { mastraScheduleInterrupt, slots } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { Interrupts, makeTestCard, sendMessage } from './harness';

/** Suspends for schedule_meeting, then confirms the slot the card answers with. */
function bookingAgent(slot: number) {
  const answer = { chosen_time: slots[slot].iso, chosen_label: slots[slot].label };
  const agent = new ScriptedAgent((input, n) =>
    n === 0
      ? [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))]
      : [runStarted(input), ...textMessage('reply-1', `Scheduled for ${slots[slot].label}.`), runFinished(input)],
  );
  return { agent, answer };
}

describe('on the v1 UI (@copilotkit/react-ui CopilotChat under <CopilotKit>)', () => {
  it('renders the card in the chat and resumes with the answer', async () => {
    const { agent, answer } = bookingAgent(3);
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

  it('keeps the read-only card after the message where it appeared when the message components are wrapped', async () => {
    const { agent, answer } = bookingAgent(0);
    render(
      <CopilotKit agents__unsafe_dev_only={{ default: agent }}>
        <Interrupts resolveDelayMs={0} renderers={{ 'tool:schedule_meeting': makeTestCard('time-picker', answer) }} />
        <CopilotChat UserMessage={UserMessageWithEcho} AssistantMessage={AssistantMessageWithEcho} />
      </CopilotKit>,
    );
    await sendMessage('Book a call with sales');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer time-picker' }));
    const reply = await screen.findByText(`Scheduled for ${slots[0].label}.`);
    await waitFor(() => expect(screen.getByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'resolved'));
    const echo = screen.getByTestId('time-picker-readonly');
    const user = screen.getByText('Book a call with sales');
    expect(user.compareDocumentPosition(echo) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(echo.compareDocumentPosition(reply) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

const UserMessageWithEcho = withInterruptEcho(UserMessage);
const AssistantMessageWithEcho = withInterruptEcho(AssistantMessage);
