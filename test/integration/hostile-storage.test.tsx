import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FallbackInterruptCard } from '../../components/fallback-interrupt-card/fallback-interrupt-card';
import { resolveLabels } from '../../src/i18n/labels';
import { createInterruptHistory } from '../../src/history';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { renderChat, sendMessage } from './harness';

const STORAGE_KEY = 'test:hostile-history';
const THREAD = 'thread-hostile';
const labels = resolveLabels('en');

/** A stored record of the right shape, with any of its fields (or its interrupt's) replaced by arbitrary JSON. */
const storedRecord = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 8 }),
    top: fc.dictionary(fc.constantFrom('id', 'reason', 'time', 'anchor', 'status', 'result', 'error', 'interrupt'), fc.jsonValue(), {
      maxKeys: 2,
    }),
    inner: fc.dictionary(
      fc.constantFrom('id', 'reason', 'message', 'problem', 'metadata', 'payload', 'responseSchema', 'source'),
      fc.jsonValue(),
      { maxKeys: 3 },
    ),
  })
  .map(({ id, top, inner }) => ({
    threadId: THREAD,
    id: `r-${id}`,
    reason: 'some:reason',
    interrupt: { id: `r-${id}`, reason: 'some:reason', metadata: {}, payload: {}, source: 'standard', ...inner },
    status: 'resolved',
    result: {},
    time: 1,
    anchor: null,
    ...top,
  }));

/** What storage may hold: broken text, any JSON, or records with wrong-typed fields. */
const storedText = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.json({ maxDepth: 3 }),
  fc.array(storedRecord, { maxLength: 4 }).map((records) => JSON.stringify(records)),
);

/** Open interrupts whose every field but the id is arbitrary JSON, as a misbehaving agent could send. */
const openInterrupts = fc
  .array(
    fc.record(
      {
        reason: fc.jsonValue(),
        message: fc.jsonValue(),
        metadata: fc.jsonValue(),
        responseSchema: fc.jsonValue(),
        problem: fc.jsonValue(),
      },
      { requiredKeys: [] },
    ),
    { minLength: 1, maxLength: 2 },
  )
  .map((list) => list.map((fields, i) => ({ ...fields, id: `open-${i}` })));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the chat on hostile storage and hostile interrupts', () => {
  it('given arbitrary JSON in storage and arbitrary interrupt fields, should stay usable: each message sent gets its reply', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await fc.assert(
      fc.asyncProperty(storedText, openInterrupts, async (text, interrupts) => {
        cleanup();
        localStorage.clear();
        localStorage.setItem(`${STORAGE_KEY}:${THREAD}`, text);
        const agent = new ScriptedAgent((input, n) => [
          runStarted(input),
          ...textMessage(`reply-${n}`, `Reply ${n}`),
          n === 0 ? runFinished(input, interruptOutcome(...interrupts)) : runFinished(input),
        ]);
        renderChat({
          agent,
          threadId: THREAD,
          config: {
            resolveDelayMs: 0,
            fallback: FallbackInterruptCard,
            history: createInterruptHistory({ persistence: 'localStorage', storageKey: STORAGE_KEY }),
          },
        });
        await sendMessage('Hello');
        expect(await screen.findByText('Reply 0')).toBeInTheDocument();
        // Every open card can be dismissed, and then the run goes on.
        await waitFor(() => expect(screen.getAllByRole('button', { name: labels.fallbackDismiss })).toHaveLength(interrupts.length));
        for (const button of screen.getAllByRole('button', { name: labels.fallbackDismiss })) fireEvent.click(button);
        expect(await screen.findByText('Reply 1')).toBeInTheDocument();
        await sendMessage('Still there?');
        expect(await screen.findByText('Reply 2')).toBeInTheDocument();
      }),
      { numRuns: 8 },
    );
  }, 60_000);
});
