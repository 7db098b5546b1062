import type { InterruptHistory, InterruptHistoryRecord } from '../src/history';
import { LOG } from '../src/log';
import { toProtocolInterrupt, type UnwrappedInterrupt } from '../src/unwrap';
import { afterPaint } from './after-paint';
import type { CardView } from './card-view';
import type { InterruptResumeHandler } from './renderer-props';
import { carriesBatch, toResumeEntry, type ResumeBatch } from './resume-batch';
import { toResumeRecord } from './resume-record';

/** CopilotKit's `resolve` / `cancel` from the `useInterrupt` render props. */
export interface CopilotKitInterruptActions {
  resolve: (payload: unknown, interruptId?: string) => unknown;
  cancel: (interruptId?: string) => unknown;
}

/** The slice of an AG-UI agent the controller reads and listens to. */
export interface ControlledAgent {
  agentId?: string;
  threadId: string;
  messages: ReadonlyArray<{ id: string }>;
  pendingInterrupts: Array<{ id: string }>;
  subscribe(subscriber: Record<string, (params: any) => unknown>): { unsubscribe(): void };
}

/** The slice of CopilotKit the controller needs to send a resume again (Retry). */
export interface ControlledCopilotKit {
  runAgent(params: { agent: any; resume?: unknown; runId?: string; forwardedProps?: Record<string, unknown> }): Promise<unknown>;
  /** CopilotKit's error events: a run the agent refused to start is only reported here. */
  subscribe?(subscriber: { onError?: (event: { code?: string; context?: { agentId?: string } }) => unknown }): { unsubscribe(): void };
}

export interface ControllerSettings {
  agentId: string;
  resolveDelayMs: number;
  onInterruptResume?: InterruptResumeHandler;
  /** The hook's `allowAlways` option: which tools approval cards may always allow. */
  allowAlways?: boolean | readonly string[];
}

/** The open set CopilotKit is showing: standard interrupts, or one legacy `on_interrupt` event. */
interface OpenSet {
  kind: 'standard' | 'legacy';
  interrupts: UnwrappedInterrupt[];
  actions: CopilotKitInterruptActions;
}

/** What a card's action records: an answer (with its payload) or a cancel. */
type Outcome = { status: 'submitting'; result: unknown } | { status: 'cancelled' };

const lastId = (messages: ReadonlyArray<{ id: string }> | undefined): string | null =>
  messages && messages.length > 0 ? messages[messages.length - 1].id : null;

/**
 * Why a card is in `error` when its answer was handed to CopilotKit but no run carrying it started.
 * CopilotKit's resolve then did nothing: its pending interrupt was already cleared (another run
 * started, or the agent changed), or the agent refused the run before starting it.
 */
const NOT_HANDED_OVER =
  'Not sent: CopilotKit no longer had this interrupt open (or the agent refused the run), so the answer never reached the agent.';

/**
 * What an agent or CopilotKit reported, as a sentence for the card. Unlike `errorMessage`, a value
 * that carries no message of its own gets `fallback`, never "[object Object]".
 */
const errorText = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message ? error.message : typeof error === 'string' && error ? error : fallback;

const runFailed = (error: unknown): string => errorText(error, 'The resume run failed.');

/** Tells CopilotKit to drop its pending state for `id` once the current call is done; a failure there is ignored. */
const cancelQuietly = (open: OpenSet, id: string): void => {
  void Promise.resolve()
    .then(() => open.actions.cancel(id))
    .catch(() => undefined);
};

/**
 * The state machine behind `useInterruptRenderers`, free of React: it records answers in the
 * history store (which every card reads), defers CopilotKit's resolve until the read-only card is
 * painted, follows the resume run to settle cards as resolved or error, and re-sends on Retry.
 * Cards never hold this state themselves because CopilotKit memoizes the rendered slot element.
 */
export class InterruptController {
  settings: ControllerSettings;
  /** How cards draw themselves; replaced with {@link setView}. */
  view: CardView;
  readonly history: InterruptHistory;

