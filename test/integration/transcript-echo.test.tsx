import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mastraScheduleInterrupt, questionInterrupt, slots } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';

const before = (a: Element, b: Element) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);

function twoTurns() {
  return new ScriptedAgent((input, n) => {
    switch (n) {
      case 0:
        return [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))];
      case 1:
        return [runStarted(input), ...textMessage('reply-1', 'Booked your call.'), runFinished(input)];
      case 2:
        return [runStarted(input), runFinished(input, interruptOutcome(questionInterrupt))];
      default:
        return [runStarted(input), ...textMessage(`reply-${n}`, 'Thanks for the answers.'), runFinished(input)];
    }
  });
}

const config = {
  resolveDelayMs: 0,
  renderers: {
    'tool:schedule_meeting': makeTestCard('time-picker', { chosen_time: slots[0].iso, chosen_label: slots[0].label }),
    'aidev:user_question': makeTestCard('question'),
  },
};

describe('transcript echo', () => {
  it('keeps a resolved card where it appeared while later turns add a fresh card below', async () => {
    renderChat({ agent: twoTurns(), config });
    await sendMessage('Book a call with sales');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer time-picker' }));
    const reply = await screen.findByText('Booked your call.');

    await sendMessage('Now ask me something');
    const fresh = await screen.findByTestId('question');
    const first = screen.getByTestId('time-picker-readonly');
    expect(first).toHaveAttribute('data-status', 'resolved');
    expect(screen.getByTestId('time-picker-result')).toHaveTextContent(slots[0].label);

    const [firstUser, secondUser] = screen.getAllByTestId('copilot-user-message');
    expect(before(firstUser, first)).toBe(true);
    expect(before(first, reply)).toBe(true);
    expect(before(reply, secondUser)).toBe(true);
    expect(before(secondUser, fresh)).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Answer question' }));
    const lastReply = await screen.findByText('Thanks for the answers.');
    await waitFor(() => expect(screen.getByTestId('question-readonly')).toHaveAttribute('data-status', 'resolved'));
    const second = screen.getByTestId('question-readonly');
    expect(before(first, second)).toBe(true);
    expect(before(secondUser, second)).toBe(true);
    expect(before(second, lastReply)).toBe(true);
    expect(screen.getAllByTestId(/-readonly$/)).toHaveLength(2);
  });
});
