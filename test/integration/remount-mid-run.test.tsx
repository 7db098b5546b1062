/**
 * A set raised by a run that started before the hook (re)mounted. AG-UI's client copies an agent's
 * subscribers when a run starts, so CopilotKit's `useInterrupt` mounted during the run never hears
 * it stop: the controller (which does) draws the set, and the hook places it in the chat. Before,
 * no card appeared and every chat message was refused while the agent waited.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { cleanup } from '@testing-library/react';
import { createGate, customEvent, interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { sendMessage, transcript } from './harness';
import { A, B, reply, RemountPage, answerBothCards } from './remount-page';

afterEach(() => vi.restoreAllMocks());

describe('a set raised by a run that started before the hook (re)mounted', () => {
  it('given the agent still thinking, when the hook remounts and the agent then stops for an interrupt, should show its card, answerable, and the chat should stay usable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // the refused run, on failure
    const gate = createGate();
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), gate.wait, runFinished(input, interruptOutcome(A))] : reply(input, n, 'All received.'),
    );
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('One thing');

    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    await act(async () => gate.open());
    await waitFor(() => expect(agent.pendingInterrupts).toHaveLength(1));

    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs.map((run) => run.resume)).toEqual([undefined, [{ interruptId: 'int-a', status: 'resolved', payload: 'A' }]]);
    expect(screen.getAllByTestId(/^a(-readonly)?$/)).toHaveLength(1);
  });

  it('given the agent still thinking, when the hook remounts, the agent stops and the user sends a chat message instead, should dismiss the card and reply', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const gate = createGate();
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), gate.wait, runFinished(input, interruptOutcome(A))] : reply(input, n, 'Sure, what next?'),
    );
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('One thing');
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    await act(async () => gate.open());
    await waitFor(() => expect(agent.pendingInterrupts).toHaveLength(1));

    await sendMessage('Something else');
    expect(await screen.findByText('Sure, what next?', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-a', status: 'cancelled' }]);
  });

  it('given two answers on their way, when the hook remounts while the resume run streams and the run stops again with the same ids, should show the two new cards, answerable', async () => {
    const gate = createGate();
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(A, B))];
      if (n === 1) return [runStarted(input), gate.wait, ...textMessage('r1', 'Once more.'), runFinished(input, interruptOutcome(A, B))];
      return reply(input, n, 'All received.');
    });
    const view = render(<RemountPage agent={agent} />);
    await answerBothCards(agent);

    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    await act(async () => gate.open());
    expect(await screen.findByText('Once more.')).toBeInTheDocument();

    // Without the remount both new cards show (the same script passes with hookKey kept at 0).
    fireEvent.click(within(await screen.findByTestId('a')).getByRole('button', { name: 'Answer a' }));
    fireEvent.click(within(await screen.findByTestId('b')).getByRole('button', { name: 'Answer b' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs[2].resume?.map((entry) => entry.interruptId)).toEqual(['int-a', 'int-b']);
    await waitFor(() => expect(within(transcript()).getAllByText('status: resolved')).toHaveLength(4));
  });

  it('given a legacy on_interrupt set raised by a run during which the hook remounted (before or after the event), should draw its card and resume it once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('before the event', 'after the event'), fc.integer({ min: 1, max: 2 }), async (when, remounts) => {
        const event = JSON.stringify({ id: 'int-legacy', reason: 'acme:b', message: 'Proceed?' });
        const first = createGate();
        const second = createGate();
        const agent = new ScriptedAgent((input, n) =>
          n === 0
            ? [runStarted(input), first.wait, customEvent('on_interrupt', event), second.wait, runFinished(input)]
            : reply(input, n, 'All received.'),
        );
        const view = render(<RemountPage agent={agent} />);
        await sendMessage('Go on');
        if (when === 'after the event') await act(async () => first.open());
        for (let k = 1; k <= remounts; k++) view.rerender(<RemountPage agent={agent} hookKey={k} />);
        await act(async () => {
          first.open();
          second.open();
        });

        fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
        expect(await screen.findByText('All received.')).toBeInTheDocument();
        expect(screen.getAllByTestId(/^b(-readonly)?$/)).toHaveLength(1);
        expect(agent.runs.map((run) => run.forwardedProps?.command)).toEqual([undefined, { resume: 'B', interruptEvent: event }]);
        cleanup();
      }),
      { numRuns: 4 },
    );
  });

  it('given the agent still thinking, when the hook unmounts, the agent stops meanwhile and the hook mounts again, should show the card, answerable', async () => {
    const gate = createGate();
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), gate.wait, runFinished(input, interruptOutcome(A))] : reply(input, n, 'All received.'),
    );
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('One thing');
    view.rerender(<RemountPage agent={agent} hook={false} />);
    await act(async () => gate.open());
    await waitFor(() => expect(agent.pendingInterrupts).toHaveLength(1));

    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-a', status: 'resolved', payload: 'A' }]);
  });
});
