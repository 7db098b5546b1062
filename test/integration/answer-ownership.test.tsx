import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalInterrupt } from '../fixtures/interrupts';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage, transcript } from './harness';

// Issue 13: every answer has one owner, the session, and reaches the agent exactly once.
afterEach(() => vi.restoreAllMocks());

const renderers = { 'aidev:tool_approval': makeTestCard('approval'), 'acme:confirm': makeTestCard('confirm') };

describe('who an answer belongs to', () => {
  it('given a set in which interrupts share an id, shows every one, refuses those sharing an id with a reason, and never sends an answer the user could not see', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Sets of 2-4 interrupts over few ids, so that ids repeat; at least one id is shared.
        fc
          .array(fc.constantFrom('int-x', 'int-y', 'int-z'), { minLength: 2, maxLength: 4 })
          .filter((ids) => new Set(ids).size < ids.length),
        async (ids) => {
          const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
          const set = ids.map((id, n) => ({ id, reason: 'acme:confirm', message: `Question ${n + 1}?` }));
          const agent = new ScriptedAgent((input, n) =>
            n === 0
              ? [runStarted(input), runFinished(input, interruptOutcome(...set))]
              : [runStarted(input), ...textMessage(`r${n}`, 'Going.'), runFinished(input)],
          );
          renderChat({ agent, config: { resolveDelayMs: 0, renderers } });
          await sendMessage('Do it');
          // Every interrupt the agent sent is on screen, each as its own card.
          await waitFor(() => expect(screen.getAllByTestId(/^confirm(-readonly)?$/)).toHaveLength(set.length));
          const shared: string[] = ids.filter((id) => ids.indexOf(id) !== ids.lastIndexOf(id));
          const cards = screen.getAllByTestId(/^confirm(-readonly)?$/);
          const refused = cards.filter((card) => within(card).queryByRole('alert')?.textContent?.startsWith('Refused'));
          expect(refused).toHaveLength(shared.length);
          for (const card of refused) expect(card).toHaveAttribute('data-status', 'error');
          expect(errors).toHaveBeenCalledWith(expect.stringMatching(/refused: .*same id/));

          // A click on a refused card sends nothing; the user answers the others, or chats on.
          for (const card of refused) fireEvent.click(within(card).getByRole('button', { name: 'Answer confirm' }));
          const open = cards.filter((card) => card.dataset.status === 'pending');
          for (const card of open) fireEvent.click(within(card).getByRole('button', { name: 'Answer confirm' }));
          if (open.length === 0) await sendMessage('Never mind');
          expect(await screen.findByText('Going.')).toBeInTheDocument();
          expect(agent.runs).toHaveLength(2);
          // One entry per id; a shared id only ever gets `cancelled`.
          const resume = agent.runs[1].resume as Array<{ interruptId: string; status: string }>;
          expect(resume.map((r) => r.interruptId).sort()).toEqual([...new Set(ids)].sort());
          for (const entry of resume) expect(entry.status).toBe(shared.includes(entry.interruptId) ? 'cancelled' : 'resolved');
          cleanup();
          errors.mockRestore();
        },
      ),
      { numRuns: 4 },
    );
  });

  it('given an id a later stop reuses (a fixed approval id), the new interrupt gets a fresh card that can be answered', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n < 2
        ? [runStarted(input), ...textMessage(`r${n}`, `Step ${n}.`), runFinished(input, interruptOutcome(approvalInterrupt))]
        : [runStarted(input), ...textMessage('r2', 'All approved.'), runFinished(input)],
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers } });
    await sendMessage('Review both tickets');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('Step 1.')).toBeInTheDocument();

    // The resume run stops again with the same id: an answerable card, not the first one's echo.
    const fresh = await screen.findByTestId('approval');
    fireEvent.click(within(fresh).getByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('All approved.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(3);
    expect(agent.runs[2].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'resolved', payload: { ok: true } }]);
    await waitFor(() => expect(within(transcript()).getAllByTestId('approval-readonly')).toHaveLength(2));
    for (const card of screen.getAllByTestId('approval-readonly')) expect(card).toHaveAttribute('data-status', 'resolved');
  });

  it('given an answer not yet sent when the whole provider unmounts, sends it once the chat mounts again', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))]
        : [runStarted(input), ...textMessage(`r${n}`, n === 1 ? 'Approved, carrying on.' : 'Anything else?'), runFinished(input)],
    );
    const config = { resolveDelayMs: 300, renderers };
    const first = renderChat({ agent, threadId: 'thread-remount', config });
    await sendMessage('Review it');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByTestId('approval-readonly')).toHaveAttribute('data-status', 'submitting');
    first.unmount(); // before the deferred send
    expect(agent.runs).toHaveLength(1);

    renderChat({ agent, threadId: 'thread-remount', config });
    expect(await screen.findByText('Approved, carrying on.', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'resolved', payload: { ok: true } }]);
    // Nothing shows "Sending…" forever, and the answered card stays in the transcript, before the
    // reply: the remounted chat's reconnect is refused while the agent still holds the interrupt,
    // so CopilotKit cannot restore the turn the card was anchored to.
    expect(screen.queryByText('status: submitting')).not.toBeInTheDocument();
    const echo = await within(transcript()).findByTestId('approval-readonly');
    await waitFor(() => expect(echo).toHaveAttribute('data-status', 'resolved'));
    const reply = within(transcript()).getByText('Approved, carrying on.');
    expect(echo.compareDocumentPosition(reply) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // The agent no longer holds the interrupt: the next message gets its reply.
    await sendMessage('Thanks');
    expect(await screen.findByText('Anything else?')).toBeInTheDocument();
    expect(agent.runs[2].resume).toBeUndefined();
  });

  it('given two open cards, a double click that answers one does not answer the other with its second click', async () => {
    const confirm = { id: 'int-confirm', reason: 'acme:confirm', message: 'Go ahead?' };
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt, confirm))]
        : [runStarted(input), ...textMessage('r1', 'Both answered.'), runFinished(input)],
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers } });
    await sendMessage('Review and confirm');
    const approve = await screen.findByRole('button', { name: 'Answer approval' });
    const sibling = screen.getByRole('button', { name: 'Answer confirm' });

    // The card that answered shrinks, so the second click of the double click lands on the card
    // that moved up under the pointer (jsdom has no layout: the test sends it there itself).
    fireEvent.click(approve, { detail: 1 });
    fireEvent.click(sibling, { detail: 2 });
    expect(await screen.findByTestId('approval-readonly')).toBeInTheDocument();
    expect(screen.getByTestId('confirm')).toHaveAttribute('data-status', 'pending');
    expect(agent.runs).toHaveLength(1);

    // Its own click, later, answers it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.click(sibling, { detail: 1 });
    expect(await screen.findByText('Both answered.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([
      { interruptId: approvalInterrupt.id, status: 'resolved', payload: { ok: true } },
      { interruptId: 'int-confirm', status: 'resolved', payload: { ok: true } },
    ]);
  });
});
