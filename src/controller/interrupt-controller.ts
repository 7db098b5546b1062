import type { InterruptHistory } from '../history';
import { InterruptSession, type InterruptAnswer, type InterruptKey } from '../session';
import type { AnyInterruptResume, OnInterruptResume } from '../protocol/types';
import type { UnwrappedInterrupt } from '../unwrap';
import { AgentEvents, lastId, type ControlledAgent, type ControlledCopilotKit } from './agent-events';
import { CardIndex, type CopilotKitInterruptActions } from './card-index';
import type { CardSnapshot } from './card-snapshot';
import { createChangeStore, type ChangeStore } from './change-store';
import { Effects, type ControllerSettings, type DispatchResult, type Effect } from './effects';

export type { ControlledAgent, ControlledCopilotKit } from './agent-events';
export type { CopilotKitInterruptActions } from './card-index';
export type { ControllerSettings } from './effects';

/**
 * The adapter of {@link InterruptSession}: it feeds the cards' actions (and, through
 * {@link AgentEvents}, what AG-UI and CopilotKit report) into the session, and carries out the
 * decisions the session returns in {@link InterruptController#dispatch}, through {@link Effects},
 * the one place that writes the history, tells the app, starts runs and changes the agent. What it
 * stores is wiring: which card shows which interrupt ({@link CardIndex}), which run carries the
 * resume on its way. The rules of an interrupt's life are the session's.
 */
export class InterruptController<View = unknown> {
  /** How cards draw themselves; replaced with {@link setView}. */
  view: View;
  readonly history: InterruptHistory;
  readonly session: InterruptSession;
  #settings: ControllerSettings;
  #store: ChangeStore;
  #cards: CardIndex<View>;
  #events: AgentEvents;
  #effects: Effects;

  constructor(history: InterruptHistory, settings: ControllerSettings, view: View) {
    this.history = history;
    this.#settings = settings;
    this.view = view;
    this.#store = createChangeStore(history);
    this.session = new InterruptSession({
      threadId: 'default',
      onChatWhileOpen: settings.onChatWhileOpen,
      recordOf: (threadId, id) => history.get(threadId, id),
    });
    const dispatch = (decisions: readonly Effect[], subjects?: readonly InterruptKey[]) => this.#dispatch(decisions, subjects);
    const base = { session: this.session, history, dispatch };
    this.#cards = new CardIndex<View>({
      ...base,
      agentThreadId: () => this.#events.agent?.threadId ?? this.session.threadId,
      lastMessageId: () => lastId(this.#events.agent?.messages),
      dispatchSoon: (decisions) => queueMicrotask(() => this.#dispatch(decisions)),
    });
    this.#events = new AgentEvents({ ...base, cards: this.#cards, cancelScheduled: () => this.#effects.cancelScheduled() });
    this.#effects = new Effects({ ...base, cards: this.#cards, events: this.#events, settings: () => this.#settings });
  }

  // ---- external store: what cards show (they subscribe) ----

  /**
   * Listens to every change a card can show: the controller's (once per dispatch), and the
   * history's made elsewhere (another tab, the app).
   */
  get subscribe(): (listener: () => void) => () => void {
    return this.#store.subscribe;
  }

  /**
   * What the card of `id` in `threadId` shows now: the one value a card reads. The same object
   * while nothing in it changed, so `useSyncExternalStore` redraws a card only for its own changes.
   */
  cardSnapshot(threadId: string, id: string): CardSnapshot<View> {
    return this.#cards.snapshot(threadId, id, this.view);
  }

  /**
   * What cards get as `onInterruptResume`: a stable function that calls the app's latest
   * callback, so a card CopilotKit keeps memoized never calls a stale one.
   */
  get forwardResume(): OnInterruptResume<AnyInterruptResume, unknown> {
    return this.#effects.forwardResume;
  }

  /** The app's latest options; read when a card draws or an answer is sent. */
  get settings(): ControllerSettings {
    return this.#settings;
  }

  /** New options from the app (after each render of the hook). */
  setSettings(settings: ControllerSettings): void {
    this.#settings = settings;
    this.session.policy = settings.onChatWhileOpen ?? 'dismiss';
  }

  /** New renderers, locale or labels: every card redraws. */
  setView(view: View): void {
    this.view = view;
    // No decision: the cards' look changed, so they redraw.
    this.#dispatch([]);
  }

  get threadId(): string {
    return this.session.threadId;
  }

  // ---- wiring ----

  /**
   * Follow an agent's runs. Returns the detach function. The controller is kept per agent, so two
   * mounted hooks for one agent share it.
   */
  attach(agent: ControlledAgent, copilotkit: ControlledCopilotKit): () => void {
    this.session.policy = this.settings.onChatWhileOpen ?? 'dismiss';
    return this.#events.attach(agent, copilotkit);
  }

