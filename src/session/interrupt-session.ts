/**
 * The interrupt lifecycle of one chat, free of React and CopilotKit. Every method takes an event
 * and returns what to do as a value (a {@link SessionDecision}); the adapter carries it out
 * (after-paint scheduling, CopilotKit's runAgent, history writes) and reports back. Modelled on
 * CopilotKit's framework-free interrupt state, with one difference that matters: an interrupt is
 * known by where it was raised (thread, run, id), never by its id alone, so a reused id or two
 * interrupts sharing one can never take each other's answer.
 */

import type { InterruptStatus, ResumeEntry, ResumeStatus } from './status';
import type { RunErrorMeaning } from './refusal';

/** Where an interrupt was raised. */
export interface InterruptKey {
  threadId: string;
  /** The run that raised it. */
  runId: string;
  /**
   * Which stop of that run (0 first, omitted then): a resume run keeps the run id of the run it
   * continues, so an agent that asks again with the same id in the same run is still a new interrupt.
   */
  raise?: number;
  id: string;
  /**
   * The n-th further interrupt of one stop that shares `id` with an earlier one (1 for the second,
   * omitted for the first): each is its own card, since the user must see every one.
   */
  copy?: number;
}

/**
 * Where an interrupt is in the session. Finer than the {@link InterruptStatus} the user sees
 * (`statusOf` maps one to the other): the session must tell an answer waiting for its paint from
 * one on its way, and an expiry whose `cancelled` is still owed.
 *
 * - `open`: waiting for the user.
 * - `answered`: the user acted; waiting for the read-only card to be painted (and for siblings).
 * - `sending`: its resume is on its way.
 * - `resolved` / `cancelled`: the agent received the answer / the dismissal.
 * - `failed`: not delivered; `error` says why, `canRetry` whether sending again can work.
 * - `expired`: its `expiresAt` passed unanswered; the agent gets `cancelled` with the next run.
 */
export type InterruptPhase = 'open' | 'answered' | 'sending' | 'resolved' | 'failed' | 'expired' | 'cancelled';

/** The status the user sees for an interrupt (see {@link InterruptStatus}). */
export function statusOf(entry: SessionInterrupt): InterruptStatus {
  const { phase } = entry;
  const closed = entry.dismissed ? 'dismissed' : 'cancelled';
  if (phase === 'open') return 'pending';
  if (phase === 'answered' || phase === 'sending') return entry.answer?.status === 'cancelled' ? closed : 'submitting';
  if (phase === 'failed' || (phase === 'expired' && entry.error)) return 'error';
  return phase === 'cancelled' ? closed : phase;
}

/** What the user did. */
export type InterruptAnswer =
  { status: Extract<ResumeStatus, 'resolved'>; payload: unknown } | { status: Extract<ResumeStatus, 'cancelled'> };

export interface SessionInterrupt {
  key: InterruptKey;
  phase: InterruptPhase;
  answer?: InterruptAnswer;
  /** Why it failed, or why it ended without the user's answer. */
  error?: string;
  /** Closed because the user sent a chat message while it was open (steer-away). */
  dismissed?: boolean;
  /** Its read-only card has been painted since the last attach. */
  painted?: boolean;
  /** The `cancelled` owed to the agent for an expired interrupt has been handed over. */
  cancelSent?: boolean;
  /** As the agent sent it: AG-UI's client reads any value but `undefined` as a date. */
  expiresAt?: unknown;
  /**
   * The id its card and history record go by: its own id, unless an earlier interrupt of this
   * thread (or a stored record) already goes by it; then the run and stop make it unique.
   */
  recordId: string;
  /** Raised by a legacy `on_interrupt` event: its value, which the legacy resume command carries back. */
  legacyEvent?: unknown;
  /** Settled by another device's answer, which won: this tab's was refused. */
  elsewhere?: boolean;
  /**
   * The runner gave it to other people: this viewer reads it and may not answer it, not even with
   * `cancelled` (the server would refuse the whole run), so a chat message never dismisses it. It
   * stays open until they answer it.
   */
  forOthers?: boolean;
  /**
   * Refused: it shares its id with another interrupt of the same stop, and one resume entry
   * (keyed by id) cannot answer two questions. Its card says why; the agent only ever gets
   * `cancelled` for that id, with the rest of the set or with the next chat message.
   */
  refused?: boolean;
  /**
   * Raised again after the server refused an answer because the request changed since its card
   * was shown, and it is one of the changed requests (its id is new): its card says so.
   */
  changed?: boolean;
  /** Where it appeared: the id of the transcript's last message when it was first raised. */
  anchor?: string | null;
  /** Raised by a legacy `on_interrupt` event (whatever its value): a chat run cannot carry its answer. */
  legacy?: boolean;
}

/** A resume on its way, kept whole so Retry sends the very same answers. */
export interface SessionBatch {
  batchId: number;
  threadId: string;
  /** The run the resume continues. */
  runId: string;
  keys: InterruptKey[];
  resume: ResumeEntry[];
  /** Also carries the user's chat message (steer-away): the run's reply answers it. */
  withChat: boolean;
  /**
   * Goes with the run the chat is starting for the user's message (see
   * {@link InterruptSession.chatRunStarting}) instead of a run of its own.
   */
  inChatRun?: boolean;
  /**
   * How the run hands the answers over: AG-UI `resume` entries, or (for a legacy `on_interrupt`
   * event) CopilotKit's `forwardedProps.command`; `dismiss` is a legacy cancel, which only drops
   * the event: no run follows, the batch counts as delivered once carried out.
   */
  carry: { type: 'resume' } | { type: 'command'; command: { resume: unknown; interruptEvent: unknown } } | { type: 'dismiss' };
  /** The answers the app hears of as they go (`onInterruptResume`): the user's, not dismissed, expired or refused. */
  told: InterruptKey[];
  /** Passed their `expiresAt` before they went: AG-UI's client must let go of them, or it refuses the run that carries their `cancelled`. */
  expired: InterruptKey[];
}

