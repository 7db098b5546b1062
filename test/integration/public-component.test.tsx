import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { describe, expect, it } from 'vitest';
import { InterruptRenderers } from '../../components';
import { mastraScheduleInterrupt, slots } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { sendMessage } from './harness';

describe('<InterruptRenderers> with the built-in cards', () => {
  it('books a slot from a Mastra suspend and keeps "Booked" in the transcript after the agent answers', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))]
        : [runStarted(input), ...textMessage('reply-1', `Scheduled "Intro with sales" for ${slots[1].label}.`), runFinished(input)],
    );
    render(
      <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
        <InterruptRenderers resolveDelayMs={0} />
        <CopilotChat />
      </CopilotKitProvider>,
    );
    await sendMessage('Book a call with sales');
    const card = await screen.findByTestId('time-picker-card');
    const buttons = within(card).getAllByTestId('time-picker-slot');
    expect(buttons.map((b) => b.textContent)).toEqual(slots.map((s) => s.label));

    fireEvent.click(buttons[1]);
    expect(await screen.findByText(`Scheduled "Intro with sales" for ${slots[1].label}.`)).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([
      { interruptId: mastraScheduleInterrupt.id, status: 'resolved', payload: { chosen_time: slots[1].iso, chosen_label: slots[1].label } },
    ]);
    const picked = await screen.findByTestId('time-picker-picked');
    expect(picked).toHaveTextContent('Booked');
    expect(picked).toHaveTextContent(slots[1].label);
    await waitFor(() => expect(screen.queryByTestId('time-picker-slot')).not.toBeInTheDocument());
  });
});
