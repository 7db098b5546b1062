import { lazy, Suspense, useId, useState } from 'react';
import type { PendingInterrupt, PendingThread } from '../src/inbox';
import { InterruptReason } from '../src/protocol/constants';
import type { InboxCardsConfig } from './pending-thread-cards';

// Fetched the first time a thread's cards are opened: a list that only links to the chat carries
// no card code (nor CopilotKit's hooks).
const PendingThreadCards = lazy(() => import('./pending-thread-cards').then((m) => ({ default: m.PendingThreadCards })));

/** What the list says; every entry has an English default (`PENDING_LIST_LABELS`). */
export interface PendingInterruptsListLabels {
  /** The list's heading (and its accessible name). */
  heading: string;
  /** Nothing waits. */
  empty: string;
  /** Before the first check has answered. */
  loading: string;
  /** The button that checks again after an error. */
  retry: string;
  /** How long a thread has waited, e.g. "waiting 5 min". */
  waiting: (duration: string) => string;
  /** Time left before the oldest expiring interrupt expires, e.g. "expires in 10 min". */
  expiresIn: (duration: string) => string;
  /** An interrupt past its expiry that the agent has not closed yet. */
  expired: string;
  /** A duration: "less than a minute", "5 min", "3 h", "2 days". */
  duration: (ms: number) => string;
  /** What kind of answer an interrupt asks for, by reason; anything else reads `other` (a request the agent waits on). */
  reasons: Record<string, string>;
  other: string;
  /** An interrupt with neither title nor message. */
  untitled: string;
  /** Said of the thread the chat shows now. */
  current: string;
  /** The button that opens a thread's cards in the list (with `answerInPlace`). */
  answerHere: string;
  /** The button that closes them again. */
  closeAnswer: string;
  /** While a thread's cards are read. */
  opening: string;
  /** Said of a thread answered in the list: the server has the answer, and the row stays until closed. */
  answered: string;
  /** A thread's cards could not be read (`error`: why); "Check again" reads them again. */
  openFailed: (error: string) => string;
}

const duration = (ms: number): string => {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
};

export const PENDING_LIST_LABELS: PendingInterruptsListLabels = {
  heading: 'Waiting for you',
  empty: 'Nothing waits for you.',
  loading: 'Checking for conversations that wait…',
  retry: 'Check again',
  waiting: (time) => `waiting ${time}`,
  expiresIn: (time) => `expires in ${time}`,
  expired: 'expired',
  duration,
  reasons: { [InterruptReason.AIDevToolApproval]: 'Approval', [InterruptReason.UserQuestion]: 'Questions' },
  other: 'Request',
  untitled: 'A question from the agent',
  current: 'open now',
  answerHere: 'Answer here',
  closeAnswer: 'Close',
  opening: 'Opening the request…',
  answered: 'answered by you',
  openFailed: (error) => `The request could not be opened: ${error}`,
};

export interface PendingInterruptsListProps {
  /** The threads that wait, longest first (`usePendingInterrupts().threads`). */
  threads: readonly PendingThread[];
  /** Called with the thread the user picked: switch the chat to it (`<CopilotChat threadId>`). */
  onSelect: (threadId: string) => void;
  /** The thread the chat shows now: marked `aria-current`. */
  currentThreadId?: string;
  /** What went wrong with the last check (`usePendingInterrupts().error`); the threads of the last good check stay listed. */
  error?: string | null;
  /** True until the first check has answered (`usePendingInterrupts().loading`). */
  loading?: boolean;
  /** Offered as "Check again" next to an error (`usePendingInterrupts().refresh`). */
  onRetry?: () => void;
  /**
   * The time the expiry is counted from, ms since the epoch. Default: the time of the last check,
   * the same moment `waitingFor` was measured at (so both read as of that check).
   */
  now?: number;
  labels?: Partial<PendingInterruptsListLabels>;
  className?: string;
  /**
   * Let the user answer a thread's interrupts in the list, without opening the chat: each thread
   * gets an "Answer here" button that opens its cards below it, drawn and sent as in the chat (the
   * options are `useInterruptRenderers`' own, less `agentId` and `renderInChat`). The list must
   * then sit inside the `CopilotKitProvider`. An answer is the chat's resume run on that thread; the
   * runner checks it as always. Once the server has it the thread is no longer listed as waiting,
   * but its row stays where it was, marked answered, with its cards read-only, until the user
   * closes it (or opens another thread's cards). A thread whose cards cannot be read says why in
   * its row (`role="alert"`) with "Check again".
   */
  answerInPlace?: InboxCardsConfig;
  /** The runtime's agent of a thread whose rows do not name one. Default `'default'`. */
  agentId?: string;
}

const titleOf = (interrupt: PendingInterrupt, labels: PendingInterruptsListLabels) =>
  interrupt.title ?? interrupt.message ?? labels.untitled;

/** The soonest expiry among a thread's interrupts, ms since the epoch, or undefined. */
function soonestExpiry(thread: PendingThread): number | undefined {
  const times = thread.interrupts.flatMap((interrupt) => {
    const at = interrupt.expiresAt ? Date.parse(interrupt.expiresAt) : Number.NaN;
    return Number.isNaN(at) ? [] : [at];
  });
  return times.length > 0 ? Math.min(...times) : undefined;
}

/**
 * The inbox as a list: every thread that waits for the user, with what it asks (kind and title),
 * how long it has waited and when it expires. Each thread is a button that calls `onSelect`; the
 * app switches its chat to that thread. Controlled by props: give it what `usePendingInterrupts`
 * returns. Shows a clear message when the check failed (the last good list stays), and says so
 * when nothing waits.
 */