export type SessionDecision =
  | { type: 'nothing' }
  /** Wait for the read-only card of `key` to be painted, then call `painted(key)`. */
  | { type: 'after-paint'; key: InterruptKey }
  /**
   * Send this resume (one per answered set), by a run of its own or (`inChatRun`) with the run the
   * chat is starting; report back with {@link InterruptSession.batchEnded}. Comes after the
   * `record`, `tell-app` and `forget-pending` that go with it.
   */
  | { type: 'send'; batch: SessionBatch }
  /** Tell the app (`onInterruptResume`) of the answers of `keys` as they go: the user's, not dismissed, expired or refused. */
  | { type: 'tell-app'; keys: InterruptKey[] }
  /**
   * Show on the cards of `keys` why their answers did not reach the agent. `refused`: the set
   * itself cannot be answered as the agent sent it (a console error, not a warning).
   */
  | { type: 'show-error'; keys: InterruptKey[]; message: string; canRetry: boolean; refused?: boolean }
  /**
   * Take interrupts off the agent's list of pending ones (AG-UI's client refuses every run that
   * leaves one of them unanswered): those of `keys`, or (no `keys`) all of them. All: the chat left a
   * thread whose set is still open (the client keeps one list per agent and would refuse every run
   * of the new thread; the set is kept with its thread and comes back with its replay). `keys`:
   * they expired before their `cancelled` went, another device answered them, or the run that
   * carried their answers ended without telling the client.
   */
  | { type: 'forget-pending'; keys?: InterruptKey[] }
  /** The agent's pending interrupts are `interrupts` now: a refusal as changed reopened them. */
  | { type: 'set-pending'; interrupts: Array<{ id: string; expiresAt?: unknown }> }
  /** A thread read again ended with nothing pending while cards wait here: the agent's list is put back as it was. */
  | { type: 'restore-pending' }
  /**
   * Draw the set just raised: `source` is what it was read from (a stop's interrupts, or a legacy
   * event), passed back as it came. `reopened`: drawn again after a refusal as changed.
   */
  | { type: 'draw'; kind: 'standard' | 'legacy'; source: { interrupts: unknown } | { event: unknown }; reopened?: boolean }
  /** Read the thread again from the server (its runs replayed): cards here may be settled elsewhere. */
  | { type: 'reread' }
  /** Keep today's notice on the first open card: answer it before chatting on. */
  | { type: 'answer-first'; key: InterruptKey }
  /**
   * The run the chat is starting would leave an interrupt unanswered (the user must answer first):
   * do not start it. The message stays in the transcript and goes with the answer.
   */
  | { type: 'hold-chat-run' }
  /**
   * Write the records of `keys`: the thread shows them settled by an answer this tab did not send
   * (a replay of the thread on connect, or another device).
   */
  | { type: 'record'; keys: InterruptKey[] }
  /**
   * Steer-away: the run that answered `cancelled` ended without replying to the user's message
   * (Mastra ends the run on `cancelled`): run the agent once more so the message gets its reply.
   */
  | { type: 'reply-to-chat' }
  /** Say `message` in the debug log (`setInterruptsDebug`): something normal happened that a card already shows. */
  | { type: 'debug'; message: string };

export interface SessionOptions {
  threadId: string;
  /** What a chat message does while an interrupt is open. Default `'dismiss'`. */
  onChatWhileOpen?: 'dismiss' | 'block';
  now?: () => number;
  /**
   * The stored record of `id` in `threadId`, if any (the history): a raise keeps ids unique
   * against those of records written for another raise than itself.
   */
  recordOf?: (threadId: string, id: string) => { anchor?: string | null } | undefined;
}

/** How a raise came about, for {@link InterruptSession.raised}. */
export interface RaiseOptions {
  /** The events the stop came in (a connect's, in a replay): its replay is counted on it. */
  stream?: unknown;
  /** The set is what the server says is open after refusing an answer to these as changed. */
  changedSince?: readonly InterruptKey[];
  /** Where the stop appeared: the id of the transcript's last message. */
  anchor?: string | null;
}

/** What a chat message meets: `agentWaits`, AG-UI's client lists interrupts as pending (default true). */
export interface ChatOptions {
  agentWaits?: boolean;
}

/** A legacy `on_interrupt` event a run sent. */
interface LegacyEvent {
  /** The run that sent it (unknown when CopilotKit only showed it). */
  runId?: string;
  /** Its value: what the legacy resume command carries back. */
  value: unknown;
  /** The event as it came: drawn from it. */
  event: unknown;
  anchor: string | null;
  /** What it raises (read from the event). */
  interrupts: RaisedInterrupt[];
  raised: boolean;
}

export interface RaisedInterrupt {
  id: string;
  expiresAt?: unknown;
  /** The runner said this viewer may not answer it (it waits for someone else). */
  forOthers?: boolean;
  /** Raised by a legacy `on_interrupt` event: the event's value. */
  legacyEvent?: unknown;
}

const NOTHING: SessionDecision = { type: 'nothing' };
const real = (decisions: SessionDecision[]) => decisions.filter((d) => d.type !== 'nothing');
const SEP = '\u0000';

export const keyOf = (key: InterruptKey): string => [key.threadId, key.runId, key.raise ?? 0, key.id, key.copy ?? 0].join(SEP);

export const sameKey = (a: InterruptKey, b: InterruptKey): boolean => keyOf(a) === keyOf(b);

/** Which copy of its id each of `ids` is: 0 for an id's first, 1 for its second, and so on. */
function copiesOf(ids: readonly string[]): number[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const copy = seen.get(id) ?? 0;
    seen.set(id, copy + 1);
    return copy;
  });
}

/** The key among `keys` of each of `ids`, if any (a repeated id: the key of that copy). */
export function keysFor(keys: readonly InterruptKey[], ids: readonly string[]): Array<InterruptKey | undefined> {
  const copies = copiesOf(ids);
  return ids.map((id, n) => keys.find((k) => k.id === id && (k.copy ?? 0) === copies[n]));
}

/**
 * Read as AG-UI's client reads it (`new Date(expiresAt)`), since it refuses every run, the one
 * answering the interrupt included, while it holds one it reads as past: `null` and numbers are
 * dates to it, an unparseable text never passes.
 */
export function isPastExpiry(expiresAt: unknown, now: number): boolean {
  return expiresAt !== undefined && new Date(expiresAt as string).getTime() <= now;
}

/** A run that did not carry the answer started first; the answer is kept for Retry. */
export const NOT_HANDED_OVER =
  'Not sent: CopilotKit no longer had this interrupt open (or the agent refused the run), so the answer never reached the agent.';
const NO_LONGER_OPEN = 'The interrupt is no longer open, so the answer could not be sent.';
const SUPERSEDED = 'Not sent: the agent asked something new before every card of this set was answered.';
/** The approval was given to a request that changed since it was shown: the server refused it. */
export const REQUEST_CHANGED = 'This request changed. Review it again.';
const ANSWERED_ELSEWHERE_UNSENT = 'Not sent: another device answered this set first.';
/** Why every interrupt of a stop that shares an id with another is refused. */
export const sharedIdMessage = (id: string, count: number) =>
  `Refused: the agent sent ${count} interrupts with the same id "${id}". One answer would cover all of them, so none can be answered here; the agent gets "cancelled" for it.`;
const expiredBeforeSent = (key: InterruptKey) => `Not sent: interrupt "${key.id}" expired before the answer went out.`;