  #agent?: ControlledAgent;
  #copilotkit?: ControlledCopilotKit;
  #open?: OpenSet;
  /** Ids handed to CopilotKit for the current open set. */
  #handedOver = new Set<string>();
  /** Where each interrupt appeared (last message id at that moment) and which run raised it. */
  #anchors = new Map<string, string | null>();
  #runIds = new Map<string, string>();
  #legacy?: { anchor: string | null; runId?: string; value: unknown };
  /** Answered but not yet sent: waiting for the read-only card to be painted. */
  #unsent = new Set<string>();
  #scheduled = new Map<string, () => void>();
  #inflight?: ResumeBatch;
  #failed = new Map<string, ResumeBatch>();
  #retrying?: ResumeBatch;
  #claims = new Map<string, number>();
  #warned = new Set<string>();
  #listeners = new Set<() => void>();
  /** The user sent a chat message the agent refused because an open interrupt has no answer. */
  #chatBlocked = false;

  constructor(history: InterruptHistory, settings: ControllerSettings, view: CardView) {
    this.history = history;
    this.settings = settings;
    this.view = view;
  }

  // ---- external store for claims and settings (cards subscribe) ----

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #emit() {
    for (const listener of [...this.#listeners]) listener();
  }

  /**
   * What cards get as `onInterruptResume`: a stable function that calls the app's latest
   * callback, so a card CopilotKit keeps memoized never calls a stale one.
   */
  readonly forwardResume: InterruptResumeHandler = (payload, interrupt) => this.settings.onInterruptResume?.(payload, interrupt);

  /** New renderers, locale or labels: every card redraws. */
  setView(view: CardView): void {
    this.view = view;
    this.#emit();
  }

  // ---- wiring ----

  get threadId(): string {
    return this.#agent?.threadId ?? 'default';
  }

  /**
   * An id-less legacy event gets a content hash as its id, so the same question asked twice in a
   * thread would share one record and the second could never be answered. The run that raised it
   * makes the id unique; CopilotKit's legacy path resolves without an id, so renaming is safe.
   */
  identifyLegacy(interrupts: UnwrappedInterrupt[]): UnwrappedInterrupt[] {
    const runId = this.#legacy?.runId;
    if (!runId) return interrupts;
    return interrupts.map((i) => (SYNTHESIZED_ID.test(i.id) ? { ...i, id: `${i.id}@${runId}` } : i));
  }

  /** The batch in flight, if `input` is the run carrying it. */
  #carriedBy(input: unknown): ResumeBatch | undefined {
    const batch = this.#inflight;
    return input && batch?.run === input ? batch : undefined;
  }

