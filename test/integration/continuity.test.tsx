import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mastraScheduleInterrupt, slots } from '../fixtures/interrupts';
import { ScriptedAgent, createGate, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';

const CARD = '[data-testid="time-picker"], [data-testid="time-picker-readonly"]';

describe('continuity from click to the end of the resume run', () => {
  it.each([
    ['resolveDelayMs: 0', 0],
    ['the default delay', undefined],
  ])('always shows the interactive or the read-only card (%s, RUN_STARTED in the same tick)', async (_label, resolveDelayMs) => {
    const gate = createGate();
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))]
        : // RUN_STARTED is emitted synchronously inside CopilotKit's resolve: CopilotKit clears its
          // interrupt slot at once. The run then stays open until the test releases it.
          [runStarted(input), gate.wait, ...textMessage('reply-1', `Scheduled for ${slots[0].label}.`), runFinished(input)],
    );
    renderChat({
      agent,
      config: {
        resolveDelayMs,
        renderers: { 'tool:schedule_meeting': makeTestCard('time-picker', { chosen_time: slots[0].iso, chosen_label: slots[0].label }) },
      },
    });
    await sendMessage('Book a call with sales');
    await screen.findByTestId('time-picker');

    const gaps: string[] = [];
    let observed = 0;
    const observer = new MutationObserver(() => {
      observed += 1;
      if (!document.querySelector(CARD)) gaps.push(document.body.innerHTML.slice(0, 300));
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });

    fireEvent.click(screen.getByRole('button', { name: 'Answer time-picker' }));
    await waitFor(() => expect(agent.runs).toHaveLength(2), { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('time-picker-readonly')).toBeInTheDocument());
    await act(async () => gate.open());
    expect(await screen.findByText(`Scheduled for ${slots[0].label}.`)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'resolved'));
    observer.disconnect();

    expect(observed).toBeGreaterThan(0);
    expect(gaps).toEqual([]);
    // Exactly one copy: the slot copy stepped aside for the transcript echo.
    expect(document.querySelectorAll(CARD)).toHaveLength(1);
  });
});