/** An answer whose read-only card has been painted: it waits only for its siblings. */
const paintedAnswer = (entry: SessionInterrupt) => entry.phase === 'answered' && !!entry.painted;
/** Owes the agent only a `cancelled` (expired or refused), not yet handed over. */
const owesCancel = (entry: SessionInterrupt) => (entry.phase === 'expired' || !!entry.refused) && !entry.cancelSent;
/** Needs nothing more from the user and owes the agent nothing: answered (or ended) for good. */
const settled = (entry: SessionInterrupt) => entry.phase !== 'open' && entry.phase !== 'answered' && !owesCancel(entry);
/** Needs nothing more from the user: goes with the set as it is. */
const ready = (entry: SessionInterrupt) => paintedAnswer(entry) || entry.phase === 'expired' || !!entry.refused;
const sameIds = (keys: readonly InterruptKey[], ids: readonly string[]) =>
  keys.length === ids.length && keys.every((k, i) => k.id === ids[i]);

export class InterruptSession {
  #threadId: string;
  #policy: 'dismiss' | 'block';
  #now: () => number;
  #entries = new Map<string, SessionInterrupt>();
  /** The interrupts the agent is suspended on in the current thread, in the order raised. */
  #open: InterruptKey[] = [];
  #batches = new Map<number, SessionBatch>();
  /** Batches that failed, by the key of each member, for Retry. */
  #failed = new Map<string, SessionBatch>();
  /** The last set a foreign run closed before its answers went out. */
  #closed: InterruptKey[] = [];
  #nextBatch = 1;
  #attached = true;
  /** How many times each run of each thread has stopped for interrupts. */
  #raises = new Map<string, number>();
  /**
   * While the chat replays a thread: the stops of each run counted again from the thread's start,
   * per stream. Connects can overlap (the chat may connect twice on one switch), and each replays
   * the whole thread: counted together, the second would raise every stop again.
   */
  #replay?: Map<unknown, Map<string, number>>;
  /** How many replays are under way: the replay lasts until the last one ends. */
  #replaying = 0;
  /** The interrupts the current replay raised first: what settles them there may be this device's own past answer. */
  #replayed = new Set<string>();
  /** The interrupts each replay under way has raised so far (per stream), new or seen before. */
  #passed = new Map<unknown, Set<string>>();
  /** The open sets of the threads the chat left, kept with their thread until it shows them again. */
  #parked = new Map<string, InterruptKey[]>();
  /** The chat left a thread with an open set and the agent has not stopped since. */
  #away = false;
  /** The card asked to be answered before the user chats on (`'block'`). */
  #answerFirst?: InterruptKey;
  #stops = 0;
  /** The last legacy `on_interrupt` event a run sent, and whether it was raised. */
  #legacy?: LegacyEvent;
  #recordOf: NonNullable<SessionOptions['recordOf']>;

  constructor(options: SessionOptions) {
    this.#threadId = options.threadId;
    this.#policy = options.onChatWhileOpen ?? 'dismiss';
    this.#now = options.now ?? Date.now;
    this.#recordOf = options.recordOf ?? (() => undefined);
  }

  // ---- reading ----

  get threadId(): string {
    return this.#threadId;
  }

