import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TimePickerCard } from '../../components/time-picker-card/time-picker-card';
import { ToolApprovalCard } from '../../components/tool-approval-card/tool-approval-card';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { mastraScheduleInterrupt } from '../fixtures/interrupts';
import { renderChat, sendMessage } from './harness';

// Keyboard only, through the real provider and CopilotChat: after an answer, focus is on the
// answered card's summary (wherever the chat draws it once the agent goes on), or on the card of
// the same set still waiting, never on the page.
const deploy = {
  id: 'approve-deploy',
  reason: 'aidev:tool_approval',
  toolCallId: 'call-deploy',
  message: 'Deploy the api?',
  metadata: { toolName: 'deploy_service', arguments: { service: 'api', replicas: 2 } },
};

function chat(interrupts: unknown[]) {
  const agent = new ScriptedAgent((input, n) =>
    n === 0
      ? [runStarted(input), runFinished(input, interruptOutcome(...interrupts))]
      : [runStarted(input), ...textMessage(`reply-${n}`, 'Understood.'), runFinished(input)],
  );
  const { container } = renderChat({
    agent,
    config: { resolveDelayMs: 0, defaults: { 'aidev:tool_approval': ToolApprovalCard, 'tool:schedule_meeting': TimePickerCard } },
  });
  return container;
}

describe('focus after answering a card in the chat', () => {
  it('given one card answered by keyboard, should leave focus on its summary once the agent has replied', async () => {
    chat([deploy]);
    await sendMessage('Deploy it');
    (await screen.findByTestId('approval-approve')).focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    const summary = (await screen.findByTestId('approval-card-resolved')).querySelector('.cki-summary');
    await waitFor(() => expect(document.activeElement).toBe(summary));
    expect(summary).toHaveTextContent('deploy_service');
  });

  it('given two chats on one page asking the same interrupts, answering in one should move focus within that chat only', async () => {
    const first = chat([deploy, mastraScheduleInterrupt]);
    const second = chat([deploy, mastraScheduleInterrupt]);
    await sendMessage('Deploy and book', first);
    await sendMessage('Deploy and book', second);
    await within(first).findByTestId('time-picker-card');
    (await within(second).findByTestId('approval-approve')).focus();
    await userEvent.keyboard('{Enter}');
    const picker = await within(second).findByTestId('time-picker-card');
    await waitFor(() => expect(document.activeElement).toBe(picker));
    // The other chat's cards are still open, untouched.
    expect(within(first).getByTestId('approval-approve')).toBeEnabled();
  });

  it('given two cards in one set, should move focus to the open one, then to the last answer', async () => {
    chat([deploy, mastraScheduleInterrupt]);
    await sendMessage('Deploy and book');
    (await screen.findByTestId('approval-approve')).focus();
    await userEvent.keyboard('{Enter}');
    const picker = await screen.findByTestId('time-picker-card');
    await waitFor(() => expect(document.activeElement).toBe(picker));
    await userEvent.tab();
    expect(document.activeElement).toBe(within(picker).getAllByTestId('time-picker-slot')[0]);
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    const booked = await screen.findByTestId('time-picker-picked');
    await waitFor(() => expect(document.activeElement).toBe(booked.querySelector('.cki-summary')));
  });
});
