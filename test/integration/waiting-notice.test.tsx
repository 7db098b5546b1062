import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalInterrupt, questionInterrupt } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { makeTestCard, renderChat, sendMessage } from './harness';
import { zhCN } from '../../src/i18n/locales/zh-CN';
import type { InterruptRenderersConfig } from '../../hooks/types';

const PAGE_TITLE = 'Acme support';
const renderers = { 'aidev:tool_approval': makeTestCard('approval'), 'aidev:user_question': makeTestCard('question') };

/** The agent stops with `interrupts` on its first run and replies on the next. */
const agentRaising = (...interrupts: unknown[]) =>
  new ScriptedAgent((input, n) =>
    n === 0
      ? [runStarted(input), runFinished(input, interruptOutcome(...interrupts))]
      : [runStarted(input), ...textMessage(`reply-${n}`, 'Done.'), runFinished(input)],
  );

/** The tab as the browser reports it: hidden or visible, with the event pages listen to. */
function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** The browser's notification API as a page sees it: what was shown, and the permission asked. */
class BrowserNotifications {
  static permission: NotificationPermission = 'default';
  static asked = 0;
  static shown: Array<{ title: string; body?: string; closed: boolean }> = [];
  static async requestPermission() {
    BrowserNotifications.asked += 1;
    BrowserNotifications.permission = 'granted';
    return BrowserNotifications.permission;
  }
  entry: { title: string; body?: string; closed: boolean };
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    this.entry = { title, body: options?.body, closed: false };
    BrowserNotifications.shown.push(this.entry);
  }
  close() {
    this.entry.closed = true;
  }
}

async function openCards(config: InterruptRenderersConfig, ...interrupts: unknown[]) {
  renderChat({ agent: agentRaising(...interrupts), config: { resolveDelayMs: 0, defaults: renderers, ...config } });
  await sendMessage('Go');
}

describe('a card that opens while the tab is hidden', () => {
  beforeEach(() => {
    document.title = PAGE_TITLE;
    BrowserNotifications.permission = 'default';
    BrowserNotifications.asked = 0;
    BrowserNotifications.shown = [];
    Object.assign(globalThis, { Notification: BrowserNotifications });
  });
  afterEach(() => {
    setHidden(false);
    Reflect.deleteProperty(globalThis, 'Notification');
  });

  it('given a hidden tab, should count the waiting cards in the title until they are answered', async () => {
    setHidden(true);
    await openCards({}, approvalInterrupt, questionInterrupt);
    await waitFor(() => expect(document.title).toBe(`(2) Waiting for you · ${PAGE_TITLE}`));
    // Looking at the tab is not answering: the notice stays.
    setHidden(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    await waitFor(() => expect(document.title).toBe(`(1) Waiting for you · ${PAGE_TITLE}`));
    fireEvent.click(screen.getByRole('button', { name: 'Answer question' }));
    await waitFor(() => expect(document.title).toBe(PAGE_TITLE));
    expect(await screen.findByText('Done.')).toBeInTheDocument();
  });

  it('given a visible tab, should leave the title alone until the user looks away', async () => {
    await openCards({}, approvalInterrupt);
    await screen.findByRole('button', { name: 'Answer approval' });
    expect(document.title).toBe(PAGE_TITLE);
    setHidden(true);
    await waitFor(() => expect(document.title).toBe(`(1) Waiting for you · ${PAGE_TITLE}`));
  });

  it('when the user dismisses the card by chatting on, should put the title back', async () => {
    setHidden(true);
    await openCards({}, approvalInterrupt);
    await waitFor(() => expect(document.title).toBe(`(1) Waiting for you · ${PAGE_TITLE}`));
    setHidden(false);
    await sendMessage('Never mind');
    await waitFor(() => expect(document.title).toBe(PAGE_TITLE));
  });

  it('should speak the cards language in the title', async () => {
    setHidden(true);
    await openCards({ ...zhCN }, approvalInterrupt);
    await waitFor(() => expect(document.title).toBe(`（1）等待你的回复 · ${PAGE_TITLE}`));
  });

  it('with waitingNotice: false, should never touch the title', async () => {
    setHidden(true);
    await openCards({ waitingNotice: false }, approvalInterrupt);
    await screen.findByRole('button', { name: 'Answer approval' });
    expect(document.title).toBe(PAGE_TITLE);
  });

  it('should not ask for notification permission on load, only at a user gesture, and only when opted in', async () => {
    await openCards({}, approvalInterrupt);
    await screen.findByRole('button', { name: 'Answer approval' });
    expect(BrowserNotifications.asked).toBe(0);
    fireEvent.pointerDown(document.body);
    expect(BrowserNotifications.asked).toBe(0);
  });

  it('with notification: true, should show one notification in a hidden tab and close it once answered', async () => {
    renderChat({
      agent: agentRaising(approvalInterrupt),
      config: { resolveDelayMs: 0, defaults: renderers, waitingNotice: { notification: true } },
    });
    expect(BrowserNotifications.asked).toBe(0);
    // The user's first gesture (a click into the chat) asks for permission.
    fireEvent.pointerDown(await screen.findByTestId('copilot-chat-textarea'));
    expect(BrowserNotifications.asked).toBe(1);
    await sendMessage('Go');
    setHidden(true);
    await waitFor(() => expect(BrowserNotifications.shown).toHaveLength(1));
    expect(BrowserNotifications.shown[0]).toMatchObject({ title: '(1) Waiting for you', closed: false });
    setHidden(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Answer approval' }));
    await waitFor(() => expect(BrowserNotifications.shown[0].closed).toBe(true));
    expect(BrowserNotifications.shown).toHaveLength(1);
  });
});
