import type { InterruptPeople } from '../protocol/types';
import { EN_LABELS, formatLabel, type InterruptLabels } from './labels';

/** "Dan or Erin": a disjunction in the reader's language, or a plain join where Intl cannot. */
function either(names: readonly string[], locale: string | undefined): string {
  try {
    return new Intl.ListFormat(locale, { type: 'disjunction' }).format(names);
  } catch {
    return names.join(' / ');
  }
}

/**
 * What an open card the viewer may not answer says: "Waiting for Dan or anyone in on-call", "Waiting
 * for someone else", or "No one can answer this request".
 *
 * @example
 * waitingText({ viewerMayAnswer: false, waitingFor: [{ id: 'dan', name: 'Dan' }] }, EN_LABELS, 'en'); // 'Waiting for Dan'
 */
export function waitingText(people: InterruptPeople, labels: InterruptLabels, locale?: string): string {
  if (people.noOne) return labels.waitingForNoOne ?? EN_LABELS.waitingForNoOne!;
  const who = waitingWho(people, labels, locale);
  if (who === undefined) return labels.waitingForSomeoneElse ?? EN_LABELS.waitingForSomeoneElse!;
  return formatLabel(labels.waitingFor ?? EN_LABELS.waitingFor!, { who });
}

/** "Dan or anyone in on-call": who a card waits for, by name; undefined when it names no one in particular. */
function waitingWho(people: InterruptPeople, labels: InterruptLabels, locale?: string): string | undefined {
  const names = people.waitingFor.map((approver) =>
    'role' in approver
      ? formatLabel(labels.approverRole ?? EN_LABELS.approverRole!, { role: approver.role })
      : (approver.name ?? approver.id),
  );
  return names.length === 0 ? undefined : either(names, locale);
}

/**
 * Above a card the viewer answered while another card of its set waits for someone else: "Not sent
 * yet: the agent takes the answers of this set together, and one request waits for Dan."
 */
export function answerHeldText(waitingOn: InterruptPeople, labels: InterruptLabels, locale?: string): string {
  const who = (!waitingOn.noOne && waitingWho(waitingOn, labels, locale)) || (labels.someoneElse ?? EN_LABELS.someoneElse!);
  return formatLabel(labels.answerHeldForOthers ?? EN_LABELS.answerHeldForOthers!, { who });
}

/** A moment as a card's footnote shows it: the time today, else the day and the time. */
function shortMoment(at: string, locale: string | undefined, now: Date): string {
  const moment = new Date(at);
  const today = moment.toDateString() === now.toDateString();
  const options: Intl.DateTimeFormatOptions = today
    ? { hour: '2-digit', minute: '2-digit' }
    : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };
  try {
    return new Intl.DateTimeFormat(locale, options).format(moment);
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(moment);
  }
}

/**
 * "Approved by Ana · 10:42" under a card someone other than the viewer answered; undefined when the
 * viewer did, or no one is known to have.
 */
export function answeredByText(
  people: InterruptPeople | undefined,
  outcome: string,
  labels: InterruptLabels,
  locale?: string,
  now: Date = new Date(),
): string | undefined {
  const by = people?.answeredBy;
  if (!by || by.isViewer) return undefined;
  const template = labels.answeredByOther ?? EN_LABELS.answeredByOther!;
  const text = formatLabel(template, { outcome, name: by.name ?? by.id, time: by.at ? shortMoment(by.at, locale, now) : '' });
  return by.at ? text : text.replace(/\s*·\s*$/, '');
}
