/**
 * A run that stops once but says so twice: a legacy `on_interrupt` event during the run and a
 * standard interrupt outcome at its end, under another id. The library's runtime does this for a
 * Mastra tool suspend: it forwards @ag-ui/mastra's event and builds the signed outcome from it.
 * The outcome is the set: one card, answered by its id in the run that stopped. Before, the event
 * was raised too when the run finished, then replaced by the outcome CopilotKit showed: a user
 * who answered the first card drawn saw it cancelled, the same request open again under it, and
 * the agent never got the answer.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { createGate, customEvent, interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { sendMessage, transcript } from './harness';
import { B, reply, RemountPage } from './remount-page';

afterEach(() => vi.restoreAllMocks());

describe('a run that sends an on_interrupt event and an interrupt outcome for one request', () => {
  it('given the user answers the first card drawn, should draw one card, send the answer under the outcome’s id in the run that stopped, and show the reply', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('its own id', 'no id'),
        fc.boolean(),
        fc.integer({ min: 0, max: 1 }),
        async (eventId, textFirst, remounts) => {
          // Each case starts on an empty page, whatever the one before left.
          cleanup();
          const event = JSON.stringify({ ...(eventId === 'its own id' && { id: 'event-b' }), reason: 'acme:b', message: 'Proceed?' });
          const stop = createGate();
          const agent = new ScriptedAgent((input, n) =>
            n === 0
              ? [
                  runStarted(input),
                  ...(textFirst ? textMessage('t0', 'Let me check.') : []),
                  customEvent('on_interrupt', event),
                  stop.wait,
                  runFinished(input, interruptOutcome({ ...B, message: 'Proceed?' })),
                ]
              : reply(input, n, 'All received.'),
          );
          const view = render(<RemountPage agent={agent} />);
          await sendMessage('Go on');
          for (let k = 1; k <= remounts; k++) view.rerender(<RemountPage agent={agent} hookKey={k} />);
          await act(async () => stop.open());

          // The user answers the card the moment it shows.
          fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
          expect(await screen.findByText('All received.')).toBeInTheDocument();
          expect(agent.runs).toHaveLength(2);
          expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-b', status: 'resolved', payload: 'B' }]);
          expect(agent.runs[1].forwardedProps?.command).toBeUndefined();
          // One card for the one request, answered; none cancelled, none open.
          await waitFor(() => expect(screen.getAllByTestId(/^b(-readonly)?$/)).toHaveLength(1));
          expect(within(transcript()).getByText('status: resolved')).toBeInTheDocument();
          expect(screen.queryByText('status: cancelled')).toBeNull();
          expect(agent.runs[1].runId).toBe(agent.runs[0].runId);
        },
      ),
      { numRuns: 8 },
    );
  });
});