  #entry(key: InterruptKey): SessionInterrupt | undefined {
    return this.#entries.get(keyOf(key));
  }

  /** Where the interrupt of `key` stands: a frozen copy, which changes nothing in the session. */
  get(key: InterruptKey): Readonly<SessionInterrupt> | undefined {
    const entry = this.#entries.get(keyOf(key));
    return entry && Object.freeze({ ...entry });
  }

  /** The current set, deduplicated: what the agent waits on. */
  get openSet(): readonly InterruptKey[] {
    return Object.freeze([...this.#open]);
  }

  /**
   * The chat left a thread with an open set and no stop came since: what CopilotKit still shows
   * is the set of the thread left, not one of this thread.
   */
  get away(): boolean {
    return this.#away;
  }

  /**
   * How many times the open set was replaced by a stop (raised, or brought back with its thread):
   * cards drawn for an earlier count belong to another set, even one with the same ids.
   */
  get stops(): number {
    return this.#stops;
  }

  /** The open set kept with `threadId`, a thread the chat left: it comes back with that thread. */
  keptSet(threadId: string): readonly InterruptKey[] {
    return Object.freeze([...(this.#parked.get(threadId) ?? [])]);
  }

  /**
   * Whether the session holds something of the user's: an open set, a resume on its way, or an
   * answer kept with a thread the chat left.
   */
  get holding(): boolean {
    const kept = [...this.#parked.values()].flat();
    return this.#open.length > 0 || this.sending || this.#entriesOf(kept).some((e) => e.phase === 'answered');
  }

  /** A resume is on its way: nothing else is sent, and a run in the thread is that resume's. */
  get sending(): boolean {
    return this.#batches.size > 0;
  }

  /**
   * How many interrupts of the open set still wait for this viewer: not answered, dismissed or
   * expired, and not given by the runner to other people (those wait for them).
   */
  get waitingOnViewer(): number {
    return this.#entriesOf(this.#open).filter((e) => e.phase === 'open' && !e.forOthers).length;
  }

  /** Whether the card of `key` asks to be answered before the user chats on. */
  asksToAnswerFirst(key: InterruptKey): boolean {
    return !!this.#answerFirst && sameKey(this.#answerFirst, key) && this.#entry(key)?.phase === 'open';
  }

  /**
   * The card of the current set that the answer of `key` waits for, when that card is someone
   * else's to answer: the agent takes a set's answers in one resume (AG-UI refuses a run that
   * leaves one of them out), so this viewer's answer stays here until that card is answered.
   */
  heldFor(key: InterruptKey): InterruptKey | undefined {
    if (this.#entry(key)?.phase !== 'answered' || !this.#isOpen(key)) return undefined;
    return this.#entriesOf(this.#open).find((e) => e.phase === 'open' && e.forOthers)?.key;
  }

  canRetry(key: InterruptKey): boolean {
    return this.#entry(key)?.phase === 'failed' && this.#failed.has(keyOf(key)) && this.#batches.size === 0;
  }

  set policy(policy: 'dismiss' | 'block') {
    this.#policy = policy;
  }

  // ---- events ----

  /**
   * A run of the current thread stopped for `interrupts`. Whatever of an older set was still
   * waiting can no longer reach the agent: the agent moved on. Two exceptions, both the same stop
   * shown again: the open set raised again by its own run (a replay of the thread), and the set
   * the chat left in this thread, which its replay brings back with the answers given meanwhile
   * (sent now if the set is complete). Interrupts sharing an id are each shown, and refused.
   * `changedSince`: the set raised is what the server says is open after refusing an answer to
   * these as changed; the interrupts among it with a new id are the changed requests.
   */
  raised(runId: string, interrupts: readonly RaisedInterrupt[], { stream, changedSince, anchor }: RaiseOptions = {}): SessionDecision[] {
    const ids = interrupts.map((i) => i.id);
    const run = this.#threadId + SEP + runId;
    const replay = this.#replayOf(stream);
    if (replay) {
      // A replay counts the stops of each run again from the thread's start, so each one it raises
      // gets the key it had when it happened: a stop already settled here is that stop, seen again.
      const raise = replay.get(run) ?? 0;
      replay.set(run, raise + 1);
      const keys = this.#keysOf(runId, raise, ids);
      const passed = this.#passed.get(stream) ?? new Set<string>();
      for (const key of keys) passed.add(keyOf(key));
      this.#passed.set(stream, passed);
      const parked = this.#parked.get(this.#threadId);
      const known = keys.every((k) => this.#entries.has(keyOf(k)));
      if (known && !(parked && sameIds(parked, ids)) && this.#entriesOf(keys).every(settled)) return [NOTHING];
    }
    this.#away = false;
    if (this.#open.length && this.#open[0].runId === runId && sameIds(this.#open, ids)) return [NOTHING];
    this.#answerFirst = undefined;
    const parked = this.#parked.get(this.#threadId);
    this.#parked.delete(this.#threadId);
    this.#stops++;
    if (parked && this.#open.length === 0 && sameIds(parked, ids)) {
      this.#open = parked;
      return this.#sendIfComplete(false);
    }
    const decisions = [...this.#supersede(), ...(parked ? this.#supersede(parked) : [])];
    const raise = replay ? replay.get(run)! - 1 : (this.#raises.get(run) ?? 0);
    if (!replay) this.#raises.set(run, raise + 1);
    const keys = this.#keysOf(runId, raise, ids);
    const copies = new Map<string, number>();
    for (const id of ids) copies.set(id, (copies.get(id) ?? 0) + 1);
    for (const [n, key] of keys.entries()) {
      if (this.#entries.has(keyOf(key))) continue;
      const interrupt = interrupts[n];
      const recordId = this.#recordId(key, anchor);
      if (replay) this.#replayed.add(keyOf(key));
      const changed = changedSince && !changedSince.some((refused) => refused.id === key.id);
      this.#entries.set(keyOf(key), {
        key,
        phase: 'open',
        expiresAt: interrupt.expiresAt,
        recordId,
        legacyEvent: interrupt.legacyEvent,
        ...('legacyEvent' in interrupt && { legacy: true }),
        ...(anchor !== undefined && { anchor }),
        ...(changed && { changed }),
        ...(interrupt.forOthers && { forOthers: true }),
      });
    }
    this.#open = keys;
    const refused = this.#refuseShared(copies);
    return decisions.length && refused[0].type === 'nothing' ? decisions : [...decisions.filter((d) => d.type !== 'nothing'), ...refused];
  }

  /** The keys of one stop: its thread, run and raise, each id, and which copy of a repeated id. */
  #keysOf(runId: string, raise: number, ids: readonly string[]): InterruptKey[] {
    const copies = copiesOf(ids);
    return ids.map((id, n) =>
      Object.freeze({ threadId: this.#threadId, runId, ...(raise > 0 && { raise }), id, ...(copies[n] > 0 && { copy: copies[n] }) }),
    );
  }

  /**
   * The chat is about to replay the current thread from its start (it connects to it: a return to
   * the thread, a remount, a reconnect). Until {@link replayEnded}, the stops it raises are counted
   * from the start again, so a stop this session has already seen gets the key it had: a settled
   * one changes nothing (its card and record stay the ones it has), the set kept with the thread
   * comes back, and only a stop the session never saw opens anything new.
   */
  replayStarted(): SessionDecision[] {
    if (this.#replaying++ > 0) return [NOTHING];
    this.#replay = new Map();
    this.#replayed.clear();
    this.#passed.clear();
    return [NOTHING];
  }

  /** The count of stops per run the replay on `stream` (the events of one connect) has passed. */
  #replayOf(stream: unknown): Map<string, number> | undefined {
    const replays = this.#replay;
    if (!replays) return undefined;
    if (!replays.has(stream)) replays.set(stream, new Map());
    return replays.get(stream);
  }

  /**
   * While the thread replays, the chat shows each stop of its past as the replay passes it. Whether
   * `ids` are such a stop: this thread already raised every one of them (the replay's own raise, or
   * an earlier one), so it is no stop raised before anyone listened, and opens nothing.
   */
  replayedStop(ids: readonly string[]): boolean {
    if (!this.#replay) return false;
    const raised = new Set([...this.#entries.values()].filter((e) => e.key.threadId === this.#threadId).map((e) => e.key.id));
    return ids.every((id) => raised.has(id));
  }

  /**
   * Whether the interrupts this thread waits on, as another view of it lists them (an inbox), are
   * exactly the ones this session shows waiting: such a change was made here, and needs no re-read.
   */
  showsWaiting(ids: readonly string[]): boolean {
    const waiting = this.#open.filter((key) => ['open', 'answered'].includes(this.#entry(key)?.phase ?? '')).map((key) => key.id);
    return waiting.length === ids.length && [...waiting].sort().join('\n') === [...ids].sort().join('\n');
  }

  /**
   * A replay that has not yet reached the set open here on `stream` is still in the thread's past:
   * the runs it passes (the answers to older stops, the turns between) say nothing of that set.
   */
  #replayBehindOpenSet(stream: unknown): boolean {
    const passed = this.#passed.get(stream);
    return !!this.#replay && this.#open.some((key) => !passed?.has(keyOf(key)));
  }

  /** Between {@link replayStarted} and {@link replayEnded}: the runs the chat sees are the thread's, replayed. */
  get replaying(): boolean {
    return this.#replay !== undefined;
  }

  /**
   * A replay is over. Once the last one under way ends, later stops of a run count on from the
   * most any count reached.
   */
  replayEnded(): void {
    if (this.#replaying === 0 || --this.#replaying > 0) return;
    const replays = this.#replay;
    this.#replay = undefined;
    for (const replay of replays?.values() ?? []) {
      for (const [run, n] of replay) this.#raises.set(run, Math.max(this.#raises.get(run) ?? 0, n));
    }
  }

  /** Every interrupt of the open set whose id another one shares is refused, its card saying why. */
  #refuseShared(copies: Map<string, number>): SessionDecision[] {
    const decisions: SessionDecision[] = [];
    for (const [id, count] of copies) {
      if (count < 2) continue;
      const entries = this.#entriesOf(this.#open).filter((e) => e.key.id === id && e.phase === 'open');
      const message = sharedIdMessage(id, count);
      for (const entry of entries) Object.assign(entry, { phase: 'failed', error: message, refused: true });
      if (entries.length) decisions.push({ type: 'show-error', keys: entries.map((e) => e.key), message, canRetry: false, refused: true });
    }
    return decisions.length ? decisions : [NOTHING];
  }

  /**
   * The id for the record of `key`: its own id, unless an interrupt of this thread already has it,
   * or a stored record does that was written for another raise than the one at `anchor` (the same
   * raise replayed, after a reload or a connect, keeps its record, so it is drawn once).
   */
  #recordId(key: InterruptKey, anchor: string | null | undefined): string {
    const ids = new Set([...this.#entries.values()].filter((e) => e.key.threadId === key.threadId).map((e) => e.recordId));
    const recorded = (id: string) => {
      const record = this.#recordOf(key.threadId, id);
      return record !== undefined && record.anchor !== anchor;
    };
    const taken = (id: string) => ids.has(id) || recorded(id);
    let id = key.id;
    if (taken(id)) id = `${key.id}@${key.runId}${key.raise ? `#${key.raise}` : ''}`;
    for (let n = 2; taken(id); n++) id = `${key.id}@${key.runId}#${n}`;
    return id;
  }

  /** The entries of `keys`, which the session holds. */
  #entriesOf(keys: readonly InterruptKey[]): SessionInterrupt[] {
    return keys.map((k) => this.#entry(k)!);
  }

  /** `set` (the open set unless given) can no longer be answered: the agent moved on. */
  #supersede(set: readonly InterruptKey[] = this.#open): SessionDecision[] {
    const superseded = this.#entriesOf(set);
    for (const entry of superseded) {
      if (entry.phase === 'open') entry.phase = 'cancelled';
    }
    if (set === this.#open) this.#open = [];
    this.#closed = [];
    // Answers already painted were waiting for their siblings: nothing can carry them now, so their
    // cards say so at once. Answers still waiting for their paint fail when it comes.
    return this.#fail(superseded.filter(paintedAnswer), SUPERSEDED);
  }

  /**
   * A run that does not carry this set's answers started (a chat message, when the agent does not
   * block it). The set is closed; an answer still waiting for its paint then fails, kept for Retry.
   * `stream`: the events the run came in (a connect's, in a replay).
   */
  otherRunStarted({ stream }: { stream?: unknown } = {}): SessionDecision[] {
    if (this.#open.length === 0 || this.#replayBehindOpenSet(stream)) return [NOTHING];
    this.#answerFirst = undefined;
    this.#closed = this.#open;
    this.#open = [];
    // Answers already painted were waiting for their siblings: they fail now, kept for Retry.
    return this.#failClosedSet();
  }

  /**
   * The painted answers of the closed set fail with the very resume they would have been, kept
   * for Retry to send straight to the agent.
   */
  #failClosedSet(): SessionDecision[] {
    const entries = this.#entriesOf(this.#closed).filter(paintedAnswer);
    return entries.length > 0 ? this.#fail(entries, NOT_HANDED_OVER, this.#batchOf(entries, false)) : [NOTHING];
  }

  /** `entries` fail with `message`; with `retry`, that batch is what Retry sends for them. */
  #fail(entries: SessionInterrupt[], message: string, retry?: SessionBatch): SessionDecision[] {
    if (entries.length === 0) return [NOTHING];
    for (const entry of entries) {
      Object.assign(entry, { phase: 'failed', error: message });
      if (retry) this.#failed.set(keyOf(entry.key), retry);
    }
    return [{ type: 'show-error', keys: entries.map((e) => e.key), message, canRetry: !!retry }];
  }

  /** The user answered (or dismissed) the card of `key`: read-only at once, sent once painted. */
  answered(key: InterruptKey, answer: InterruptAnswer): SessionDecision[] {
    const entry = this.#entry(key);
    // A card given to others that answers anyway (a custom card that ignores `readOnly`) is sent:
    // the server decides, and its refusal shows on the card.
    if (!entry || entry.phase !== 'open' || !this.#isOpen(key)) return [NOTHING];
    // Any answer lifts the request to answer first: the user is answering.
    this.#answerFirst = undefined;
    if (isPastExpiry(entry.expiresAt, this.#now())) return this.expired(key);
    entry.phase = 'answered';
    entry.answer = answer;
    entry.painted = false;
    return this.#attached ? [{ type: 'after-paint', key }] : [NOTHING];
  }

  /** The read-only card of `key` is on screen: send once the whole set is. */
  painted(key: InterruptKey): SessionDecision[] {
    const entry = this.#entry(key);
    if (!entry || entry.phase !== 'answered' || !this.#attached) return [NOTHING];
    entry.painted = true;
    if (this.#isOpen(key)) return this.#sendIfComplete(false);
    // Its thread is not shown: it waits there, painted, for the thread to come back.
    if (this.#isParked(key)) return [NOTHING];
    const closed = this.#closed.some((k) => sameKey(k, key));
    if (!closed) return this.#fail([entry], NO_LONGER_OPEN);
    return this.#failClosedSet();
  }

  #batchOf(entries: SessionInterrupt[], withChat: boolean): SessionBatch {
    // Interrupts sharing an id are refused: their one entry is `cancelled`, listed once.
    const resume: ResumeEntry[] = entries.flatMap((e): ResumeEntry[] =>
      e.key.copy
        ? []
        : e.phase === 'expired' || e.refused || e.answer?.status !== 'resolved'
          ? [{ interruptId: e.key.id, status: 'cancelled' as const }]
          : [{ interruptId: e.key.id, status: 'resolved' as const, payload: e.answer.payload }],
    );
    // A legacy event is one interrupt: CopilotKit resumes it with a command, and a cancel only drops it.
    const legacy = entries[0].legacyEvent;
    const carry: SessionBatch['carry'] =
      legacy === undefined
        ? { type: 'resume' }
        : resume[0].status === 'cancelled'
          ? { type: 'dismiss' }
          : { type: 'command', command: { resume: resume[0].payload, interruptEvent: legacy } };
    return {
      batchId: this.#nextBatch++,
      threadId: entries[0].key.threadId,
      runId: entries[0].key.runId,
      keys: entries.map((e) => e.key),
      resume,
      withChat,
      carry,
      told: entries.filter((e) => e.phase !== 'expired' && !e.refused && !e.dismissed).map((e) => e.key),
      expired: entries.filter((e) => e.phase === 'expired').map((e) => e.key),
    };
  }

  /**
   * What goes with every run carrying `batch`: its records written, the app told of the user's
   * answers (not dismissed, expired or refused), AG-UI's client letting go of the expired ones (or
   * it refuses the run that carries their `cancelled`), then the send.
   */
  #sending(batch: SessionBatch): SessionDecision[] {
    const { told, expired } = batch;
    return [
      { type: 'record', keys: batch.keys },
      ...(told.length ? [{ type: 'tell-app' as const, keys: told }] : []),
      ...(expired.length ? [{ type: 'forget-pending' as const, keys: expired }] : []),
      { type: 'send', batch },
    ];
  }

  /**
   * The thread shows a run that answered the open set: `resume` is what it carried, read from its
   * stored input (a thread's replay on connect, or a run another device started). Those interrupts
   * are settled with that answer, not this tab's: their cards turn read-only with it. One the run
   * did not address went on without an answer (`cancelled`); `withChat`: the run also carried a chat
   * message, so its `cancelled` ones were dismissed by chatting on; `stream`: the events the run came
   * in. Interrupts this tab already answered and is sending keep their own course.
   */
  answeredInThread(
    resume: readonly ResumeEntry[],
    { withChat = false, stream }: { withChat?: boolean; stream?: unknown } = {},
  ): SessionDecision[] {
    const entries = this.#entriesOf(this.#open);
    // A run while this tab's resume is on its way is that resume's: it is left to it.
    if (entries.length === 0 || this.sending || this.#replayBehindOpenSet(stream)) return [NOTHING];
    const settled: InterruptKey[] = [];
    for (const entry of entries) {
      if (entry.phase !== 'open' && entry.phase !== 'answered' && entry.phase !== 'expired' && !entry.refused) continue;
      const given = resume.find((r) => r.interruptId === entry.key.id);
      const answer: InterruptAnswer =
        given?.status === 'resolved' ? { status: 'resolved', payload: given.payload } : { status: 'cancelled' };
      const expired = answer.status === 'cancelled' && (entry.phase === 'expired' || isPastExpiry(entry.expiresAt, this.#now()));
      Object.assign(entry, {
        answer,
        painted: true,
        cancelSent: true,
        phase: answer.status === 'resolved' ? 'resolved' : expired ? 'expired' : 'cancelled',
        dismissed: answer.status === 'cancelled' && !expired && withChat && !!given,
        // This device held it open (or its answer unsent) before the thread was read: the answer
        // is another device's. One the replay itself raised may have been answered here, before a reload.
        ...(given && !this.#replayed.has(keyOf(entry.key)) && { elsewhere: true }),
        ...(entry.refused && { phase: 'failed' }),
      });
      settled.push(entry.key);
    }
    this.#open = [];
    this.#answerFirst = undefined;
    return settled.length ? [{ type: 'record', keys: settled }] : [NOTHING];
  }

  /** The interrupt passed its `expiresAt` unanswered. */
  expired(key: InterruptKey): SessionDecision[] {
    const entry = this.#entry(key);
    if (!entry || entry.phase !== 'open') return [NOTHING];
    entry.phase = 'expired';
    const message = `Interrupt "${entry.recordId}" expired at ${String(entry.expiresAt)}; the agent gets "cancelled" with the next run.`;
    // Its `cancelled` goes with the siblings' answers when they are all in, else with the next run.
    return [{ type: 'debug', message }, ...real(this.#sendIfComplete(false))];
  }

  /**
   * The thread was read again and the runner's word on who may answer `key` is new (an approver
   * added, an assignment changed): a chat message and a held answer follow who may answer now.
   * The server still decides each answer.
   */
  peopleRead(key: InterruptKey, { forOthers }: { forOthers: boolean }): SessionDecision[] {
    const entry = this.#entry(key);
    // Only an open card follows: a settled one keeps the word it was settled under.
    if (entry?.phase !== 'open') return [NOTHING];
    if (forOthers) entry.forOthers = true;
    else delete entry.forOthers;
    // A chat message held on this card because it was someone else's: with 'dismiss', nothing asks
    // to answer it first any more (the next message dismisses it like any card of the viewer's).
    if (!forOthers && this.#policy === 'dismiss' && this.#answerFirst && sameKey(this.#answerFirst, key)) this.#answerFirst = undefined;
    return [NOTHING];
  }

  /**
   * The user sent a chat message. With open cards: by default they close as "Dismissed" and the
   * agent gets `cancelled` for them, together with the answers already given, in the run that
   * replies to the message. With `'block'`, the first open card asks to be answered first. A set
   * with a card given to others cannot go: this viewer may not answer that card, not even
   * `cancelled`, so nothing is dismissed and that card says the message waits for its answer.
   */
  chatSent({ agentWaits = true }: ChatOptions = {}): SessionDecision[] {
    // A resume on its way carries what the agent is owed; the run the chat starts comes after it.
    if (this.sending || !this.#chatCarries(agentWaits)) return [NOTHING];
    const entries = this.#entriesOf(this.#open);
    const waiting = entries.some((e) => e.phase === 'open' || e.phase === 'answered' || owesCancel(e));
    if (!waiting) return [NOTHING];
    const others = entries.find((e) => e.phase === 'open' && e.forOthers);
    if (others) {
      this.#answerFirst = others.key;
      return [{ type: 'answer-first', key: others.key }];
    }
    const first = entries.find((e) => e.phase === 'open');
    if (this.#policy === 'block' && first) {
      this.#answerFirst = first.key;
      return [{ type: 'answer-first', key: first.key }];
    }
    for (const entry of entries) {
      if (entry.phase === 'open') Object.assign(entry, { phase: 'answered', answer: { status: 'cancelled' }, dismissed: true });
      if (entry.phase === 'answered') entry.painted = true;
    }
    return this.#sendIfComplete(true);
  }

  /**
   * The chat is starting a run for the user's message. AG-UI refuses a run that leaves an open
   * interrupt unanswered, so whatever the agent is still owed for the current set goes with that
   * run, as {@link chatSent} decides: the answers given, `cancelled` for the cards the message
   * dismisses and for those that expired. Each interrupt is answered once: what a resume already
   * carried is not carried again. With `'block'`, the run is held and the first open card asks to
   * be answered first.
   */
  chatRunStarting(options: ChatOptions = {}): SessionDecision[] {
    const decisions = this.chatSent(options);
    if (decisions.some((d) => d.type === 'answer-first')) return [...decisions, { type: 'hold-chat-run' }];
    for (const d of decisions) if (d.type === 'send') d.batch.inChatRun = true;
    return decisions;
  }

  /**
   * Whether a chat message concerns the open set: the agent's client still waits on it (it refuses
   * the chat's run), and it is a standard set (a legacy event is no pending interrupt of the
   * client's: CopilotKit drops it when the chat runs on).
   */
  #chatCarries(agentWaits: boolean): boolean {
    return agentWaits && this.#open.length > 0 && !this.#entriesOf(this.#open).some((e) => e.legacy);
  }

  /** Build the one resume of the current set once nothing in it waits for the user or a paint. */
  #sendIfComplete(withChat: boolean): SessionDecision[] {
    // One resume at a time: a set answered while another is on its way goes when that one ends.
    if (!this.#attached || this.sending) return [NOTHING];
    const entries = this.#entriesOf(this.#open);
    if (entries.length === 0 || !entries.every(ready)) return [NOTHING];
    if (!entries.some((e) => e.phase === 'answered') && !withChat) return [NOTHING];
    const decisions: SessionDecision[] = [];
    // Answered in time but past `expiresAt` now: the agent may only get `cancelled` for it.
    const late = entries.filter((e) => e.phase === 'answered' && isPastExpiry(e.expiresAt, this.#now()));
    for (const e of late) {
      const message = expiredBeforeSent(e.key);
      Object.assign(e, { phase: 'expired', error: message });
      decisions.push({ type: 'show-error', keys: [e.key], message, canRetry: false });
    }
    const batch = this.#batchOf(entries, withChat);
    for (const e of entries) {
      if (e.phase === 'expired' || e.refused) e.cancelSent = true;
      else e.phase = 'sending';
    }
    this.#open = [];
    this.#batches.set(batch.batchId, batch);
    return [...decisions, ...this.#sending(batch)];
  }

  /**
   * The run carrying `batchId` finished: its answers reached the agent. `chatUnanswered`: the
   * user's chat message is still the last message (the run did not reply to it). `cutOff`: the
   * chat stopped following the run (it unmounted or changed thread) before it finished, so AG-UI's
   * client still lists its interrupts as pending and would refuse every later run: they go.
   */
  delivered(
    batchId: number,
    { chatUnanswered = false, cutOff = false }: { chatUnanswered?: boolean; cutOff?: boolean } = {},
  ): SessionDecision[] {
    const batch = this.#take(batchId);
    if (!batch) return [NOTHING];
    const forget: SessionDecision[] = cutOff ? [{ type: 'forget-pending', keys: batch.keys }] : [];
    batch.keys.forEach((key) => {
      const entry = this.#entry(key)!;
      const carried = batch.resume.find((r) => r.interruptId === key.id);
      if (entry.phase !== 'sending') return;
      this.#failed.delete(keyOf(key));
      // What the agent got is what the batch carried: an expired interrupt (answered too late, or
      // not at all) got `cancelled` even when Retry sent it, and its card says it expired.
      entry.phase = carried?.status === 'resolved' ? 'resolved' : entry.answer?.status === 'cancelled' ? 'cancelled' : 'expired';
      if (entry.phase === 'expired' && entry.answer) entry.error = expiredBeforeSent(key);
    });
    const reply: SessionDecision[] = batch.withChat && chatUnanswered ? [{ type: 'reply-to-chat' }] : [];
    return forget.length || reply.length ? [...forget, ...reply] : [NOTHING];
  }

  /**
   * The resume of `batchId` did not reach the agent (the run failed, or never started) because of
   * `message`; `canRetry: false` when the same answers would meet the same refusal.
   */
  notDelivered(batchId: number, { message, canRetry = true }: { message: string; canRetry?: boolean }): SessionDecision[] {
    const batch = this.#take(batchId);
    if (!batch) return [NOTHING];
    // Everything the batch carried failed with it, the `cancelled` owed for an expired interrupt too:
    // the agent still waits for it, so its card says why and Retry sends it again.
    const carried = this.#entriesOf(batch.keys);
    // A refused interrupt keeps its own reason; its `cancelled` is owed again.
    for (const entry of carried) if (entry.refused) entry.cancelSent = false;
    const failed = carried.filter((e) => e.phase === 'sending' || (e.phase === 'expired' && e.cancelSent));
    for (const entry of failed) entry.cancelSent = false;
    // A refusal the same answer would meet again (the request changed) offers no Retry.
    return this.#fail(failed, message, canRetry ? batch : undefined);
  }

  /**
   * The resume of `batchId` was refused because another device answered first; `answers` are the
   * answers that won. Those interrupts are settled with them (not this tab's), marked as answered
   * elsewhere; one the refusal names no winner for could not be sent.
   */
  answeredElsewhere(batchId: number, answers: readonly ResumeEntry[]): SessionDecision[] {
    const batch = this.#take(batchId);
    if (!batch) return [NOTHING];
    // AG-UI's client still lists them as pending: the thread has moved on without this tab's answers.
    const forget: SessionDecision = { type: 'forget-pending', keys: batch.keys };
    const settled: InterruptKey[] = [];
    const unsent: SessionInterrupt[] = [];
    for (const entry of this.#entriesOf(batch.keys)) {
      // A refused interrupt keeps its own reason; its `cancelled` is owed again.
      if (entry.refused) {
        entry.cancelSent = false;
        continue;
      }
      const won = answers.find((a) => a.interruptId === entry.key.id);
      if (!won) {
        unsent.push(entry);
        continue;
      }
      const answer: InterruptAnswer = won.status === 'resolved' ? { status: 'resolved', payload: won.payload } : { status: 'cancelled' };
      Object.assign(entry, { answer, phase: answer.status, elsewhere: true, dismissed: false, error: undefined });
      settled.push(entry.key);
    }
    const decisions: SessionDecision[] = settled.length ? [forget, { type: 'record', keys: settled }] : [forget];
    return [...decisions, ...real(this.#fail(unsent, ANSWERED_ELSEWHERE_UNSENT))];
  }

  /**
   * The run carrying `batch` ended: delivered, or failed with `failure`, or refused as the server's
   * `refusal` says (`runErrorMeaning`): another device answered first (its answers settle the
   * cards); or the requests changed (final: no Retry; the requests open now are raised and drawn
   * again, `anchor` where they appear, while the thread is still the batch's and nothing is on its way).
   */
  batchEnded(
    batch: SessionBatch,
    {
      failure,
      refusal = {},
      chatUnanswered,
      cutOff,
      anchor,
    }: { failure?: string; refusal?: Partial<RunErrorMeaning>; chatUnanswered?: boolean; cutOff?: boolean; anchor?: string | null } = {},
  ): SessionDecision[] {
    const { elsewhere, final, reopen } = refusal;
    const decisions = elsewhere
      ? this.answeredElsewhere(batch.batchId, elsewhere)
      : failure
        ? this.notDelivered(batch.batchId, { message: failure, canRetry: !final })
        : this.delivered(batch.batchId, { chatUnanswered, cutOff });
    if (!reopen || this.#threadId !== batch.threadId || this.sending) {
      // A set answered while this batch was on its way: it goes now.
      const waiting = real(this.#sendIfComplete(false));
      return waiting.length ? [...real(decisions), ...waiting] : decisions;
    }
    const raised = reopen.map((i) => ({ id: i.id, expiresAt: i.expiresAt }));
    const reraised = this.raised(batch.runId, raised, { changedSince: batch.keys, anchor });
    return [
      { type: 'draw', kind: 'standard', source: { interrupts: reopen }, reopened: true },
      // AG-UI's client checks a resume against the interrupts it holds: those are the new ones now.
      { type: 'set-pending', interrupts: reopen },
      ...real(decisions),
      ...real(reraised),
    ];
  }

  /**
   * A run sent a legacy `on_interrupt` event (`value`, read as `interrupts`; `event` as it came,
   * `anchor` where it appeared). It is raised when its run finishes without a standard set, or
   * when CopilotKit shows it (see {@link shown}).
   */
  legacyEventSent(legacy: Omit<LegacyEvent, 'raised'>): SessionDecision[] {
    this.#legacy = { ...legacy, raised: false };
    return [NOTHING];
  }

  /**
   * A run of the agent (now showing `threadId`) finished: stopped for `interrupts` (read from
   * `source`, at `anchor`), or went on (`interrupts` undefined). `runId` is the run as its events
   * name it; `raisedIn`, the run its stop belongs to (in a replay, the run the replay shows). A run that sent both a legacy
   * event and a standard set stopped once: its set is the one CopilotKit shows and the one
   * answered by id, and raising the event too would draw a second card for the same request
   * (replacing the first, and swallowing an answer given to it). A legacy event whose run ended
   * without a set is raised then, since a hook that mounted during the run never hears of it from
   * CopilotKit. A run that went on without the open set's answers closes it, unless it is the run
   * `carrying` this tab's resume.
   */
  runFinished({
    threadId,
    runId,
    raisedIn,
    interrupts,
    source,
    anchor,
    stream,
    carrying = false,
  }: {
    threadId: string;
    runId?: string;
    raisedIn: string;
    interrupts?: readonly RaisedInterrupt[];
    source?: unknown;
    anchor?: string | null;
    stream?: unknown;
    carrying?: boolean;
  }): SessionDecision[] {
    const legacy = this.#legacy;
    if (legacy && !legacy.raised && legacy.runId !== undefined && legacy.runId === runId) {
      legacy.raised = true;
      if (!interrupts?.length) {
        const draw: SessionDecision = { type: 'draw', kind: 'legacy', source: { event: legacy.event } };
        return this.#raiseIn(threadId, legacy.runId, legacy.interrupts, { anchor: legacy.anchor }, draw);
      }
    }
    if (!interrupts) return carrying || this.#open.length === 0 ? [NOTHING] : this.otherRunStarted({ stream });
    return this.#raiseIn(
      threadId,
      raisedIn,
      interrupts,
      { stream, anchor },
      { type: 'draw', kind: 'standard', source: { interrupts: source } },
    );
  }

  /** The set of `runId` raised in `threadId` (the thread the chat shows now), `draw` before the rest. */
  #raiseIn(
    threadId: string,
    runId: string,
    interrupts: readonly RaisedInterrupt[],
    options: RaiseOptions,
    draw: SessionDecision,
  ): SessionDecision[] {
    const switched = real(this.threadSwitched(threadId));
    return [...switched, draw, ...this.raised(runId, interrupts, options)];
  }

  /**
   * CopilotKit shows `interrupts` (a standard set, or a legacy event) while the agent shows
   * `threadId`. A set the session already holds open changes nothing, nor does a stop of the
   * thread's past that a replay passes by; one raised before the adapter listened (a remount, a
   * restored thread) is raised now, in the run of its legacy event if it is one.
   */
  shown({
    threadId,
    kind,
    interrupts,
    anchor,
  }: {
    threadId: string;
    kind: 'standard' | 'legacy';
    interrupts: readonly RaisedInterrupt[];
    anchor?: string | null;
  }): SessionDecision[] {
    const ids = interrupts.map((i) => i.id);
    const held = keysFor(this.#open, ids).every(Boolean);
    if (held || this.replayedStop(ids)) return [NOTHING];
    const switched = real(this.threadSwitched(threadId));
    const legacy = kind === 'legacy' ? this.#legacy : undefined;
    if (legacy) legacy.raised = true;
    const raised = interrupts.map((i) => ({
      id: i.id,
      expiresAt: i.expiresAt,
      ...(i.forOthers && { forOthers: true }),
      ...(kind === 'legacy' && { legacyEvent: legacy ? legacy.value : i.legacyEvent }),
    }));
    const decisions = this.raised(legacy?.runId ?? 'restored', raised, { anchor: legacy ? legacy.anchor : anchor });
    return switched.length ? [...switched, ...real(decisions)] : decisions;
  }

  /**
   * The app asks to read the thread again (the window got focus, another view says it changed).
   * `possible`: the agent can be read again now (a runtime keeps its thread, and nothing streams).
   * Only a thread with cards waiting here is read: an answer of this tab on its way already shows
   * the thread as it is, and a thread the chat left is not the one CopilotKit shows.
   */
  rereadWanted({ possible }: { possible: boolean }): SessionDecision[] {
    if (!possible || this.sending || this.#away) return [NOTHING];
    const waiting = this.#entriesOf(this.#open).some((e) => e.phase === 'open' || e.phase === 'answered');
    return waiting ? [{ type: 'reread' }] : [NOTHING];
  }

  /**
   * The thread was read again. A read that did not get through leaves the agent waiting on
   * nothing (`agentWaits: false`) while cards here are still open: its pending list is put back.
   */
  rereadEnded({ agentWaits }: { agentWaits: boolean }): SessionDecision[] {
    const open = this.#entriesOf(this.#open).some((e) => e.phase === 'open');
    return !agentWaits && open ? [{ type: 'restore-pending' }] : [NOTHING];
  }

  #take(batchId: number): SessionBatch | undefined {
    const batch = this.#batches.get(batchId);
    this.#batches.delete(batchId);
    return batch;
  }

  /** Retry on a failed card: the very same resume again, while nothing else is on its way. */
  retry(key: InterruptKey): SessionDecision[] {
    if (!this.canRetry(key)) return [NOTHING];
    const failed = this.#failed.get(keyOf(key))!;
    const keys = failed.keys.filter((k) => this.#failed.get(keyOf(k)) === failed);
    for (const k of keys) {
      this.#failed.delete(keyOf(k));
      Object.assign(this.#entry(k)!, { phase: 'sending', error: undefined });
    }
    // The `cancelled` owed for a refused interrupt goes again with the same resume.
    for (const entry of this.#entriesOf(failed.keys)) if (entry.refused) entry.cancelSent = true;
    const batch = { ...failed, batchId: this.#nextBatch++, withChat: false, inChatRun: false };
    this.#batches.set(batch.batchId, batch);
    return this.#sending(batch);
  }

  /** The adapter unmounted: scheduled paints are gone; answers wait, unsent, for the next attach. */
  detached(): SessionDecision[] {
    this.#attached = false;
    for (const entry of this.#entries.values()) if (entry.phase === 'answered') entry.painted = false;
    return [NOTHING];
  }

  /** The adapter mounted again: every answer still unsent is painted and sent again. */
  attached(): SessionDecision[] {
    this.#attached = true;
    return [...this.#entries.values()].filter((e) => e.phase === 'answered').map((e) => ({ type: 'after-paint', key: e.key }));
  }

  /**
   * The chat shows another thread. An open set stays with its thread, the answers already given
   * included: they go when the thread is shown again and its replay raises the set (see
   * {@link raised}), or are settled by what the replay shows if the set was answered elsewhere.
   */
  threadSwitched(threadId: string): SessionDecision[] {
    if (threadId === this.#threadId) return [NOTHING];
    const left = this.#open;
    this.#open = [];
    this.#closed = [];
    this.#answerFirst = undefined;
    const from = this.#threadId;
    this.#threadId = threadId;
    if (left.length === 0) return [NOTHING];
    this.#parked.set(from, left);
    this.#away = true;
    return [{ type: 'forget-pending' }];
  }

  #isOpen(key: InterruptKey): boolean {
    return this.#open.some((k) => sameKey(k, key));
  }

  #isParked(key: InterruptKey): boolean {
    return this.#parked.get(key.threadId)?.some((k) => sameKey(k, key)) ?? false;
  }
}
