import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInterruptHistory } from '../../src/history';
import { approvalInterrupt, mastraScheduleInterrupt, slots } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage, type RunScript } from '../helpers/scripted-agent';
import { Chat, makeTestCard, renderChat, sendMessage } from './harness';

const STORAGE_KEY = 'test:interrupt-history';
const renderers = {
  'tool:schedule_meeting': makeTestCard('time-picker', { chosen_time: slots[2].iso, chosen_label: slots[2].label }),
};
const script: RunScript = (input, n) =>
  n === 0
    ? [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))]
    : [runStarted(input), ...textMessage('reply-1', 'Booked.'), runFinished(input)];

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('persisted history', () => {
  /**
   * A chat on thread-a with a history in localStorage: the time picker answered, its reply shown
   * and its record stored, then the chat unmounts. Returns the agent, whose transcript a reload
   * restores.
   */
  async function bookACallAndLeave() {
    const agent = new ScriptedAgent(script);
    const chat = renderChat({
      agent,
      threadId: 'thread-a',
      config: { resolveDelayMs: 0, renderers, history: createInterruptHistory({ persistence: 'localStorage', storageKey: STORAGE_KEY }) },
    });
    await sendMessage('Book a call with sales');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer time-picker' }));
    expect(await screen.findByText('Booked.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'resolved'));
    chat.unmount();
    return agent;
  }

  it('brings the read-only echo back after a remount on the same thread, and not on another thread', async () => {
    const agent = await bookACallAndLeave();

    // A reload: a new agent that restores the thread's transcript when the chat connects, and a
    // new history reading storage.
    const restored = new ScriptedAgent(script, { storedMessages: agent.messages });
    const second = renderChat({
      agent: restored,
      threadId: 'thread-a',
      config: { renderers, history: createInterruptHistory({ persistence: 'localStorage', storageKey: STORAGE_KEY }) },
    });
    expect(await screen.findByText('Booked.')).toBeInTheDocument();
    const echo = await screen.findByTestId('time-picker-readonly');
    expect(echo).toHaveAttribute('data-status', 'resolved');
    expect(screen.getByTestId('time-picker-result')).toHaveTextContent(slots[2].label);
    const user = screen.getByTestId('copilot-user-message');
    expect(user.compareDocumentPosition(echo) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(restored.runs).toHaveLength(0);
    second.unmount();

    // The same transcript under another thread id: the echo belongs to thread-a only.
    const otherThread = new ScriptedAgent(script, { storedMessages: agent.messages });
    renderChat({
      agent: otherThread,
      threadId: 'thread-b',
      config: { renderers, history: createInterruptHistory({ persistence: 'localStorage', storageKey: STORAGE_KEY }) },
    });
    expect(await screen.findByText('Booked.')).toBeInTheDocument();
    expect(screen.queryByTestId('time-picker-readonly')).not.toBeInTheDocument();
  });

  it('given a store that cannot be read while the chat opens, should bring the stored echo back once it can, and keep it when the next interrupt is answered', async () => {
    const agent = await bookACallAndLeave();

    // A reload on a store still opening (an async store loading its cache): reads throw until it
    // is ready; writes work.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let opening = true;
    const persistence = {
      get: (key: string) => {
        if (opening) throw new Error('still opening');
        return localStorage.getItem(key);
      },
      set: (key: string, value: string) => localStorage.setItem(key, value),
    };
    const later: RunScript = (input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))]
        : [runStarted(input), ...textMessage('reply-2', 'Deployed.'), runFinished(input)];
    renderChat({
      agent: new ScriptedAgent(later, { storedMessages: agent.messages }),
      threadId: 'thread-a',
      config: {
        resolveDelayMs: 0,
        renderers: { ...renderers, 'aidev:tool_approval': makeTestCard('approval') },
        history: createInterruptHistory({ persistence, storageKey: STORAGE_KEY }),
      },
    });
    expect(await screen.findByText('Booked.')).toBeInTheDocument();
    expect(screen.queryByTestId('time-picker-readonly')).not.toBeInTheDocument();

    opening = false;
    await sendMessage('Deploy it');
    expect(await screen.findByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'resolved');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('Deployed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'resolved'));
    expect(screen.getByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'resolved');
    const stored = createInterruptHistory({ persistence: 'localStorage', storageKey: STORAGE_KEY }).getSnapshot('thread-a');
    expect(stored.map((r) => [r.reason, r.status])).toEqual([
      [expect.any(String), 'resolved'],
      [approvalInterrupt.reason, 'resolved'],
    ]);
  });

  it("shows only the current thread's echoes when the chat switches threads, and brings them back", async () => {
    const agent = new ScriptedAgent(script);
    const config = { resolveDelayMs: 0, renderers };
    const view = renderChat({ agent, threadId: 'thread-a', config });
    await sendMessage('Book a call with sales');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer time-picker' }));
    expect(await screen.findByText('Booked.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'resolved'));

    view.rerender(<Chat agent={agent} threadId="thread-b" config={config} />);
    await waitFor(() => expect(screen.queryByText('Booked.')).not.toBeInTheDocument());
    expect(screen.queryByTestId('time-picker-readonly')).not.toBeInTheDocument();

    view.rerender(<Chat agent={agent} threadId="thread-a" config={config} />);
    expect(await screen.findByText('Booked.')).toBeInTheDocument();
    expect(await screen.findByTestId('time-picker-readonly')).toHaveAttribute('data-status', 'resolved');
  });
});
