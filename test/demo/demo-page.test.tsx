import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { DEMO_SUGGESTIONS, DemoApp } from '../../demo/page/demo-app';
import { generateCandidateSlots } from '../../src/time-slots';
import { sendMessage } from '../integration/harness';
import { AGENT_SLOTS } from './global-setup';

// The demo page component against the demo server over HTTP: real CopilotKit provider and chat,
// real CopilotRuntime, real Mastra agent (scripted model), the library's hook and cards.
const serverUrl = inject('demoUrl');

// The page remembers its thread and answered cards across reloads; each test is a new visitor.
beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
});

describe('demo page against the demo server', () => {
  it('shows the suggestion pills with their verbatim titles', async () => {
    render(<DemoApp serverUrl={serverUrl} />);
    // The page asks the server who the browser is before the chat starts: the first load waits on it.
    for (const { title } of DEMO_SUGGESTIONS) expect(await screen.findByText(title, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByTestId('time-picker-card')).toBeNull();
  });

  it('books a call: the picker shows the agent’s slots, and the picked slot reaches the tool', async () => {
    render(<DemoApp serverUrl={serverUrl} />);
    await sendMessage('Book an intro call with the sales team to discuss pricing.');

    const card = await screen.findByTestId('time-picker-card', {}, { timeout: 15_000 });
    expect(within(screen.getByTestId('copilot-message-list')).getByTestId('time-picker-card')).toBe(card);
    const slots = within(card).getAllByTestId('time-picker-slot');
    expect(slots.map((s) => s.textContent?.trim())).toEqual(AGENT_SLOTS.map((s) => s.label));
    const fallbackLabels = generateCandidateSlots().map((s) => s.label);
    for (const slot of slots) expect(fallbackLabels).not.toContain(slot.textContent?.trim());

    fireEvent.click(slots[1]);
    expect(await screen.findByTestId('time-picker-picked')).toHaveTextContent('Friday 8:45 AM');
    // The tool ran again with resumeData and the agent quoted its result.
    expect(
      await screen.findByText(
        /Scheduled "Intro call with the sales team to discuss pricing" for Friday 8:45 AM\./,
        {},
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('time-picker-picked')).toBeInTheDocument();
  });

  it('cancel: "None of these work" resumes the tool with {cancelled: true}', async () => {
    render(<DemoApp serverUrl={serverUrl} />);
    await sendMessage('Use schedule_meeting to book a 1:1 with Alice next week to review Q2 goals.');
    const card = await screen.findByTestId('time-picker-card', {}, { timeout: 15_000 });
    expect(card).toHaveTextContent('Alice');
    fireEvent.click(within(card).getByTestId('time-picker-cancel'));
    expect(await screen.findByTestId('time-picker-cancelled')).toBeInTheDocument();
    expect(await screen.findByText(/no meeting was scheduled/, {}, { timeout: 15_000 })).toBeInTheDocument();
  });
});

describe('demo page: approval through the demo approval system', () => {
  it('given the first demo user (Ana) asks for a deploy approval, the ticket shows read-only, waiting for whoever is on call', async () => {
    render(<DemoApp serverUrl={serverUrl} />);
    // Who you are: the switcher names the first demo user, with nothing to switch to yet.
    const switcher = await screen.findByRole('form', { name: 'Demo user' });
    expect(within(switcher).getByLabelText('You are')).toHaveDisplayValue(/^Ana/);
    expect(within(switcher).getByRole('button', { name: 'Switch' })).toBeDisabled();

    await sendMessage('Request approval to deploy v2 to production.');
    const card = await screen.findByTestId('approval-card', {}, { timeout: 15_000 });
    expect(within(card).getByTestId('approval-status')).toHaveTextContent(/pending/i);
    expect(await screen.findByTestId('interrupt-waiting-for')).toHaveTextContent('Waiting for anyone in on-call');
    expect(within(card).getByTestId('approval-refresh')).toBeDisabled();
  });
});

describe('demo page: user questions', () => {
  it('answers three questions in the card; the tool gets the answers and the agent repeats them', async () => {
    render(<DemoApp serverUrl={serverUrl} />);
    await sendMessage('Ask me a few questions about my project.');
    const card = await screen.findByTestId('user-question-card', {}, { timeout: 15_000 });
    // 1 / 3, single choice: picking a preset option moves on.
    fireEvent.click(within(card).getByRole('radio', { name: /Web app/ }));
    // 2 / 3, multiple choice: pick two, then next.
    await waitFor(
      () => expect(within(screen.getByTestId('user-question-card')).getByText('Which regions should it run in?')).toBeInTheDocument(),
      { timeout: 10_000 },
    );
    fireEvent.click(within(screen.getByTestId('user-question-card')).getByRole('checkbox', { name: /EU/ }));
    fireEvent.click(within(screen.getByTestId('user-question-card')).getByRole('checkbox', { name: /Asia/ }));
    fireEvent.click(screen.getByTestId('user-question-next'));
    // 3 / 3, free text.
    fireEvent.change(await screen.findByTestId('user-question-text-input'), { target: { value: 'End of June' } });
    await waitFor(() => expect(screen.getByTestId('user-question-submit')).not.toBeDisabled());
    fireEvent.click(screen.getByTestId('user-question-submit'));
    expect(await screen.findByTestId('user-question-answered')).toBeInTheDocument();
    expect(
      await screen.findByText(
        'The user answered: "What kind of project is this?" → Web app; "Which regions should it run in?" → EU, Asia; "When does it need to ship?" → End of June.',
        {},
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
  });
});
