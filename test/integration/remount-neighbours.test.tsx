import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInterruptHistory } from '../../src/history';
import type { InterruptRenderersConfig } from '../../hooks/types';
import { createGate, interruptOutcome, runError, runFinished, runStarted, ScriptedAgent, textMessage } from '../helpers/scripted-agent';
import { Interrupts, sendMessage, transcript } from './harness';
import { A, B, C, renderers, reply, RemountPage, answerBothCards } from './remount-page';

// The hook's component (or the whole provider) remounting next to the other classes: an answer
// on its way, StrictMode, a chat message while cards are open, expiry, reused ids, a persistent
// history, an unmount without a remount, a thread switch. The chat stays unless a test says otherwise.
afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const base: InterruptRenderersConfig = { resolveDelayMs: 0, renderers };

/** How many times a card shows, open or read-only. */
const shown = (id: string) => screen.queryAllByTestId(new RegExp(`^${id}(-readonly)?$`)).length;

describe('remounting the hook, next to answers in flight, chat messages, expiry, reused ids and threads', () => {
  it('given two answers on their way, when the hook remounts while the resume run streams, should show each card once, settle both resolved and reply to the next message', async () => {
    const gate = createGate();
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(A, B))];
      if (n === 1) return [runStarted(input), gate.wait, ...textMessage('r1', 'All received.'), runFinished(input)];
      return reply(input, n, `Reply ${n}.`);
    });
    const view = render(<RemountPage agent={agent} />);
    await answerBothCards(agent);
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    expect(shown('a')).toBe(1);
    expect(shown('b')).toBe(1);
    await act(async () => gate.open());
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    await waitFor(() => expect(within(transcript()).getAllByText('status: resolved')).toHaveLength(2));
    expect(shown('a')).toBe(1);
    expect(shown('b')).toBe(1);
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'int-a', status: 'resolved', payload: 'A' },
      { interruptId: 'int-b', status: 'resolved', payload: 'B' },
    ]);
    await sendMessage('Next');
    expect(await screen.findByText('Reply 2.')).toBeInTheDocument();
    expect(agent.runs[2].resume).toBeUndefined();
  });

  it('given an answer on its way, when the whole provider remounts while the resume run streams, should settle the card resolved, show it once and reply to the next message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const gate = createGate();
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(A))];
      if (n === 1) return [runStarted(input), gate.wait, ...textMessage('r1', 'All received.'), runFinished(input)];
      return reply(input, n, `Reply ${n}.`);
    });
    function P({ k }: { k: number }) {
      return (
        <CopilotKitProvider key={k} agents__unsafe_dev_only={{ default: agent }}>
          <Interrupts {...base} />
          <div style={{ height: 600 }}>
            <CopilotChat threadId="thread-probe-provider" />
          </div>
        </CopilotKitProvider>
      );
    }
    const view = render(<P k={0} />);
    await sendMessage('One thing');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    await waitFor(() => expect(agent.runs).toHaveLength(2));
    view.rerender(<P k={1} />);
    await act(async () => gate.open());
    await waitFor(() => expect(screen.getByTestId('a-readonly')).toHaveAttribute('data-status', 'resolved'));
    expect(shown('a')).toBe(1);
    await sendMessage('Next');
    expect(await screen.findByText('Reply 2.')).toBeInTheDocument();
    expect(agent.runs.map((r) => r.resume)).toEqual([undefined, [{ interruptId: 'int-a', status: 'resolved', payload: 'A' }], undefined]);
  });

  it('given three open interrupts with one answered, when the hook remounts under React.StrictMode, should show each card once and send one resume with all three', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(A, B, C))] : reply(input, n, 'All received.'),
    );
    const view = render(<RemountPage agent={agent} strict />);
    await sendMessage('Three things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    await screen.findByTestId('a-readonly');
    view.rerender(<RemountPage agent={agent} strict hookKey={1} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Answer c' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume?.map((e) => e.interruptId)).toEqual(['int-a', 'int-b', 'int-c']);
    await waitFor(() => expect(within(transcript()).getAllByText('status: resolved')).toHaveLength(3));
    for (const id of ['a', 'b', 'c']) expect(shown(id)).toBe(1);
  });

  it('given three open interrupts, when the hook remounts twice in a row and again between answers (one a cancel), should send one resume with each answer once, in the order of the set', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(A, B, C))] : reply(input, n, 'All received.'),
    );
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('Three things');
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel b' }));
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    view.rerender(<RemountPage agent={agent} hookKey={2} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer c' }));
    view.rerender(<RemountPage agent={agent} hookKey={3} />);
    expect(shown('a')).toBe(1);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'int-a', status: 'resolved', payload: 'A' },
      { interruptId: 'int-b', status: 'cancelled' },
      { interruptId: 'int-c', status: 'resolved', payload: 'C' },
    ]);
    await waitFor(() => expect(screen.getByTestId('b-readonly')).toHaveAttribute('data-status', 'cancelled'));
    for (const id of ['a', 'b', 'c']) expect(shown(id)).toBe(1);
  });

  it('given two open interrupts with one answered, when the hook remounts and the user sends a chat message, should dismiss the open one, send the answer with cancelled for it and reply', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(A, B))] : reply(input, n, 'Sure, what next?'),
    );
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('Two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    await screen.findByTestId('a-readonly');
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    await screen.findByTestId('b');
    await sendMessage('Something else');
    expect(await screen.findByText('Sure, what next?')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'int-a', status: 'resolved', payload: 'A' },
      { interruptId: 'int-b', status: 'cancelled' },
    ]);
    await waitFor(() => expect(screen.getByTestId('b-readonly')).toHaveAttribute('data-status', 'dismissed'));
    expect(screen.getByTestId('a-readonly')).toHaveAttribute('data-status', 'resolved');
    expect(shown('a')).toBe(1);
    expect(shown('b')).toBe(1);
  });

  it("given an open interrupt and onChatWhileOpen 'block', when the hook remounts and the user sends a chat message, should ask to answer first, then send the answer with the message", async () => {
    const config = { ...base, onChatWhileOpen: 'block' as const };
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(A))] : reply(input, n, 'Done, and about your message.'),
    );
    const view = render(<RemountPage agent={agent} config={config} />);
    await sendMessage('One thing');
    await screen.findByTestId('a');
    view.rerender(<RemountPage agent={agent} config={config} hookKey={1} />);
    await screen.findByTestId('a');
    await sendMessage('Something else');
    expect(await screen.findByText('Answer or dismiss this card before sending a new message.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Answer a' }));
    expect(await screen.findByText('Done, and about your message.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-a', status: 'resolved', payload: 'A' }]);
    expect(agent.runs[1].messages.some((m) => m.role === 'user' && m.content === 'Something else')).toBe(true);
    expect(screen.queryByText('Answer or dismiss this card before sending a new message.')).not.toBeInTheDocument();
    expect(shown('a')).toBe(1);
  });

  it('given an answered card and a sibling with expiresAt, when the hook remounts and the deadline passes, should show Expired once and send cancelled for it with the answer', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const soon = { ...A, expiresAt: new Date(Date.now() + 1500).toISOString() };
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(soon, B))] : reply(input, n, 'Sure, what next?'),
    );
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('Two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    await waitFor(() => expect(screen.getByTestId('a-readonly')).toHaveAttribute('data-status', 'expired'), { timeout: 4000 });
    expect(await screen.findByText('Sure, what next?', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'int-a', status: 'cancelled' },
      { interruptId: 'int-b', status: 'resolved', payload: 'B' },
    ]);
    expect(shown('a')).toBe(1);
    expect(shown('b')).toBe(1);
  });

  it('given an open card whose expiresAt passes while the hook is unmounted, when the hook mounts again, should show Expired once and answer it cancelled with the next message', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The deadline is set when the run raises it: the card must be drawn open first, however busy the machine.
    let deadline = 0;
    const agent = new ScriptedAgent((input, n) => {
      if (n > 0) return reply(input, n, 'Sure, what next?');
      deadline = Date.now() + 1500;
      return [runStarted(input), runFinished(input, interruptOutcome({ ...A, expiresAt: new Date(deadline).toISOString() }))];
    });
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('One thing');
    await screen.findByTestId('a');
    view.rerender(<RemountPage agent={agent} hook={false} />);
    await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()) + 200));
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    await waitFor(() => expect(screen.getByTestId('a-readonly')).toHaveAttribute('data-status', 'expired'));
    await sendMessage('Never mind');
    expect(await screen.findByText('Sure, what next?')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-a', status: 'cancelled' }]);
    expect(shown('a')).toBe(1);
  });

  it('given the agent asked again with the ids of the set just answered, when the hook remounts mid-answer, should keep the new cards answerable and send their answers once, under the reused ids', async () => {
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(A, B))];
      if (n === 1) return [runStarted(input), ...textMessage('r1', 'Once more.'), runFinished(input, interruptOutcome(A, B))];
      return reply(input, n, 'All received.');
    });
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('Two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    expect(await screen.findByText('Once more.')).toBeInTheDocument();
    fireEvent.click(within(await screen.findByTestId('a')).getByRole('button', { name: 'Answer a' }));
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    const openB = await screen.findByTestId('b');
    fireEvent.click(within(openB).getByRole('button', { name: 'Answer b' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(3);
    expect(agent.runs[2].resume).toEqual([
      { interruptId: 'int-a', status: 'resolved', payload: 'A' },
      { interruptId: 'int-b', status: 'resolved', payload: 'B' },
    ]);
    await waitFor(() => expect(within(transcript()).getAllByText('status: resolved')).toHaveLength(4));
    expect(screen.queryByTestId('a')).not.toBeInTheDocument();
    expect(screen.queryByTestId('b')).not.toBeInTheDocument();
    expect(shown('a')).toBe(2);
    expect(shown('b')).toBe(2);
  });

  it('given a localStorage history, when the hook remounts with one of two cards answered, should send both and store each record resolved once', async () => {
    const history = createInterruptHistory({ persistence: 'localStorage', storageKey: 'probe:remount' });
    const config = { ...base, history };
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(A, B))] : reply(input, n, 'All received.'),
    );
    const view = render(<RemountPage agent={agent} config={config} />);
    await sendMessage('Two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    view.rerender(<RemountPage agent={agent} config={config} hookKey={1} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer b' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs[1].resume?.map((e) => e.interruptId)).toEqual(['int-a', 'int-b']);
    await waitFor(() => expect(within(transcript()).getAllByText('status: resolved')).toHaveLength(2));
    const stored = JSON.parse(localStorage.getItem('probe:remount:thread-remount') ?? '[]') as { id: string; status: string }[];
    expect(stored.map((r) => [r.id, r.status])).toEqual([
      ['int-a', 'resolved'],
      ['int-b', 'resolved'],
    ]);
  });

  it('given an open card drawn after a remount, when the hook unmounts entirely, should leave no card in the chat, and bring it back answerable when the hook mounts again', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(A))] : reply(input, n, 'All received.'),
    );
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('One thing');
    await screen.findByTestId('a');
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    await screen.findByTestId('a');
    view.rerender(<RemountPage agent={agent} hook={false} />);
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(shown('a')).toBe(0);
    view.rerender(<RemountPage agent={agent} hookKey={2} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: 'int-a', status: 'resolved', payload: 'A' }]);
    expect(shown('a')).toBe(1);
  });

  it('given an open set with one answer waiting, when the hook remounts and the chat switches thread, should show none of its cards there and reply to a message without a resume', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const agent = new ScriptedAgent((input, n) =>
      n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(A, B))] : reply(input, n, `Reply in ${input.threadId}.`),
    );
    const view = render(<RemountPage agent={agent} threadId="thread-A" />);
    await sendMessage('Two things');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    await screen.findByTestId('a-readonly');
    view.rerender(<RemountPage agent={agent} threadId="thread-A" hookKey={1} />);
    await screen.findByTestId('b');
    view.rerender(<RemountPage agent={agent} threadId="thread-B" hookKey={1} />);
    await waitFor(() => expect(screen.queryByTestId('b')).not.toBeInTheDocument());
    expect(shown('a')).toBe(0);
    await sendMessage('Hello there');
    expect(await screen.findByText('Reply in thread-B.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toBeUndefined();
    expect(agent.runs[1].threadId).toBe('thread-B');
    expect(shown('a')).toBe(0);
    expect(shown('b')).toBe(0);
  });

  it('given an answer on its way, when the hook remounts and the resume run then fails, should offer Retry, which sends the same resume once and settles the card', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const gate = createGate();
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(A))];
      if (n === 1) return [runStarted(input), gate.wait, runError('The service is down')];
      return reply(input, n, 'All received.');
    });
    const view = render(<RemountPage agent={agent} />);
    await sendMessage('One thing');
    fireEvent.click(await screen.findByRole('button', { name: 'Answer a' }));
    await waitFor(() => expect(agent.runs).toHaveLength(2));
    view.rerender(<RemountPage agent={agent} hookKey={1} />);
    await act(async () => gate.open());
    fireEvent.click(await screen.findByRole('button', { name: 'Retry a' }));
    expect(await screen.findByText('All received.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(3);
    expect(agent.runs[2].resume).toEqual(agent.runs[1].resume);
    await waitFor(() => expect(screen.getByTestId('a-readonly')).toHaveAttribute('data-status', 'resolved'));
    expect(shown('a')).toBe(1);
  });
});
