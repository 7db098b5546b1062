import { formatLabel } from '../i18n/labels';

/**
 * The tab's title while cards wait for the user: the label with the count in front of the page's
 * own title ("(2) Waiting for you · Acme"). Pure, so the rule lives here and the hook only
 * carries it out.
 */
export function waitingTitle(base: string, count: number, label: string): string {
  const prefix = formatLabel(label, { count });
  return base ? `${prefix} · ${base}` : prefix;
}

/**
 * Whether the notice shows: something waits, and either the tab is hidden now or the notice is
 * already up (it stays until the cards are answered, not only until the tab is looked at: a glance
 * at the tab is not an answer).
 */
export function noticeShows(pending: number, hidden: boolean, shown: boolean): boolean {
  return pending > 0 && (hidden || shown);
}
