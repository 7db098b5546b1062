import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mastraScheduleInterrupt } from '../fixtures/interrupts';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage, type RunScript } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';

// AG-UI's client refuses a run that leaves an open interrupt unanswered, and CopilotKit logs the
// refusal as a red console error. A chat message sent while cards are open, or after one expired,
// must carry their answers itself, so that refused run is never attempted, and every interrupt
// gets exactly one answer, whichever road sent it.

let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
  // CopilotKit's own warnings in jsdom (no layout) are not what these tests check.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

const userTexts = (input: { messages: { role: string; content?: unknown }[] }) =>
  input.messages.filter((m) => m.role === 'user').map((m) => m.content);

/** Every resume the agent received, flattened: which interrupt got which answer. */
const answersOf = (agent: ScriptedAgent) => agent.runs.flatMap((run) => (run.resume ?? []).map((r) => [r.interruptId, r.status]));

/** The same interrupt id never answered twice. */
function expectOneAnswerEach(agent: ScriptedAgent) {
  const ids = answersOf(agent).map(([id]) => id);
  expect(new Set(ids).size).toBe(ids.length);
}

const LANGGRAPH = { id: 'langgraph::7d1c-42', reason: 'langgraph:interrupt', metadata: { langgraph: { raw: 'Approve the plan?' } } };

describe('a chat message while a card is open (steer-away), with no refused run', () => {
  it('given a Mastra-like agent that ends a cancelled run without a word, should send the cancel with the message in one run, ask once more for the reply, and log no error', async () => {
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))];
      if (input.resume) return [runStarted(input), runFinished(input)];
      return [runStarted(input), ...textMessage(`reply-${n}`, 'Hello! What else can I do?'), runFinished(input)];
    });
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'mastra:tool_suspend': makeTestCard('picker') } } });
    await sendMessage('Book a call');
    await screen.findByTestId('picker');

    await sendMessage('Hello');
    expect(await screen.findByText('Hello! What else can I do?')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('picker-readonly')).toHaveAttribute('data-status', 'dismissed'));
    expect(agent.runs).toHaveLength(3);
    expect(agent.runs[1].resume).toEqual([{ interruptId: mastraScheduleInterrupt.id, status: 'cancelled' }]);
    expect(userTexts(agent.runs[1])).toContain('Hello');
    expect(agent.runs[2].resume).toBeUndefined();
    expectOneAnswerEach(agent);
    expect(errors).toEqual([]);
  });

  it('given a LangGraph-like agent whose graph replies in the resumed run, should send the cancel with the message in one run and log no error', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(LANGGRAPH))]
        : [runStarted(input), ...textMessage(`reply-${n}`, 'Plan dropped; what next?'), runFinished(input)],
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'langgraph:interrupt': makeTestCard('plan') } } });
    await sendMessage('Make a plan');
    await screen.findByTestId('plan');

    await sendMessage('Never mind');
    expect(await screen.findByText('Plan dropped; what next?')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('plan-readonly')).toHaveAttribute('data-status', 'dismissed'));
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([{ interruptId: LANGGRAPH.id, status: 'cancelled' }]);
    expect(userTexts(agent.runs[1])).toContain('Never mind');
    expect(errors).toEqual([]);
  });

  it('given two open cards, one already answered, should send that answer and a cancel for the other with the message, once each', async () => {
    const B = { id: 'int-b', reason: 'acme:b' };
    const C = { id: 'int-c', reason: 'acme:c' };
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(B, C))]
        : [runStarted(input), ...textMessage(`reply-${n}`, 'Noted, moving on.'), runFinished(input)],
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'acme:b': makeTestCard('b', 'yes'), 'acme:c': makeTestCard('c') } } });
    await sendMessage('Ask me two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    await waitFor(() => expect(screen.getByTestId('b-readonly')).toHaveAttribute('data-status', 'submitting'));

    await sendMessage('Something else');
    expect(await screen.findByText('Noted, moving on.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([
      { interruptId: B.id, status: 'resolved', payload: 'yes' },
      { interruptId: C.id, status: 'cancelled' },
    ]);
    expectOneAnswerEach(agent);
    expect(errors).toEqual([]);
  });
});