  /** Follow an agent's runs. Returns the unsubscribe function. */
  attach(agent: ControlledAgent, copilotkit: ControlledCopilotKit): () => void {
    this.#agent = agent;
    this.#copilotkit = copilotkit;
    const subscription = agent.subscribe({
      onRunFinishedEvent: ({ outcome, interrupts, input, messages }) => {
        if (outcome !== 'interrupt' || !Array.isArray(interrupts)) return;
        for (const interrupt of interrupts) {
          if (!this.#anchors.has(interrupt.id)) this.#anchors.set(interrupt.id, lastId(messages));
          if (input?.runId) this.#runIds.set(interrupt.id, input.runId);
        }
      },
      onCustomEvent: ({ event, input, messages }) => {
        if (event?.name !== 'on_interrupt') return;
        this.#legacy = { anchor: lastId(messages), runId: input?.runId, value: event.value };
      },
      onRunInitialized: ({ input }) => {
        const batch = this.#inflight;
        if (batch && !batch.run && carriesBatch(batch, input)) batch.run = input;
      },
      // Only the run carrying the answer settles it: CopilotKit ends the active run (a chat reply
      // still streaming, say) before it starts the resume run, and that end is not the answer's.
      onRunErrorEvent: ({ event, input }) => {
        const batch = this.#carriedBy(input);
        if (batch) batch.failure = errorText(event?.message, 'The agent reported an error.');
      },
      onRunFailed: ({ error, input }) => {
        const batch = this.#carriedBy(input);
        if (batch) this.#fail(batch, runFailed(error));
      },
      onRunFinalized: ({ input }) => {
        const batch = this.#carriedBy(input);
        if (!batch) return;
        if (batch.failure) this.#fail(batch, batch.failure);
        else this.#settle(batch);
      },
    });
    const errors = copilotkit.subscribe?.({
      onError: ({ code, context }) => {
        if (code === 'agent_run_failed' && (!context?.agentId || context.agentId === agent.agentId)) this.#runRefused();
      },
    });
    // Answers whose send a previous detach cancelled (the agent changed identity) go out now.
    for (const id of this.#unsent) this.committed(id);
    return () => {
      subscription.unsubscribe();
      errors?.unsubscribe();
    };
  }

  /**
   * The interrupts CopilotKit currently shows. Called from the `useInterrupt` render callback;
   * it only records bookkeeping (no store update), so it is safe during render.
   */
  setOpen(kind: OpenSet['kind'], interrupts: UnwrappedInterrupt[], actions: CopilotKitInterruptActions): void {
    const open = this.#open;
    const sameSet =
      open?.kind === kind &&
      open.interrupts.length === interrupts.length &&
      open.interrupts.every((i, n) => i.id === interrupts[n].id);
    if (!sameSet) {
      this.#handedOver = new Set();
      this.#chatBlocked = false;
    }
    this.#open = { kind, interrupts, actions };
    for (const interrupt of interrupts) {
      if (!this.#anchors.has(interrupt.id)) {
        this.#anchors.set(interrupt.id, kind === 'legacy' && this.#legacy ? this.#legacy.anchor : this.#lastMessageId());
      }
      this.#warnOnce(interrupt);
    }
  }

  #warnOnce(interrupt: UnwrappedInterrupt) {
    if (!interrupt.problem || this.#warned.has(interrupt.id)) return;
    this.#warned.add(interrupt.id);
    console.warn(`${LOG} Interrupt "${interrupt.id}" could not be fully understood: ${interrupt.problem}`, interrupt.raw);
  }

  // ---- card actions ----

  /** A card's `resolve(payload)`: read-only at once, sent once painted. Later clicks do nothing. */
  answer(interrupt: UnwrappedInterrupt, payload: unknown): void {
    this.#act(interrupt, { status: 'submitting', result: payload });
  }

  /** A card's `cancel()`: AG-UI `cancelled`, deferred like an answer. */
  dismiss(interrupt: UnwrappedInterrupt): void {
    this.#act(interrupt, { status: 'cancelled' });
  }

  #act(interrupt: UnwrappedInterrupt, outcome: Outcome) {
    if (this.#recordOf(interrupt.id)) return;
    if (isExpired(interrupt)) {
      this.expire(interrupt);
      return;
    }
    this.#remember(interrupt, outcome);
    this.#unsent.add(interrupt.id);
    if (this.#chatBlocked) {
      this.#chatBlocked = false;
      this.#emit();
    }
  }

  /** Records what the user did (or that the interrupt expired), anchored where it appeared. */
  #remember(interrupt: UnwrappedInterrupt, outcome: Outcome | { status: 'expired' }) {
    this.history.record({
      threadId: this.threadId,
      id: interrupt.id,
      reason: interrupt.reason,
      interrupt,
      ...outcome,
      anchor: this.#anchors.get(interrupt.id) ?? this.#lastMessageId(),
      agentId: this.settings.agentId,
    });
  }

  #recordOf(id: string): InterruptHistoryRecord | undefined {
    return this.history.get(this.threadId, id);
  }

