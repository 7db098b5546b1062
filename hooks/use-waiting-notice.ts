import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { resolveLabels } from '../src/i18n/labels';
import type { InterruptLocale } from '../src/i18n/locale';
import { noticeShows, waitingTitle } from '../src/notice';

/** What the hook does when cards wait in a tab the user is not looking at. */
export interface WaitingNoticeOptions {
  /** Put "(1) Waiting for you" in front of the tab's title until the cards are answered. Default `true`. */
  title?: boolean;
  /**
   * Show one browser notification when a card opens in a hidden tab. Off by default. Permission is
   * asked at the user's first click or key press after the hook mounts, never on load.
   */
  notification?: boolean;
}

/** The slice of the controller the notice reads. */
export interface WaitingSource {
  subscribe(listener: () => void): () => void;
  readonly pendingCount: number;
  readonly waiting: ReadonlyArray<{ message?: string }>;
}

const hasDocument = () => typeof document !== 'undefined';
const notifications = () => (typeof Notification === 'undefined' ? undefined : Notification);
const nothingWaits = () => 0;

/**
 * Makes a card that opens while the tab is hidden noticeable: the tab's title counts the cards
 * waiting until they are answered, and (opt-in) one browser notification says what the agent asks.
 * Both go away once nothing waits.
 */
export function useWaitingNotice(
  source: WaitingSource,
  options: WaitingNoticeOptions | false | undefined,
  locale: InterruptLocale | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): void {
  const title = options !== false && options?.title !== false;
  const notify = options !== false && options?.notification === true;
  const pending = useSyncExternalStore(source.subscribe, () => source.pendingCount, nothingWaits);
  const hidden = useHidden();
  const shown = useRef<{ base: string; text: string } | null>(null);
  const notice = useRef<Notification | null>(null);
  // Resolved once per language, not on every render of the hook (it builds a whole label table).
  const label = useMemo(() => resolveLabels(locale, labels).waitingTitle, [locale, labels]);

  // The title: set while the notice shows, the page's own title put back after.
  useEffect(() => {
    if (!title || !hasDocument()) return;
    if (noticeShows(pending, hidden, shown.current !== null)) {
      // The page may have changed its title meanwhile: keep what it set as the base.
      const base = shown.current && document.title === shown.current.text ? shown.current.base : document.title;
      const text = waitingTitle(base, pending, label);
      document.title = text;
      shown.current = { base, text };
    } else if (shown.current) {
      if (document.title === shown.current.text) document.title = shown.current.base;
      shown.current = null;
    }
  }, [title, pending, hidden, label]);
  useEffect(
    () => () => {
      if (shown.current && hasDocument() && document.title === shown.current.text) document.title = shown.current.base;
      shown.current = null;
    },
    [],
  );

  // The notification: one when cards start waiting in a hidden tab, closed once nothing waits.
  useEffect(() => {
    const api = notifications();
    if (!notify || !api) return;
    if (pending === 0) {
      notice.current?.close();
      notice.current = null;
    } else if (hidden && !notice.current && api.permission === 'granted') {
      const first = source.waiting[0];
      notice.current = new api(waitingTitle('', pending, label), { body: first?.message ?? '', tag: 'copilotkit-interrupts' });
      notice.current.onclick = () => window.focus();
    }
  }, [notify, pending, hidden, label, source]);
  useEffect(() => () => notice.current?.close(), []);

  // Permission: asked from the user's first gesture, as browsers require, never on load.
  useEffect(() => {
    const api = notifications();
    if (!notify || !api || api.permission !== 'default' || !hasDocument()) return;
    const ask = () => {
      remove();
      void api.requestPermission();
    };
    const remove = () => {
      document.removeEventListener('pointerdown', ask, true);
      document.removeEventListener('keydown', ask, true);
    };
    document.addEventListener('pointerdown', ask, true);
    document.addEventListener('keydown', ask, true);
    return remove;
  }, [notify]);
}

const followVisibility = (listener: () => void) => {
  document.addEventListener('visibilitychange', listener);
  return () => document.removeEventListener('visibilitychange', listener);
};

/** Whether the tab is hidden, following `visibilitychange`. */
function useHidden(): boolean {
  return useSyncExternalStore(
    followVisibility,
    () => document.hidden,
    () => false,
  );
}