describe('a chat message after a card expired, with no refused run', () => {
  it('given an expired card, should send its cancel with the next message and log no error', async () => {
    const poll = { id: 'poll-1', reason: 'acme:poll', expiresAt: '' };
    const script: RunScript = (input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome({ ...poll, expiresAt: new Date(Date.now() + 200).toISOString() }))]
        : [runStarted(input), ...textMessage(`reply-${n}`, 'Poll closed. How can I help?'), runFinished(input)];
    const agent = new ScriptedAgent(script);
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'acme:poll': makeTestCard('poll') } } });
    await sendMessage('Run a quick poll');
    await waitFor(() => expect(screen.getByTestId('poll-readonly')).toHaveAttribute('data-status', 'expired'), { timeout: 5_000 });
    expect(agent.runs).toHaveLength(1);

    await sendMessage('Hello?');
    expect(await screen.findByText('Poll closed. How can I help?')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([{ interruptId: poll.id, status: 'cancelled' }]);
    expect(userTexts(agent.runs[1])).toContain('Hello?');
    expect(screen.getByTestId('poll-readonly')).toHaveAttribute('data-status', 'expired');
    expect(errors).toEqual([]);
  });

  it.each([
    ['expires first, then the other card is answered', false],
    ['is still open when the other card is answered, then expires', true],
  ])(
    'given a sibling that %s (the session sends both), should send nothing more for them with the next message',
    async (_order, answerFirst) => {
      const quick = { id: 'int-quick', reason: 'acme:quick' };
      const slow = { id: 'int-slow', reason: 'acme:slow' };
      const agent = new ScriptedAgent((input, n) => {
        if (n === 0)
          return [
            runStarted(input),
            runFinished(input, interruptOutcome({ ...quick, expiresAt: new Date(Date.now() + 600).toISOString() }, slow)),
          ];
        if (input.resume) return [runStarted(input), ...textMessage(`reply-${n}`, 'Got your answer.'), runFinished(input)];
        return [runStarted(input), ...textMessage(`reply-${n}`, 'Hi again.'), runFinished(input)];
      });
      renderChat({
        agent,
        config: { resolveDelayMs: 0, renderers: { 'acme:quick': makeTestCard('quick'), 'acme:slow': makeTestCard('slow', 'sure') } },
      });
      await sendMessage('Ask me two things');
      const answerSlow = async () =>
        fireEvent.click(within(await screen.findByTestId('slow')).getByRole('button', { name: 'Answer slow' }));
      if (answerFirst) await answerSlow();
      await waitFor(() => expect(screen.getByTestId('quick-readonly')).toHaveAttribute('data-status', 'expired'), { timeout: 5_000 });
      if (!answerFirst) await answerSlow();
      expect(await screen.findByText('Got your answer.')).toBeInTheDocument();
      await waitFor(() => expect(screen.getByTestId('slow-readonly')).toHaveAttribute('data-status', 'resolved'));
      expect(agent.runs[1].resume).toEqual([
        { interruptId: quick.id, status: 'cancelled' },
        { interruptId: slow.id, status: 'resolved', payload: 'sure' },
      ]);

      await sendMessage('Thanks');
      expect(await screen.findByText('Hi again.')).toBeInTheDocument();
      await act(async () => {
        await new Promise((r) => setTimeout(r, 100));
      });
      expect(agent.runs).toHaveLength(3);
      expect(agent.runs[2].resume).toBeUndefined();
      expectOneAnswerEach(agent);
      expect(screen.getByTestId('slow-readonly')).toHaveAttribute('data-status', 'resolved');
      expect(screen.getByTestId('quick-readonly')).toHaveAttribute('data-status', 'expired');
      expect(errors).toEqual([]);
    },
  );
});
