import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  approvalInterrupt,
  legacyScheduleEvent,
  mastraScheduleInterrupt,
  questionInterrupt,
  slots,
  ticket,
  timePickerSuspendPayload,
} from '../fixtures/interrupts';
import {
  ScriptedAgent,
  customEvent,
  interruptOutcome,
  runFinished,
  runStarted,
  textMessage,
  type ScriptStep,
} from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';

const renderers = {
  'aidev:tool_approval': makeTestCard('approval'),
  'aidev:user_question': makeTestCard('question'),
  'tool:schedule_meeting': makeTestCard('time-picker', { chosen_time: slots[1].iso, chosen_label: slots[1].label }),
};

/** First run raises the interrupt, every later run answers with text. */
function agentRaising(first: (input: Parameters<typeof runStarted>[0]) => ScriptStep[]) {
  return new ScriptedAgent((input, n) =>
    n === 0 ? first(input) : [runStarted(input), ...textMessage(`reply-${n}`, 'Thanks, continuing.'), runFinished(input)],
  );
}

const payloadOf = (testId: string) => JSON.parse(screen.getByTestId(`${testId}-payload`).textContent ?? 'null');

describe('each interrupt shape reaches its renderer', () => {
  it('routes aidev:tool_approval to the approval renderer with the ticket', async () => {
    renderChat({ agent: agentRaising((i) => [runStarted(i), runFinished(i, interruptOutcome(approvalInterrupt))]), config: { renderers } });
    await sendMessage('Submit the review ticket');
    expect(await screen.findByTestId('approval')).toBeInTheDocument();
    expect(payloadOf('approval')).toEqual({ ticket });
  });

  it('routes aidev:user_question to the question renderer with the questions', async () => {
    renderChat({ agent: agentRaising((i) => [runStarted(i), runFinished(i, interruptOutcome(questionInterrupt))]), config: { renderers } });
    await sendMessage('Ask me');
    expect(await screen.findByTestId('question')).toBeInTheDocument();
    expect(payloadOf('question')).toEqual({ questions: questionInterrupt.metadata.questions });
  });

  it('routes a Mastra schedule_meeting suspend to the time picker with its own slots', async () => {
    renderChat({
      agent: agentRaising((i) => [runStarted(i), runFinished(i, interruptOutcome(mastraScheduleInterrupt))]),
      config: { renderers, resolveDelayMs: 0 },
    });
    await sendMessage('Book a call with sales');
    const card = await screen.findByTestId('time-picker');
    expect(payloadOf('time-picker')).toEqual(timePickerSuspendPayload);
    expect(within(card).getByTestId('time-picker-payload').textContent).toContain('Monday 3:30 PM');
  });

  it('routes a legacy on_interrupt JSON-string event and resumes through the legacy command', async () => {
    const agent = agentRaising((i) => [runStarted(i), customEvent(legacyScheduleEvent.name, legacyScheduleEvent.value), runFinished(i)]);
    renderChat({ agent, config: { renderers, resolveDelayMs: 0 } });
    await sendMessage('Book a call');
    await screen.findByTestId('time-picker');
    expect(payloadOf('time-picker')).toEqual(timePickerSuspendPayload);

    fireEvent.click(screen.getByRole('button', { name: 'Answer time-picker' }));
    expect(await screen.findByText('Thanks, continuing.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].forwardedProps.command).toEqual({
      resume: { chosen_time: slots[1].iso, chosen_label: slots[1].label },
      interruptEvent: legacyScheduleEvent.value,
    });
    await waitFor(() => expect(screen.getByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'resolved'));
  });

  it('answers a repeated id-less legacy interrupt again: the second one is a new card, not the first one’s echo', async () => {
    // A bare legacy payload has no id; the same question twice in one thread must still be answerable.
    const bare = { name: 'on_interrupt', value: JSON.stringify({ reason: 'acme:confirm', message: 'Really delete?' }) };
    const agent = new ScriptedAgent((input, n) =>
      n % 2 === 0
        ? [runStarted(input), customEvent(bare.name, bare.value), runFinished(input)]
        : [runStarted(input), ...textMessage(`reply-${n}`, `Done ${n}.`), runFinished(input)],
    );
    renderChat({ agent, config: { renderers: { 'acme:confirm': makeTestCard('confirm') }, resolveDelayMs: 0 } });

    await sendMessage('Delete the files');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer confirm' }));
    expect(await screen.findByText('Done 1.')).toBeInTheDocument();

    await sendMessage('Delete the other files');
    const fresh = await screen.findByTestId('confirm');
    fireEvent.click(within(fresh).getByRole('button', { name: 'Answer confirm' }));
    expect(await screen.findByText('Done 3.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(4);
    expect(agent.runs[3].forwardedProps.command).toEqual({ resume: { ok: true }, interruptEvent: bare.value });
    await waitFor(() => expect(screen.getAllByTestId('confirm-readonly')).toHaveLength(2));
  });
});