  #update(id: string, patch: Parameters<InterruptHistory['update']>[2]) {
    this.history.update(this.threadId, id, patch);
  }

  #lastMessageId() {
    return lastId(this.#agent?.messages);
  }

  /** The agent forgets these interrupts, so the next chat message is not refused for them. */
  #forget(ids: string[]) {
    if (this.#agent) this.#agent.pendingInterrupts = this.#agent.pendingInterrupts.filter((i) => !ids.includes(i.id));
  }

  /** Whether every open interrupt has been handed to CopilotKit. */
  #allHandedOver(open: OpenSet): boolean {
    return open.interrupts.every((i) => this.#handedOver.has(i.id));
  }

  /**
   * A run of this agent failed before it started. While a standard interrupt waits for an answer,
   * AG-UI refuses any run that does not answer it, so a chat message the user sent now goes
   * nowhere and CopilotKit only logs it: the first open card says what to do instead.
   */
  #runRefused() {
    const open = this.#open;
    if (this.#chatBlocked || this.#inflight || open?.kind !== 'standard' || !this.#agent?.pendingInterrupts.length) return;
    if (!open.interrupts.some((i) => !this.#recordOf(i.id))) return;
    this.#chatBlocked = true;
    this.#emit();
  }

  /** Whether the card of `id` should ask the user to answer it before chatting on. */
  asksToAnswerFirst(id: string): boolean {
    return this.#chatBlocked && this.#open?.interrupts.find((i) => !this.#recordOf(i.id))?.id === id;
  }

  /**
   * The interrupt passed its `expiresAt`: read-only "Expired", nothing sent. CopilotKit is told
   * (it drops its pending state without resuming) and the agent forgets the interrupt, so the
   * next chat message is not refused for an unaddressed interrupt.
   */
  expire(interrupt: UnwrappedInterrupt): void {
    if (this.#recordOf(interrupt.id)) return;
    console.warn(`${LOG} Interrupt "${interrupt.id}" expired at ${interrupt.expiresAt}; no answer will be sent.`);
    this.#remember(interrupt, { status: 'expired' });
    this.#forget([interrupt.id]);
    const open = this.#open;
    if (open?.interrupts.some((i) => i.id === interrupt.id)) {
      this.#handedOver.add(interrupt.id);
      this.#abandonIfExpired(open);
      cancelQuietly(open, interrupt.id);
    }
  }

  /**
   * CopilotKit sends nothing once every open interrupt is addressed but one of them expired
   * (AG-UI forbids answering it). The other answers would then wait forever: say so instead,
   * and let the agent forget the set so the user can keep chatting.
   */
  #abandonIfExpired(open: OpenSet): boolean {
    if (!this.#allHandedOver(open)) return false;
    const expired = open.interrupts.find((i) => this.#recordOf(i.id)?.status === 'expired');
    if (!expired) return false;
    const message = `Not sent: interrupt "${expired.id}" expired, and answers to an expired set cannot be sent.`;
    for (const interrupt of open.interrupts) {
      if (this.#recordOf(interrupt.id)?.status !== 'expired') this.#update(interrupt.id, { status: 'error', error: message });
    }
    this.#forget(open.interrupts.map((i) => i.id));
    console.warn(`${LOG} ${message}`);
    return true;
  }

  /**
   * Whether Retry can send anything for `id` now: only a failed resume whose answers are kept, and
   * only while no other resume is on its way (CopilotKit runs one at a time and would cut it off).
   * A card in `error` for another reason (a sibling expired, the interrupt was gone before sending,
   * a record restored from history) has nothing to send, so cards get no `retry` for it.
   */
  canRetry(id: string): boolean {
    const batch = this.#failed.get(id);
    return !!(batch?.resume || batch?.legacy) && !this.#retrying && !this.#inflight;
  }

  /** A card in `error`: send the same resume again. */
  retry(id: string): void {
    if (!this.canRetry(id)) return;
    const batch = this.#failed.get(id)!;
    const cancelled = new Set(batch.resume?.filter((e) => e.status === 'cancelled').map((e) => e.interruptId));
    for (const batchId of batch.ids) this.#failed.delete(batchId);
    for (const batchId of batch.ids) {
      this.#update(batchId, { status: cancelled.has(batchId) ? 'cancelled' : 'submitting', error: undefined });
    }
    this.#retrying = { ...batch, failure: undefined, run: undefined };
    this.#unsent.add(id);
    this.#emit(); // other failed cards hide their Retry meanwhile
  }

  /** The resume on its way; cards follow it through `canRetry`. */
  #setInflight(batch: ResumeBatch | undefined) {
    if (this.#inflight === batch) return;
    this.#inflight = batch;
    this.#emit();
  }

  /**
   * A card showing `id` read-only has committed. Schedule the send for after the paint plus
   * `resolveDelayMs`; repeated calls (re-renders, slot and echo both mounted) are ignored.
   */
  committed(id: string): void {
    if (!this.#unsent.has(id) || this.#scheduled.has(id)) return;
    this.#scheduled.set(
      id,
      afterPaint(() => this.#send(id), this.settings.resolveDelayMs),
    );
  }

  #send(id: string) {
    this.#scheduled.delete(id);
    this.#unsent.delete(id);
    const retrying = this.#retrying;
    if (retrying?.ids.includes(id)) {
      this.#retrying = undefined;
      this.#resend(retrying);
      return;
    }
    const record = this.#recordOf(id);
    const open = this.#open;
    const interrupt = open?.interrupts.find((i) => i.id === id);
    if (!record || !open || !interrupt) {
      if (record) this.#fail({ ids: [id] }, 'The interrupt is no longer open, so the answer could not be sent.');
      return;
    }
    this.#handedOver.add(id);
    if (this.#abandonIfExpired(open)) {
      // CopilotKit still has to drop its pending state; it logs the expiry and sends nothing.
      cancelQuietly(open, id);
      return;
    }
    this.#notify(record, interrupt);
    const batch = this.#batchIfComplete(open);
    if (batch) this.#setInflight(batch);
    const call = () =>
      record.status === 'cancelled' ? open.actions.cancel(id) : open.actions.resolve(record.result, id);
    Promise.resolve()
      .then(call)
      .then(
        () => batch && this.#failIfNotSent(batch),
        (error) => batch && this.#fail(batch, runFailed(error)),
      );
    // A legacy cancel only dismisses: no run follows, so nothing is left to settle.
    if (batch && open.kind === 'legacy' && record.status === 'cancelled') this.#setInflight(undefined);
  }

  /** Once every open interrupt is handed over, CopilotKit sends one resume: remember it. */
  #batchIfComplete(open: OpenSet): ResumeBatch | undefined {
    if (!this.#allHandedOver(open)) return undefined;
    const ids = open.interrupts.map((i) => i.id);
    const records = ids.map((id) => this.#recordOf(id));
    if (records.some((r) => !r || r.status === 'expired')) return undefined;
    if (open.kind === 'legacy') {
      const legacy = this.#legacy;
      return {
        ids,
        runId: legacy?.runId,
        legacy: { resume: records[0]!.result, interruptEvent: legacy?.value ?? legacyValue(open.interrupts[0]) },
      };
    }
    return { ids, runId: this.#runIds.get(ids[0]), resume: records.map((r) => toResumeEntry(r!)) };
  }

  #resend(batch: ResumeBatch) {
    const agent = this.#agent;
    const copilotkit = this.#copilotkit;
    if (!agent || !copilotkit) return;
    this.#setInflight(batch);
    const answers = batch.legacy ? { forwardedProps: { command: batch.legacy } } : { resume: batch.resume };
    copilotkit.runAgent({ agent, ...answers, ...(batch.runId && { runId: batch.runId }) }).then(
      () => this.#failIfNotSent(batch),
      (error) => this.#fail(batch, runFailed(error)),
    );
  }

  /**
   * Called once CopilotKit's `resolve` / `cancel` (or `runAgent`, for Retry) has returned for the
   * hand-over that completes `batch`. They return only after the resume run has ended, or at once
   * when they sent nothing: `resolve` / `cancel` return `undefined` when CopilotKit's pending
   * interrupt was already cleared (a run started, the agent changed, CopilotKit found it expired),
   * and CopilotKit's `runAgent` catches every failure, an agent refusing the run before it starts
   * included, and only reports it. Then no run carrying the answer was initialized, and no run
   * event will ever settle the batch:
   * without this the card would show "Sending…" and then "resolved" when some unrelated run ends.
   */
  #failIfNotSent(batch: ResumeBatch) {
    if (this.#inflight !== batch || batch.run) return;
    this.#setInflight(undefined);
    const expired = batch.ids.map((id) => this.#recordOf(id)?.interrupt).find((i) => i && isExpired(i));
    if (!expired) {
      this.#fail(batch, NOT_HANDED_OVER);
      return;
    }
    // Expired while the answer waited to be sent: AG-UI forbids answering it, so nothing can be
    // resent (no Retry), and the agent forgets the set so the user can keep chatting.
    this.#forget(batch.ids);
    this.#fail({ ids: batch.ids }, `Not sent: interrupt "${expired.id}" expired before the answer went out.`);
  }

  #notify(record: InterruptHistoryRecord, interrupt: UnwrappedInterrupt) {
    const handler = this.settings.onInterruptResume;
    if (!handler) return;
    try {
      const result = handler(toResumeRecord(record), toProtocolInterrupt(interrupt));
      if (result && typeof (result as Promise<unknown>).catch === 'function') {
        (result as Promise<unknown>).catch((error) => console.error(`${LOG} onInterruptResume rejected:`, error));
      }
    } catch (error) {
      console.error(`${LOG} onInterruptResume threw:`, error);
    }
  }

  /** `batch` is no longer on its way (its run ended, or it never started). */
  #landed(batch: ResumeBatch) {
    if (this.#inflight === batch) this.#setInflight(undefined);
  }

  #settle(batch: ResumeBatch) {
    this.#landed(batch);
    for (const id of batch.ids) {
      if (this.#recordOf(id)?.status === 'submitting') this.#update(id, { status: 'resolved' });
    }
  }

  #fail(batch: ResumeBatch, message: string) {
    this.#landed(batch);
    if (batch.ids.every((id) => this.#failed.get(id) === batch)) return;
    console.error(`${LOG} Resuming interrupt(s) ${batch.ids.join(', ')} failed: ${message}`);
    for (const id of batch.ids) {
      this.#failed.set(id, batch);
      this.#update(id, { status: 'error', error: message });
    }
  }

  // ---- echo claims: which interrupts the transcript is showing ----

  /** The transcript echo of `id` is mounted; the slot copy hides. Returns the release function. */
  claim(id: string): () => void {
    this.#claims.set(id, (this.#claims.get(id) ?? 0) + 1);
    this.#emit();
    return () => {
      const left = (this.#claims.get(id) ?? 1) - 1;
      if (left > 0) this.#claims.set(id, left);
      else this.#claims.delete(id);
      this.#emit();
    };
  }

  isClaimed(id: string): boolean {
    return this.#claims.has(id);
  }

  /** Stop timers (unmount). Answers not yet sent cannot be sent without the hook. */
  dispose(): void {
    for (const cancel of this.#scheduled.values()) cancel();
    this.#scheduled.clear();
  }
}

export function isExpired(interrupt: Pick<UnwrappedInterrupt, 'expiresAt'>, now = Date.now()): boolean {
  if (!interrupt.expiresAt) return false;
  const at = Date.parse(interrupt.expiresAt);
  return Number.isFinite(at) && at <= now;
}

/** Ids `unwrapInterrupt` made up from content for input that carried none. */
const SYNTHESIZED_ID = /^(legacy|raw|invalid)-[0-9a-f]{8}$/;

/** The legacy event's `value`, as CopilotKit forwards it in `command.interruptEvent`. */
function legacyValue(interrupt: UnwrappedInterrupt): unknown {
  const raw = interrupt.raw as { value?: unknown } | undefined;
  return raw && typeof raw === 'object' && 'value' in raw ? raw.value : raw;
}