  /**
   * Reads the thread again from the server (CopilotKit's connect: the thread's runs replayed), so
   * cards another device answered meanwhile turn read-only with the answer the agent received,
   * marked as answered on another device. Call it when the thread may have changed elsewhere: the
   * hook does on window focus and when the tab becomes visible, and `threadChanged` (the inbox's
   * poll) does for the thread it names. Only a thread with cards waiting here is read.
   */
  refreshThread(): Promise<void> {
    return this.#events.refreshThread();
  }

  // ---- what CopilotKit shows ----

  /** `unwrapInterrupts`, once per stop (see {@link CardIndex.unwrap}). */
  unwrap(source: { interrupts?: unknown; event?: unknown }): UnwrappedInterrupt[] {
    return this.#cards.unwrap(source);
  }

  /**
   * The interrupts CopilotKit currently shows, as the cards to draw. Called from the `useInterrupt`
   * render callback; it only records bookkeeping (no store update), so it is safe during render.
   */
  setOpen(kind: 'standard' | 'legacy', interrupts: UnwrappedInterrupt[], actions?: CopilotKitInterruptActions): UnwrappedInterrupt[] {
    return this.#cards.setOpen(kind, interrupts, actions);
  }

  /** The cards of the set the agent still waits on, as last drawn; none once it is sent or replaced. */
  get waiting(): UnwrappedInterrupt[] {
    return this.#cards.waiting;
  }

  /** The cards drawn again after a refusal as changed, while they wait (the slot draws these). */
  get reopened(): UnwrappedInterrupt[] | undefined {
    return this.#cards.reopened;
  }

  /** How many cards of the waiting set still wait for this user. */
  get pendingCount(): number {
    return this.session.waitingOnViewer;
  }

  /** Whether a set is open, answers are on their way or kept with a thread: this controller holds what the user is doing. */
  get busy(): boolean {
    return this.session.holding;
  }

  /** The transcript echo of `id` is mounted; the slot copy hides. Returns the release function. */
  claim(id: string): () => void {
    // No decision: which copy of a card shows changed, so the slot redraws.
    this.#cards.claim(id, 1);
    this.#dispatch([]);
    return () => {
      this.#cards.claim(id, -1);
      this.#dispatch([]);
    };
  }

  // ---- card actions ----

  /** A card's `resolve(payload)`: read-only at once, sent once painted. Later clicks do nothing. */
  answer(interrupt: UnwrappedInterrupt, payload: unknown): void {
    this.#act(interrupt, { status: 'resolved', payload });
  }

  /** A card's `cancel()`: AG-UI `cancelled`, deferred like an answer. */
  dismiss(interrupt: UnwrappedInterrupt): void {
    this.#act(interrupt, { status: 'cancelled' });
  }

  #act(interrupt: UnwrappedInterrupt, answer: InterruptAnswer) {
    const card = this.#cards.get(interrupt.id);
    if (card) this.#dispatch(this.session.answered(card.key, answer), [card.key]);
  }

  /** The interrupt passed its `expiresAt`: read-only "Expired"; the agent gets `cancelled` with the next run. */
  expire(interrupt: UnwrappedInterrupt): void {
    const card = this.#cards.get(interrupt.id);
    if (card) this.#dispatch(this.session.expired(card.key), [card.key]);
  }

  /** A card in `error`: the same resume again, after the paint and the resolve delay like the first send. */
  retry(id: string): void {
    const card = this.#cards.get(id);
    if (!card || !this.session.canRetry(card.key)) return;
    const decisions = this.session.retry(card.key);
    // "Sending…" at once (other failed cards hide their Retry meanwhile); the send itself waits
    // for that paint and the resolve delay, like the first send.
    this.#dispatch(
      [],
      decisions.flatMap((d) => (d.type === 'send' ? d.batch.keys : [])),
    );
    this.#effects.later(`retry:${id}`, () => this.#dispatch(decisions));
  }

  // ---- carrying out decisions ----

  /**
   * Carries out one batch of decisions (and `subjects`: the interrupts of the event that produced
   * them, whose records are written), then tells listeners once. The only place effects happen:
   * the history written, the app told, a run started, the agent's pending interrupts, transcript
   * or methods changed ({@link Effects}); and the only place listeners hear of a change.
   */
  #dispatch(decisions: readonly Effect[], subjects: readonly InterruptKey[] = []): DispatchResult {
    return this.#store.during(() => this.#effects.carryOut(decisions, subjects));
  }
}