export function PendingInterruptsList({
  threads,
  onSelect,
  currentThreadId,
  error = null,
  loading = false,
  onRetry,
  now,
  labels: overrides,
  className,
  answerInPlace,
  agentId = 'default',
}: PendingInterruptsListProps) {
  const labels = { ...PENDING_LIST_LABELS, ...overrides };
  const headingId = useId();
  const cardsId = useId();
  // The thread whose cards are open in the list, as it was listed then (and where).
  const [openedAt, setOpenedAt] = useState<Opened | null>(null);
  const opened = openedAt?.thread.threadId ?? null;
  const shown = withKeptOpen(threads, openedAt);
  return (
    <section
      className={['cki-root', 'cki-inbox', className].filter(Boolean).join(' ')}
      aria-labelledby={headingId}
      aria-busy={loading || undefined}
      data-testid="pending-interrupts"
    >
      <h2 id={headingId} className="cki-inbox__heading">
        {labels.heading}
        {threads.length > 0 ? <span className="cki-inbox__count"> ({threads.length})</span> : null}
      </h2>
      {error ? (
        <div className="cki-inbox__error" role="alert" data-testid="pending-interrupts-error">
          <p className="cki-error__text">{error}</p>
          {onRetry ? (
            <button type="button" className="cki-button cki-button--ghost" onClick={onRetry}>
              {labels.retry}
            </button>
          ) : null}
        </div>
      ) : null}
      <div role="status" className="cki-inbox__status">
        {loading && threads.length === 0 ? (
          <p className="cki-inbox__note">{labels.loading}</p>
        ) : shown.kept ? (
          <p className="cki-inbox__note" data-testid="pending-thread-answered">
            {labels.answered}
          </p>
        ) : !loading && !error && threads.length === 0 ? (
          <p className="cki-inbox__note" data-testid="pending-interrupts-empty">
            {labels.empty}
          </p>
        ) : null}
      </div>
      {shown.threads.length > 0 ? (
        <ul className="cki-inbox__list">
          {shown.threads.map((thread) => {
            const answered = thread === shown.kept;
            const waited = Math.max(...thread.interrupts.map((interrupt) => interrupt.waitingFor));
            const expiry = soonestExpiry(thread);
            const first = thread.interrupts[0]!;
            const at = now ?? Date.parse(first.raisedAt) + first.waitingFor;
            const current = thread.threadId === currentThreadId;
            const kinds = [
              ...new Set(
                thread.interrupts.map(
                  (interrupt) =>
                    (Object.hasOwn(labels.reasons, interrupt.reason) ? labels.reasons[interrupt.reason] : undefined) ?? labels.other,
                ),
              ),
            ];
            return (
              <li key={thread.threadId} className="cki-inbox__item" data-answered={answered || undefined}>
                <button
                  type="button"
                  className="cki-inbox__thread"
                  aria-current={current ? 'true' : undefined}
                  data-thread-id={thread.threadId}
                  data-testid="pending-thread"
                  onClick={() => onSelect(thread.threadId)}
                >
                  <span className="cki-inbox__kind">
                    {kinds.join(', ')}
                    {thread.interrupts.length > 1 ? ` (${thread.interrupts.length})` : ''}
                  </span>
                  <span className="cki-inbox__title">{thread.interrupts.map((interrupt) => titleOf(interrupt, labels)).join(' · ')}</span>
                  <span className="cki-inbox__meta">
                    {labels.waiting(labels.duration(waited))}
                    {expiry !== undefined ? `, ${expiry <= at ? labels.expired : labels.expiresIn(labels.duration(expiry - at))}` : ''}
                    {current ? `, ${labels.current}` : ''}
                    {answered ? `, ${labels.answered}` : ''}
                  </span>
                </button>
                {answerInPlace ? (
                  <button
                    type="button"
                    className="cki-button cki-button--ghost cki-inbox__answer"
                    aria-expanded={opened === thread.threadId}
                    aria-controls={opened === thread.threadId ? `${cardsId}-cards` : undefined}
                    data-testid="pending-thread-answer"
                    onClick={() => setOpenedAt(opened === thread.threadId ? null : { thread, index: threads.indexOf(thread) })}
                  >
                    {opened === thread.threadId ? labels.closeAnswer : labels.answerHere}
                  </button>
                ) : null}
                {answerInPlace && opened === thread.threadId ? (
                  <div id={`${cardsId}-cards`} className="cki-inbox__cards" data-testid="pending-thread-cards">
                    <Suspense fallback={<p className="cki-inbox__note">{labels.opening}</p>}>
                      <PendingThreadCards
                        threadId={thread.threadId}
                        runtimeAgentId={first.agentId ?? agentId}
                        interruptIds={thread.interrupts.map((interrupt) => interrupt.interruptId)}
                        config={answerInPlace}
                        loading={<p className="cki-inbox__note">{labels.opening}</p>}
                        labels={{ failed: labels.openFailed, retry: labels.retry }}
                      />
                    </Suspense>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}

/** A thread whose cards are open in the list: as it was listed when opened, and its place. */
interface Opened {
  thread: PendingThread;
  index: number;
}

/**
 * The threads to draw: `threads`, and the one whose cards are open in the list once it left them
 * (answered there), kept in its place so its cards stay mounted; `kept` is that one.
 */
function withKeptOpen(
  threads: readonly PendingThread[],
  opened: Opened | null,
): { threads: readonly PendingThread[]; kept?: PendingThread } {
  if (!opened || threads.some((thread) => thread.threadId === opened.thread.threadId)) return { threads };
  const withKept = [...threads];
  withKept.splice(Math.min(Math.max(opened.index, 0), withKept.length), 0, opened.thread);
  return { threads: withKept, kept: opened.thread };
}
