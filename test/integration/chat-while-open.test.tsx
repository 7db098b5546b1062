import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { approvalInterrupt, mastraScheduleInterrupt } from '../fixtures/interrupts';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage, type RunScript } from '../helpers/scripted-agent';
import { defaultRenderers } from '../../components/default-renderers';
import { createInterruptHistory } from '../../src/history';
import { makeTestCard, renderChat, sendMessage, transcript } from './harness';
import { zhCN } from '../../src/i18n/locales/zh-CN';

// No flow here logs an error: the run the chat starts carries the cards' answers (or waits), so
// AG-UI never refuses it.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
});
afterEach(() => {
  vi.restoreAllMocks();
  expect(errors).toEqual([]);
});

const NOTICE = 'Answer or dismiss this card before sending a new message.';

describe("a chat message while an interrupt is open, with onChatWhileOpen: 'block'", () => {
  it('tells the user on the open card to answer it first, and the answer then goes through', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))]
        : [runStarted(input), ...textMessage(`reply-${n}`, 'Approved, carrying on.'), runFinished(input)],
    );
    renderChat({
      agent,
      config: { onChatWhileOpen: 'block', resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } },
    });
    await sendMessage('Review it');
    const card = await screen.findByTestId('approval');
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();

    await sendMessage('Is anyone there?');
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(NOTICE);
    // Shown with the open card, and the message the user typed is still in the transcript.
    expect(card.closest('.cki-interrupt')).toContainElement(notice);
    expect(within(transcript()).getByText('Is anyone there?')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(1);

    fireEvent.click(within(card).getByRole('button', { name: 'Answer approval' }));
    expect(await screen.findByText('Approved, carrying on.')).toBeInTheDocument();
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'resolved', payload: { ok: true } }]);
    await waitFor(() => expect(screen.getByTestId('approval-readonly')).toHaveAttribute('data-status', 'resolved'));
  });

  it('says it in the configured locale', async () => {
    const agent = new ScriptedAgent((input) => [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))]);
    renderChat({ agent, config: { ...zhCN, onChatWhileOpen: 'block', renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('审批一下');
    await screen.findByTestId('approval');
    await sendMessage('在吗？');
    expect(await screen.findByRole('alert')).toHaveTextContent('请先回答或忽略此卡片，再发送新消息。');
  });
});

describe('a chat message while an interrupt is open (steer away, the default)', () => {
  it('dismisses the open card, answers it cancelled with the message, and the message gets its reply', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))]
        : [runStarted(input), ...textMessage(`reply-${n}`, 'Sure, let us talk about that instead.'), runFinished(input)],
    );
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('Review it');
    await screen.findByTestId('approval');

    await sendMessage('Actually, something else');
    expect(await screen.findByText('Sure, let us talk about that instead.')).toBeInTheDocument();
    // One run answers the interrupt `cancelled` and carries the user's message.
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'cancelled' }]);
    expect(agent.runs[1].messages.some((m) => m.role === 'user' && m.content === 'Actually, something else')).toBe(true);
    const card = await screen.findByTestId('approval-readonly');
    await waitFor(() => expect(card).toHaveAttribute('data-status', 'dismissed'));
    expect(screen.queryByText(NOTICE)).not.toBeInTheDocument();
  });

  it('asks the agent once more when the cancelled run ends without a reply (as Mastra does)', async () => {
    const agent = new ScriptedAgent((input, n) => {
      if (n === 0) return [runStarted(input), runFinished(input, interruptOutcome(approvalInterrupt))];
      if (input.resume) return [runStarted(input), runFinished(input)]; // winds the tool down, says nothing
      return [runStarted(input), ...textMessage(`reply-${n}`, 'Hello! What else can I do?'), runFinished(input)];
    });
    renderChat({ agent, config: { resolveDelayMs: 0, renderers: { 'aidev:tool_approval': makeTestCard('approval') } } });
    await sendMessage('Review it');
    await screen.findByTestId('approval');
    await sendMessage('Hello');
    expect(await screen.findByText('Hello! What else can I do?')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(3);
    expect(agent.runs[1].resume).toEqual([{ interruptId: approvalInterrupt.id, status: 'cancelled' }]);
    expect(agent.runs[2].resume).toBeUndefined();
  });

  it('says Dismissed in the configured locale', async () => {
    const agent = new ScriptedAgent((input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))]
        : [runStarted(input), ...textMessage(`r${n}`, '好的'), runFinished(input)],
    );
    renderChat({ agent, config: { ...zhCN, resolveDelayMs: 0, defaults: defaultRenderers } });
    await sendMessage('约个时间');
    await screen.findByTestId('time-picker-card');
    await sendMessage('换个话题');
    expect(await screen.findByText('好的')).toBeInTheDocument();
    // The card's own badge says it (the real card, in its locale); no second notice above it.
    const card = await screen.findByTestId('time-picker-cancelled');
    await waitFor(() => expect(card).toHaveTextContent(zhCN.labels.dismissed));
    expect(card).not.toHaveTextContent(zhCN.labels.timePickerCancelled);
    expect(screen.queryAllByText(zhCN.labels.dismissed)).toHaveLength(1);
  });

  it('keeps "Dismissed" on the card after a reload, read from the stored history', async () => {
    const script: RunScript = (input, n) =>
      n === 0
        ? [runStarted(input), runFinished(input, interruptOutcome(mastraScheduleInterrupt))]
        : [runStarted(input), ...textMessage(`r${n}`, 'Happy to talk about something else.'), runFinished(input)];
    const history = () => createInterruptHistory({ persistence: 'localStorage', storageKey: 'test:dismissed' });
    const agent = new ScriptedAgent(script);
    const first = renderChat({
      agent,
      threadId: 'thread-d',
      config: { resolveDelayMs: 0, defaults: defaultRenderers, history: history() },
    });
    await sendMessage('Book a call with sales');
    await screen.findByTestId('time-picker-card');
    await sendMessage('Something else first');
    expect(await screen.findByText('Happy to talk about something else.')).toBeInTheDocument();
    const badge = async () => within(await screen.findByTestId('time-picker-cancelled')).getByText(/Dismissed|Cancelled/);
    await waitFor(async () => expect(await badge()).toHaveTextContent('Dismissed'));
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem('test:dismissed:thread-d') ?? '[]')).toMatchObject([{ status: 'dismissed' }]),
    );
    first.unmount();

    // The reload: a new agent restoring the transcript, a new history reading storage.
    const restored = new ScriptedAgent(script, { storedMessages: agent.messages });
    renderChat({ agent: restored, threadId: 'thread-d', config: { defaults: defaultRenderers, history: history() } });
    expect(await screen.findByText('Happy to talk about something else.')).toBeInTheDocument();
    expect(await badge()).toHaveTextContent('Dismissed');
    expect(screen.queryByText('Cancelled')).not.toBeInTheDocument();
    expect(restored.runs).toHaveLength(0);
    localStorage.clear();
  });
});
