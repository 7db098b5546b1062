import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { unwrapInterrupts } from '../../src/unwrap';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';

// A large or hostile interrupt set is sanitised once when the agent stops, not again when
// CopilotKit renders the same set: reads of the interrupt's fields are counted through getters.

/** Interrupts whose every field read is counted. */
function countedInterrupts(count: number) {
  const reads = { n: 0 };
  const interrupts = Array.from({ length: count }, (_, i) => {
    const fields: Record<string, unknown> = { id: `ask-${i}`, reason: 'acme:ask', message: `Question ${i}`, metadata: { n: i } };
    const interrupt = {};
    for (const [key, value] of Object.entries(fields)) {
      Object.defineProperty(interrupt, key, {
        enumerable: true,
        get: () => {
          reads.n++;
          return value;
        },
      });
    }
    return interrupt;
  });
  return { interrupts, reads };
}

describe('one unwrap per stop', () => {
  it.each([1, 3, 20])(
    'given %i interrupts, should read their fields as often as one unwrap does, however often the chat renders',
    async (count) => {
      const once = countedInterrupts(count);
      unwrapInterrupts({ interrupts: once.interrupts });
      const perUnwrap = once.reads.n;
      expect(perUnwrap).toBeGreaterThan(0);

      const { interrupts, reads } = countedInterrupts(count);
      const agent = new ScriptedAgent((input) => [runStarted(input), runFinished(input, interruptOutcome(...interrupts))]);
      renderChat({ agent, config: { resolveDelayMs: 0, defaults: { 'acme:ask': makeTestCard('ask') } } });
      await sendMessage('Ask me');
      expect(await screen.findAllByTestId('ask')).toHaveLength(count);
      // CopilotKit's own reads (its interrupt state, the first interrupt it hands to `enabled`) are
      // not ours: what ours adds is one unwrap, not two.
      expect(reads.n).toBeLessThan(2 * perUnwrap);
    },
  );
});
