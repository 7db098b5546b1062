import type { ReactNode } from 'react';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { answeredByText, waitingText } from '../../src/i18n/people-text';
import { CardFrame } from './card-frame';
import { ReadOnlyCard, type ReadOnlyCardProps } from './read-only-card';
import { SubmitState } from './submit-state';
import type { CardBasics } from './use-card-basics';

/** A card's read-only form, described: the shell adds the labels, and "Sending…" or the error under it. */
export interface ReadOnlyView extends Omit<ReadOnlyCardProps, 'labels' | 'children'> {
  /** Shown under the summary, above "Sending…" or the error. */
  note?: ReactNode;
}

export interface CardShellProps<T> {
  /** The card's renderer props (its id, status, error and Retry). */
  card: InterruptRendererProps<T>;
  /** What `useCardBasics` derived from them. */
  basics: CardBasics<T>;
  /** The card's state in words, for its live region, in every phase but `expired` (the shell says that). */
  announcement: string;
  /** The expired body's title (and `data-testid`). */
  expired?: { testId?: string; title?: string };
  /** The answered, cancelled or dismissed form; called only when that form is drawn. */
  readOnly: () => ReadOnlyView;
  /** The form the user answers with; called only while the card is open. */
  interactive: () => ReactNode;
  /** Show the read-only form although the card is still open (an answer on its way that the props do not carry yet). */
  answered?: boolean;
  /** Busy besides sending the answer (an operation of the card's own). */
  busy?: boolean;
}

/**
 * What every card does the same way: in its frame (live region, focus after answering), the
 * expired body once the deadline passed, else the read-only form (with "Sending…", the error and
 * Retry, and who answered when it was someone else) once answered, cancelled or dismissed, else the
 * interactive form, read-only under "Waiting for …" when the runner says the viewer may not
 * answer it. A card supplies its parts.
 */
export function CardShell<T>({ card, basics, announcement, expired, readOnly, interactive, answered, busy }: CardShellProps<T>) {
  const { phase, labels, submitting } = basics;
  const { people } = card.interrupt;
  const waiting =
    phase === 'interactive' && !answered && people?.viewerMayAnswer === false ? waitingText(people, labels, basics.locale) : undefined;
  let body: ReactNode;
  let said = announcement;
  if (waiting !== undefined) {
    said = waiting;
    // The request in full, to read; its controls disabled: the server takes no answer from this viewer.
    body = (
      <div className="cki-waiting" data-testid="interrupt-waiting">
        <p className="cki-notice cki-waiting__for" data-testid="interrupt-waiting-for">
          {waiting}
        </p>
        <fieldset className="cki-waiting__request" disabled aria-label={waiting}>
          {interactive()}
        </fieldset>
      </div>
    );
  } else if (phase === 'expired') {
    // No answer was or will be sent.
    body = (
      <ReadOnlyCard
        labels={labels}
        tone="neutral"
        badge={labels.expired}
        answer={labels.expiredText}
        className="cki-card--expired"
        {...expired}
      />
    );
  } else if (phase !== 'interactive' || answered) {
    const { note, ...view } = readOnly();
    const by = answeredByText(people, view.badge, labels, basics.locale);
    // Its live region says who answered: "Approved by Ana · 10:42" reads whole, the badge in it.
    if (by) said = announcement === view.badge || !announcement ? by : `${announcement} ${by}`;
    body = (
      <ReadOnlyCard labels={labels} {...view}>
        {by ? (
          <p className="cki-answered-by" data-testid="interrupt-answered-by">
            {by}
          </p>
        ) : null}
        {note}
        <SubmitState status={card.status} submitting={submitting} labels={labels} error={card.error} retry={card.retry} />
      </ReadOnlyCard>
    );
  } else {
    body = interactive();
  }
  return (
    <CardFrame
      interruptId={card.interrupt.id}
      locale={basics.locale}
      announcement={basics.announce(phase === 'expired' ? labels.expired : said)}
      phase={waiting !== undefined ? 'waiting' : phase}
      busy={submitting || busy}
    >
      {body}
    </CardFrame>
  );
}
