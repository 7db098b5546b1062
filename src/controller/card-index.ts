import type { InterruptHistory } from '../history';
import { LOG } from '../log';
import { keysFor, type InterruptKey, type InterruptSession, type RaisedInterrupt, type SessionDecision } from '../session';
import { unwrapInterrupts, type UnwrappedInterrupt } from '../unwrap';
import { givenToOthers } from '../unwrap/people';
import type { InterruptPeople } from '../protocol/types';
import { sameSnapshot, type CardSnapshot } from './card-snapshot';

/** CopilotKit's `resolve` / `cancel` from the `useInterrupt` render props. */
export interface CopilotKitInterruptActions {
  resolve: (payload: unknown, interruptId?: string) => unknown;
  cancel: (interruptId?: string) => unknown;
}

/** The set drawn when the agent stopped or CopilotKit showed it: standard interrupts, or one legacy `on_interrupt` event. */
interface OpenSet {
  kind: 'standard' | 'legacy';
  /** CopilotKit's, once it shows the set. */
  actions?: CopilotKitInterruptActions;
  /** What CopilotKit passed, and the cards drawn for it. */
  raw: UnwrappedInterrupt[];
  cards: UnwrappedInterrupt[];
  /** The session's count of stops when these cards were drawn. */
  stops: number;
  /** Drawn from a refusal as changed, not from a stop CopilotKit shows (see {@link CardIndex.reopened}). */
  reopened?: boolean;
}

/** What a card shows: one interrupt, under the id its history record has. */
export interface Card {
  key: InterruptKey;
  interrupt: UnwrappedInterrupt;
  anchor: string | null;
}

/** What the card index reads of the controller. */
export interface CardIndexHost {
  readonly session: InterruptSession;
  readonly history: InterruptHistory;
  /** The thread the agent shows now (the session's, before an agent is attached). */
  agentThreadId(): string;
  /** The id of the transcript's last message: where an interrupt appears. */
  lastMessageId(): string | null;
  /** Carries out decisions made while CopilotKit renders: after the render. */
  dispatchSoon(decisions: SessionDecision[]): void;
}

const NONE: UnwrappedInterrupt[] = [];

/** The legacy event's `value`, as CopilotKit forwards it in `command.interruptEvent`. */
function legacyValue(interrupt: UnwrappedInterrupt): unknown {
  const raw = interrupt.raw as { value?: unknown } | undefined;
  return raw && typeof raw === 'object' && 'value' in raw ? raw.value : raw;
}

/**
 * Which card shows which interrupt: the set drawn (when the agent stopped, or when CopilotKit
 * shows it), the card of each record id, the transcript echoes that claim a card, and the one
 * snapshot each card reads. What happens to an interrupt is the session's to decide; what the
 * index does is bookkeeping of its own (the controller's dispatch changes everything else).
 */
export class CardIndex<View = unknown> {
  #host: CardIndexHost;
  /** Cards by the id of their history record. */
  #cards = new Map<string, Card>();
  #open?: OpenSet;
  /** The last standard set unwrapped: the raw interrupts it was read from, and what they read as. */
  #unwrapped?: { raw: readonly unknown[]; cards: UnwrappedInterrupt[] };
  #warned = new Set<string>();
  #claims = new Map<string, number>();
  #snapshots = new Map<string, CardSnapshot<View>>();

  constructor(host: CardIndexHost) {
    this.#host = host;
  }

  /** The card of the record `id`. */
  get(id: string): Card | undefined {
    return this.#cards.get(id);
  }

  /** The id of the card (and of its history record) for a session key: the session assigns it. */
  idOf(key: InterruptKey): string {
    return this.#host.session.get(key)?.recordId ?? key.id;
  }

  /** CopilotKit's `cancel` for the set it shows: a legacy cancel only drops the event. */
  cancelShown(): unknown {
    return this.#open?.actions?.cancel();
  }

  /**
   * `unwrapInterrupts`, once per stop: CopilotKit's render hands over the very interrupts the
   * agent's RUN_FINISHED carried, which the controller read when the agent stopped, and a large or
   * hostile set should not be sanitised twice. Another set (or a legacy event) is read afresh.
   */
  unwrap(source: { interrupts?: unknown; event?: unknown }): UnwrappedInterrupt[] {
    const raw = source.interrupts;
    const last = this.#unwrapped;
    if (Array.isArray(raw) && raw.length > 0 && last && raw.length === last.raw.length && raw.every((item, i) => item === last.raw[i])) {
      return last.cards;
    }
    const cards = unwrapInterrupts(source as Parameters<typeof unwrapInterrupts>[0]);
    if (Array.isArray(raw) && raw.length > 0) this.#unwrapped = { raw: [...raw], cards };
    return cards;
  }

  /** A set just raised is drawn (the session's `draw`): `reopened` after a refusal as changed. */
  draw(kind: OpenSet['kind'], source: { interrupts?: unknown; event?: unknown }, reopened?: boolean): void {
    this.setOpen(kind, this.unwrap(source));
    if (reopened && this.#open) this.#open.reopened = true;
  }

  /**
   * The interrupts CopilotKit currently shows, as the cards to draw. Called from the `useInterrupt`
   * render callback, and when the agent stops; it only records bookkeeping (no store update), so it
   * is safe during render. Interrupts sharing an id are each drawn (the session refuses them, and
   * their cards say why).
   */
  setOpen(kind: OpenSet['kind'], interrupts: UnwrappedInterrupt[], actions?: CopilotKitInterruptActions): UnwrappedInterrupt[] {
    const { session } = this.#host;
    // What CopilotKit still shows of the thread the chat left (the agent has not stopped since): not this thread's to raise.
    if (session.away) return [];
    // The set drawn when the agent stopped, which CopilotKit shows after the run, or shows again: same cards.
    const previous = this.#open;
    if (previous?.stops === session.stops && previous.raw.map((i) => i.id).join('\n') === interrupts.map((i) => i.id).join('\n')) {
      previous.actions = actions;
      this.#followPeople(previous, interrupts);
      return previous.cards;
    }
    const cards = this.#openCards(kind, interrupts);
    this.#open = { kind, actions, raw: interrupts, cards, stops: session.stops };
    return cards;
  }

  /**
   * The same set shown again (a thread read again): the runner's word on people is as of this read
   * (who answered, since), so the cards take it; their records follow it when they settle.
   */
  #followPeople(open: OpenSet, interrupts: UnwrappedInterrupt[]) {
    open.cards = open.cards.map((card, n) => {
      const people = interrupts[n]?.people;
      // The same stop unwraps once, so a render of it hands over the very object: no comparison then.
      if (!people || people === card.people || JSON.stringify(people) === JSON.stringify(card.people)) return card;
      const next = { ...card, people };
      const entry = this.#cards.get(card.id);
      if (entry) {
        this.#cards.set(card.id, { ...entry, interrupt: next });
        // Bookkeeping only (this may run while CopilotKit renders): the session's answer is nothing.
        this.#host.session.peopleRead(entry.key, { forOthers: givenToOthers(next) });
      }
      return next;
    });
  }

  #openCards(kind: OpenSet['kind'], interrupts: UnwrappedInterrupt[]): UnwrappedInterrupt[] {
    const { session } = this.#host;
    // Raised before this hook listened (a remount, a restored thread) or a legacy event: the session raises it now.
    const raised: RaisedInterrupt[] = interrupts.map((i) => ({
      id: i.id,
      expiresAt: i.expiresAt,
      ...(givenToOthers(i) && { forOthers: true }),
      ...(kind === 'legacy' && { legacyEvent: legacyValue(i) }),
    }));
    const decisions = session.shown({ threadId: this.#host.agentThreadId(), kind, interrupts: raised, anchor: this.#host.lastMessageId() });
    // This may run while CopilotKit renders: cards of a superseded (or refused) set learn why after it.
    if (decisions.some((d) => d.type !== 'nothing')) this.#host.dispatchSoon(decisions);
    const keys = keysFor(
      session.openSet,
      interrupts.map((i) => i.id),
    );
    return interrupts.flatMap((interrupt, n) => {
      const key = keys[n];
      if (!key) return [];
      const id = this.idOf(key);
      const card = { ...interrupt, id };
      this.#cards.set(id, { key, interrupt: card, anchor: session.get(key)?.anchor ?? this.#host.lastMessageId() });
      if (interrupt.problem)
        this.#warnOnce(id, `${LOG} Interrupt "${id}" could not be fully understood: ${interrupt.problem}`, interrupt.raw);
      return [card];
    });
  }

  #warnOnce(id: string, message: string, detail?: unknown) {
    if (this.#warned.has(id)) return;
    this.#warned.add(id);
    console.warn(message, ...(detail === undefined ? [] : [detail]));
  }

  /** The cards of the set the agent still waits on, as last drawn; none once it is sent or replaced. */
  get waiting(): UnwrappedInterrupt[] {
    const open = this.#open;
    const { session } = this.#host;
    return (session.openSet.length && open?.stops === session.stops && open.cards) || NONE;
  }

  /**
   * The cards drawn again after a refusal as changed, while they wait: CopilotKit did not see that
   * run stop, so the set it still shows is the refused one, and the slot draws these instead.
   */
  get reopened(): UnwrappedInterrupt[] | undefined {
    return this.#open?.reopened && this.waiting.length > 0 ? this.waiting : undefined;
  }

  /** The transcript echo of `id` is mounted (`by` 1) or gone (`by` -1): the slot copy steps aside while one shows. */
  claim(id: string, by: 1 | -1): void {
    const left = (this.#claims.get(id) ?? (by < 0 ? 1 : 0)) + by;
    if (left > 0) this.#claims.set(id, left);
    else this.#claims.delete(id);
  }

  /** Who the answer of `key` waits for: the people of the set's card given to others, while it is open. */
  #heldFor(status: string, key: InterruptKey | undefined): InterruptPeople | undefined {
    const other = status === 'submitting' && key ? this.#host.session.heldFor(key) : undefined;
    return other && this.#cards.get(this.idOf(other))?.interrupt.people;
  }

  /**
   * What the card of `id` in `threadId` shows now: the one value a card reads. The same object
   * while nothing in it changed, so `useSyncExternalStore` redraws a card only for its own changes.
   */
  snapshot(threadId: string, id: string, view: View): CardSnapshot<View> {
    const { session, history } = this.#host;
    const record = history.get(threadId, id);
    const status = record?.status ?? 'pending';
    const card = this.#cards.get(id);
    const next: CardSnapshot<View> = {
      view,
      status,
      result: record?.result,
      error: record?.error,
      elsewhere: !!record?.elsewhere,
      answerFirst: status === 'pending' && !!card && session.asksToAnswerFirst(card.key),
      heldFor: this.#heldFor(status, card?.key),
      canRetry: status === 'error' && !!card && session.canRetry(card.key),
      changed: status === 'pending' && !!card && !!session.get(card.key)?.changed,
      steppedAside: this.#claims.has(id) || session.away,
      allowedTools: history.allowedTools(threadId),
    };
    const cacheKey = `${threadId}\n${id}`;
    const previous = this.#snapshots.get(cacheKey);
    if (previous && sameSnapshot(previous, next)) return previous;
    this.#snapshots.set(cacheKey, next);
    return next;
  }
}
