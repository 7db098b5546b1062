import type { InterruptHistory } from '../history';
import { errorMessage } from '../error-message';
import { LOG, debugLog } from '../log';
import { createListeners } from '../listeners';
import {
  InterruptSession,
  keyOf,
  statusOf,
  NOT_HANDED_OVER,
  type InterruptAnswer,
  type InterruptKey,
  type ResumeEntry,
  type SessionBatch,
  type SessionDecision,
} from '../session';
import { toProtocolInterrupt, unwrapInterrupts, type UnwrappedInterrupt } from '../unwrap';
import { peopleOf } from '../unwrap/people';
import { isRecord } from '../wire/guards';
import { afterPaint } from './after-paint';
import type { AnyInterruptResume, InterruptPeople, OnInterruptResume } from '../protocol/types';
import { carriesBatch } from './resume-batch';
import { onThreadChanged } from './thread-changes';
import { toResumeRecord } from './resume-record';
import { runErrorMeaning, type RunErrorMeaning } from '../session/refusal';
import { sameSnapshot, type CardSnapshot } from './card-snapshot';

/** CopilotKit's `resolve` / `cancel` from the `useInterrupt` render props. */
export interface CopilotKitInterruptActions {
  resolve: (payload: unknown, interruptId?: string) => unknown;
  cancel: (interruptId?: string) => unknown;
}

/** The slice of an AG-UI agent the controller reads and listens to. */
export interface ControlledAgent {
  agentId?: string;
  threadId: string;
  messages: ReadonlyArray<{ id: string; role?: string }>;
  pendingInterrupts: Array<{ id: string }>;
  /** AG-UI's: a run (or a connect) is streaming into the agent. */
  isRunning?: boolean;
  /** Set when CopilotKit reaches the agent through a runtime, whose runner keeps (and replays) the thread. */
  runtimeUrl?: string;
  subscribe(subscriber: RunSubscriber): { unsubscribe(): void };
  /** AG-UI's `runAgent`: the controller adds the answers owed to a run the chat starts. */
  runAgent?(params?: AgentRunParams, subscriber?: unknown): Promise<unknown>;
  /** AG-UI's `connectAgent`: the chat replays the thread's runs through it. */
  connectAgent?(params?: unknown, subscriber?: unknown): Promise<unknown>;
  /** AG-UI's: replaces the transcript (a re-read rebuilds it from the replay). */
  setMessages?(messages: ReadonlyArray<{ id: string; role?: string }>): void;
}

/** What CopilotKit passes to an agent's `runAgent`, as far as the controller reads and adds to it. */
type AgentRunParams = { resume?: unknown; runId?: string; forwardedProps?: { command?: unknown } & Record<string, unknown> };

/** A run's input, as far as the controller reads it. */
type RunInput = { runId?: string; resume?: Array<{ interruptId?: string }>; forwardedProps?: { command?: unknown } };
type RunMessages = ReadonlyArray<{ id: string }>;
type RaisedInterrupt = { id?: unknown; expiresAt?: unknown; metadata?: unknown };

/** The runner told this viewer they may not answer it (it waits for someone else). */
const forOthers = (interrupt: { metadata?: unknown; people?: { viewerMayAnswer: boolean } }): boolean =>
  (interrupt.people ?? (isRecord(interrupt.metadata) ? peopleOf(interrupt.metadata) : undefined))?.viewerMayAnswer === false;

/** The AG-UI subscriber callbacks the controller listens to, with what it reads of their parameters. */
interface RunSubscriber {
  onRunStartedEvent?(params: { event?: { input?: RunInput & { messages?: ReadonlyArray<{ role?: string }> } }; input?: RunInput }): unknown;
  onRunFinishedEvent?(params: { outcome?: string; interrupts?: RaisedInterrupt[]; input?: RunInput; messages?: RunMessages }): unknown;
  onCustomEvent?(params: { event?: { name?: string; value?: unknown }; input?: RunInput; messages?: RunMessages }): unknown;
  onRunInitialized?(params: { input?: RunInput }): unknown;
  onRunErrorEvent?(params: {
    event?: { message?: unknown; code?: unknown; answers?: unknown; interrupts?: unknown };
    input?: RunInput;
    messages?: RunMessages;
  }): { stopPropagation?: boolean } | void;
  onRunFailed?(params: { error?: unknown; input?: RunInput }): unknown;
  onRunFinalized?(params: { input?: RunInput }): unknown;
}

/** The slice of CopilotKit the controller needs to send a resume. */
export interface ControlledCopilotKit {
  runAgent(params: {
    agent: ControlledAgent;
    resume?: unknown;
    runId?: string;
    forwardedProps?: Record<string, unknown>;
  }): Promise<unknown>;
  /** CopilotKit's connect: reads the thread again (its runs replayed) into the agent. */
  connectAgent?(params: { agent: ControlledAgent }): Promise<unknown>;
  /**
   * CopilotKit's own events: a run the agent refused to start is only reported here, and a run or
   * connect is announced here before the agent checks its pending interrupts.
   */
  subscribe?(subscriber: {
    onError?: (event: { code?: string; context?: { agentId?: string } }) => unknown;
    onAgentRunStarted?: (event: { agent?: unknown }) => unknown;
  }): { unsubscribe(): void };
}

export interface ControllerSettings {
  agentId: string;
  resolveDelayMs: number;
  onInterruptResume?: OnInterruptResume<AnyInterruptResume, unknown>;
  /** The hook's `allowAlways` option: which tools approval cards may always allow. */
  allowAlways?: boolean | readonly string[];
  onChatWhileOpen?: 'dismiss' | 'block';
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
  /** Drawn from a refusal as changed, not from a stop CopilotKit shows (see {@link InterruptController.reopened}). */
  reopened?: boolean;
}

/** A legacy `on_interrupt` event: CopilotKit resumes it with `forwardedProps.command`. */
interface LegacyEvent {
  anchor: string | null;
  runId?: string;
  value: unknown;
  /** The event as CopilotKit's `useInterrupt` passes it on (`event`). */
  event: { name?: string; value?: unknown };
  /** Raised in the session (when its run finished, or when CopilotKit showed it). */
  raised?: boolean;
}

/** What a card shows: one interrupt, under the id its history record has. */
interface Card {
  key: InterruptKey;
  interrupt: UnwrappedInterrupt;
  anchor: string | null;
}

const NONE: UnwrappedInterrupt[] = [];

const lastId = (messages: ReadonlyArray<{ id: string }> | undefined): string | null =>
  messages && messages.length > 0 ? messages[messages.length - 1].id : null;

const runFailed = (error: unknown): string => errorMessage(error, 'The resume run failed.');

/**
 * The adapter of {@link InterruptSession}: it feeds CopilotKit's and the cards' events into the
 * session and carries out the decisions it returns (after-paint scheduling, CopilotKit's
 * `runAgent` / `cancel`, history writes), all through {@link InterruptController#dispatch}, the
 * one place that tells listeners. What it stores is wiring: which card shows which interrupt,
 * where each appeared, which run carries the resume. The session decides what a refusal means
 * (`runErrorMeaning`), whom an answer is told to, which requests changed; some rules are still
 * here (a run that sent both a legacy event and an outcome, whether a chat run may carry answers,
 * the waiting count), and some effects happen outside the dispatch (patching the agent's
 * `runAgent` and `connectAgent`, clearing its pending interrupts when a run ends unseen).
 */
export class InterruptController<View = unknown> {
  #settings: ControllerSettings;
  /** How cards draw themselves; replaced with {@link setView}. */
  view: View;
  readonly history: InterruptHistory;
  readonly session: InterruptSession;

  #agent?: ControlledAgent;
  #copilotkit?: ControlledCopilotKit;
  #open?: OpenSet;
  #legacy?: LegacyEvent;
  /** Cards by the id of their history record. */
  #cards = new Map<string, Card>();
  #anchors = new Map<string, string | null>();
  #scheduled = new Map<string, () => void>();
  /**
   * The run carrying the session's batch on its way (whether one is on its way is the session's
   * to say), and what that run reported, read when it ends.
   */
  #carrier?: {
    batch: SessionBatch;
    run?: object;
    finished?: boolean;
  } & Partial<RunErrorMeaning>;
  #claims = new Map<string, number>();
  #warned = new Set<string>();
  #listeners = createListeners();

  constructor(history: InterruptHistory, settings: ControllerSettings, view: View) {
    this.history = history;
    this.#settings = settings;
    this.view = view;
    this.session = new InterruptSession({ threadId: 'default', onChatWhileOpen: settings.onChatWhileOpen });
  }

  // ---- external store: what cards show (they subscribe) ----

  /**
   * Listens to every change a card can show: the controller's (once per {@link #dispatch}), and
   * the history's made elsewhere (another tab, the app). The history is followed while anyone
   * listens here; its changes made during a dispatch are told with the dispatch's one notification.
   */
  subscribe = (listener: () => void): (() => void) => {
    const unsubscribe = this.#listeners.subscribe(listener);
    if (this.#subscribers++ === 0) {
      this.#unfollowHistory = this.history.subscribe(() => {
        if (!this.#dispatching) this.#listeners.notify();
      });
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      unsubscribe();
      if (--this.#subscribers === 0) this.#unfollowHistory?.();
    };
  };

  #subscribers = 0;
  #unfollowHistory?: () => void;
  #dispatching = false;

  #snapshots = new Map<string, CardSnapshot<View>>();

  /**
   * What the card of `id` in `threadId` shows now: the one value a card reads. The same object
   * while nothing in it changed, so `useSyncExternalStore` redraws a card only for its own changes.
   */
  cardSnapshot(threadId: string, id: string): CardSnapshot<View> {
    const record = this.history.get(threadId, id);
    const status = record?.status ?? 'pending';
    const card = this.#cards.get(id);
    const next: CardSnapshot<View> = {
      view: this.view,
      status,
      result: record?.result,
      error: record?.error,
      elsewhere: !!record?.elsewhere,
      answerFirst: status === 'pending' && !!card && this.session.asksToAnswerFirst(card.key),
      heldFor: this.#heldFor(status, card?.key),
      canRetry: status === 'error' && this.#canRetry(id),
      changed: status === 'pending' && !!card && !!this.session.get(card.key)?.changed,
      steppedAside: this.#claims.has(id) || this.session.away,
      allowedTools: this.history.allowedTools(threadId),
    };
    const cacheKey = `${threadId}\n${id}`;
    const previous = this.#snapshots.get(cacheKey);
    if (previous && sameSnapshot(previous, next)) return previous;
    this.#snapshots.set(cacheKey, next);
    return next;
  }

  /**
   * What cards get as `onInterruptResume`: a stable function that calls the app's latest
   * callback, so a card CopilotKit keeps memoized never calls a stale one.
   */
  readonly forwardResume: OnInterruptResume<AnyInterruptResume, unknown> = (payload, interrupt) =>
    this.settings.onInterruptResume?.(payload, interrupt);

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
   * mounted hooks for one agent share it: the second attach only counts, or every run event
   * would reach the session twice.
   */
  attach(agent: ControlledAgent, copilotkit: ControlledCopilotKit): () => void {
    if (this.#attachments > 0 && this.#agent === agent) {
      this.#attachments++;
      return this.#release;
    }
    this.#detach?.();
    this.#attachments = 1;
    this.#detach = this.#follow(agent, copilotkit);
    return this.#release;
  }

  #attachments = 0;
  #detach?: () => void;
  #release = () => {
    if (--this.#attachments > 0) return;
    this.#detach?.();
    this.#detach = undefined;
  };

  #follow(agent: ControlledAgent, copilotkit: ControlledCopilotKit): () => void {
    this.#agent = agent;
    this.#copilotkit = copilotkit;
    this.session.policy = this.settings.onChatWhileOpen ?? 'dismiss';
    this.#followThread();
    const subscription = agent.subscribe({
      // A run whose stored input answers the open set: the thread's replay on connect (another
      // device, a new browser, cleared storage), or a run another device started. Its answers are
      // the record; a run this tab started carries its own batch and is left to it.
      onRunStartedEvent: ({ event, input: stream }) => {
        const input = event?.input;
        // The run as the server keeps it: in a thread's replay, the run the stream shows now.
        if (stream && typeof input?.runId === 'string') this.#runIds.set(stream, input.runId);
        if (!Array.isArray(input?.resume) || input.resume.length === 0) return;
        const resume = input.resume.filter((r): r is ResumeEntry => typeof r?.interruptId === 'string');
        const withChat = !!input.messages?.some((m) => m.role === 'user');
        this.#dispatch(this.session.answeredInThread(resume, { withChat, stream }));
      },
      onRunFinishedEvent: ({ outcome, interrupts, input, messages }) => {
        const carrying = this.#carriedBy(input);
        if (carrying) carrying.finished = true;
        const stopped = outcome === 'interrupt' && Array.isArray(interrupts);
        const legacy = this.#legacy;
        if (legacy && !legacy.raised && legacy.runId !== undefined && legacy.runId === input?.runId) {
          // A run that sent both (the server builds a standard outcome from the agent's event, and
          // forwards the event) stopped once: its outcome is the set, the one CopilotKit shows and
          // the one answered by id. Raising the event too would draw a second card for the same
          // request and replace the first with it, swallowing an answer given to the first.
          if (stopped && interrupts.length > 0) legacy.raised = true;
          else {
            this.#raiseLegacy(legacy);
            return;
          }
        }
        if (!stopped) {
          // A run went on without this set's answers: a thread's connect replays the run that
          // answered it, after the one that raised it.
          if (!carrying && this.session.openSet.length) this.#dispatch(this.session.otherRunStarted({ stream: input }));
          return;
        }
        this.#raisedBy(input, interrupts, messages);
      },
      onCustomEvent: ({ event, input, messages }) => {
        if (event?.name !== 'on_interrupt') return;
        this.#legacy = {
          anchor: lastId(messages),
          runId: input?.runId,
          value: event.value,
          event: { name: event.name, value: event.value },
        };
      },
      onRunInitialized: ({ input }) => {
        const carrier = this.#carrier;
        if (carrier && !carrier.run && carriesBatch(carried(carrier.batch), input)) carrier.run = input;
        // A replay of the thread is no other run: the set it shows is the one open here.
        else if (input && !carrier?.run && !this.session.replaying) this.#dispatch(this.session.otherRunStarted());
      },
      // Only the run carrying the answer settles it: CopilotKit ends the active run (a chat reply
      // still streaming, say) before it starts the resume run, and that end is not the answer's.
      onRunErrorEvent: (params) => this.#runError(params),
      onRunFailed: ({ error, input }) => {
        const carrier = this.#carriedBy(input);
        if (carrier) this.#landed(carrier.batch, runFailed(error));
      },
      onRunFinalized: ({ input }) => {
        const carrier = this.#carriedBy(input);
        if (!carrier) return;
        // A run the chat stopped following (it unmounted or changed thread) ends without
        // RUN_FINISHED. The agent has the answer, but AG-UI's client still lists the interrupt as
        // pending and would refuse every later run: it is answered, so it goes. (A run that
        // reported an error keeps it: Retry sends the answer again.)
        if (!carrier.finished && !carrier.failure) forget(agent, carrier.batch.keys);
        this.#landed(carrier.batch, carrier.failure);
      },
    });
    const errors = copilotkit.subscribe?.({
      onError: ({ code, context }) => {
        if (code === 'agent_run_failed' && (!context?.agentId || context.agentId === agent.agentId)) this.#runRefused();
      },
      // The chat points the agent at another thread and connects at once: that thread's turn.
      onAgentRunStarted: (event) => {
        if (event.agent === agent) this.#followThread();
      },
    });
    const unpatch = this.#carryAnswersInChatRuns(agent);
    const unwatch = this.#watchReplays(agent);
    const unlisten = onThreadChanged((threadId, waiting) => {
      if (threadId !== this.session.threadId || (waiting && this.session.showsWaiting(waiting))) return;
      void this.refreshThread();
    });
    // Answers whose send an unmount cancelled go out now.
    this.#dispatch(this.session.attached());
    return () => {
      unpatch();
      unwatch();
      unlisten();
      subscription.unsubscribe();
      errors?.unsubscribe();
      for (const cancel of this.#scheduled.values()) cancel();
      this.#scheduled.clear();
      this.#dispatch(this.session.detached());
    };
  }

  /**
   * The run that sent a legacy `on_interrupt` event finished: its set is raised and drawn now,
   * like a standard one, since a hook that mounted during the run (a remount) never hears of the
   * event from CopilotKit's `useInterrupt`.
   */
  #raiseLegacy(legacy: LegacyEvent) {
    this.#followThread();
    legacy.raised = true;
    const cards = this.unwrap({ event: legacy.event });
    const raised = cards.map((i) => ({ id: i.id, expiresAt: i.expiresAt, legacyEvent: legacy.value }));
    const decisions = this.session.raised(legacy.runId ?? 'restored', raised, this.#recordedElsewhere(legacy.anchor));
    for (const key of this.session.openSet) if (!this.#anchors.has(keyOf(key))) this.#anchors.set(keyOf(key), legacy.anchor);
    this.setOpen('legacy', cards);
    this.#dispatch(decisions);
  }

  /** A run left `interrupts` open (its stop, or a refusal as changed): they are the open set. */
  #raisedBy(input: RunInput | undefined, interrupts: RaisedInterrupt[], messages: RunMessages | undefined) {
    this.#followThread();
    const raised = interrupts.flatMap((i) =>
      typeof i?.id === 'string' ? [{ id: i.id, expiresAt: i.expiresAt, ...(forOthers(i) && { forOthers: true }) }] : [],
    );
    const anchor = lastId(messages);
    // Each connect streams the thread under its own input: the stream its replay is counted on.
    const decisions = this.session.raised(this.#runOf(input) ?? 'unknown', raised, this.#recordedElsewhere(anchor), { stream: input });
    for (const key of this.session.openSet) if (!this.#anchors.has(keyOf(key))) this.#anchors.set(keyOf(key), anchor);
    // Drawn now: CopilotKit's `useInterrupt` shows the set once the run is over, and one that
    // mounted during the run (the hook remounted) never hears of it (AG-UI keeps a run's subscribers).
    this.setOpen('standard', this.unwrap({ interrupts }));
    this.#dispatch(decisions);
  }

  /**
   * A run the chat starts for the user's message goes through the agent's `runAgent`, which
   * refuses it (CopilotKit logs the refusal as an error) while an interrupt waits for an answer.
   * The session decides what that run carries (the answers owed, `cancelled` for the cards the
   * message dismisses) or that it waits; the controller adds it before the agent checks. Returns
   * the function that takes the wrapper off.
   */
  #carryAnswersInChatRuns(agent: ControlledAgent): () => void {
    const runAgent = agent.runAgent;
    if (typeof runAgent !== 'function') return () => undefined;
    const own = Object.prototype.hasOwnProperty.call(agent, 'runAgent');
    const carrying = (params?: AgentRunParams, subscriber?: unknown): Promise<unknown> => {
      const plan = this.#chatRunStarting(params);
      if (plan === 'hold') return Promise.resolve({ result: undefined, newMessages: [] });
      if (!plan) return runAgent.call(agent, params, subscriber);
      return runAgent.call(agent, plan.params, subscriber).then(
        (result) => {
          this.#failIfNotSent(plan.batch);
          return result;
        },
        (error: unknown) => {
          this.#landed(plan.batch, runFailed(error));
          throw error;
        },
      );
    };
    agent.runAgent = carrying;
    return () => {
      if (agent.runAgent !== carrying) return;
      if (own) agent.runAgent = runAgent;
      else delete agent.runAgent;
    };
  }

  /** What a run the chat starts must carry, or `'hold'`; nothing for a resume (this controller's or CopilotKit's). */
  #chatRunStarting(params?: AgentRunParams): { params: AgentRunParams; batch: SessionBatch } | 'hold' | undefined {
    const agent = this.#agent;
    if (params?.resume !== undefined || params?.forwardedProps?.command !== undefined) return;
    if (!agent || this.#open?.kind !== 'standard' || !agent.pendingInterrupts.length) return;
    let plan: { params: AgentRunParams; batch: SessionBatch } | 'hold' | undefined;
    const rest: SessionDecision[] = [];
    for (const decision of this.session.chatRunStarting()) {
      if (decision.type === 'hold-chat-run') plan = 'hold';
      else if (decision.type === 'send' && decision.batch.inChatRun) {
        this.#handOver(decision.batch);
        this.#carrier = { batch: decision.batch };
        plan = { batch: decision.batch, params: { ...params, resume: decision.batch.resume, runId: decision.batch.runId } };
      } else rest.push(decision);
    }
    this.#dispatch(rest, plan && plan !== 'hold' ? plan.batch.keys : []);
    return plan;
  }

  /**
   * The chat shows another thread. Its cards stay with their thread: they step aside until the
   * agent stops again, and AG-UI's client, which keeps one list of pending interrupts per agent,
   * forgets them, or it would refuse every run of the new thread (connecting to it, too). Going
   * back, the thread's connect lists them again.
   */
  #followThread() {
    const threadId = this.#agent?.threadId;
    if (threadId && threadId !== this.session.threadId) this.#dispatch(this.session.threadSwitched(threadId));
  }

  /**
   * A run's RUN_ERROR: what it means for the carried answers (`runErrorMeaning`), kept until the
   * run ends, or another device's refusal. Returns whether CopilotKit's own subscriber hears of it.
   */
  #runError({
    event,
    input,
    messages,
  }: Parameters<NonNullable<RunSubscriber['onRunErrorEvent']>>[0]): { stopPropagation?: boolean } | void {
    const carrier = this.#carriedBy(input);
    const meaning = runErrorMeaning(event);
    if (carrier) Object.assign(carrier, meaning);
    // Another device's answer refused as changed (live, or in the thread's replay): the
    // requests the refusal carries, signed by the server, are the thread's open set now.
    else if (meaning.reopen) this.#raisedBy(input, meaning.reopen, messages);
    // Another device's answer came first: an expected end, which the card shows (with the answer
    // that won). CopilotKit, whose subscriber comes after this one, would report it as a failed
    // run (a console error); it is not one, so it stops here.
    return meaning.expected ? { stopPropagation: true } : undefined;
  }

  /** The run ids the server gave the runs a stream shows (its RUN_STARTED's input), by the stream's input. */
  #runIds = new WeakMap<object, string>();

  /**
   * The run a stop belongs to. In a thread's replay the stream is the connect's, whose own run id
   * is new on every connect: the stop belongs to the run the replay is showing, which is the run
   * it stopped in when it happened, so a stop seen again keeps its key (and its card, its record).
   */
  #runOf(input: RunInput | undefined): string | undefined {
    return (input && this.#runIds.get(input)) ?? input?.runId;
  }

  /**
   * A connect replays the thread's runs from its start: the session is told before the first
   * event and after the last, so the stops it has already seen are known again, not raised anew.
   * Returns the function that takes the wrapper off.
   */
  #watchReplays(agent: ControlledAgent): () => void {
    const connectAgent = agent.connectAgent;
    if (typeof connectAgent !== 'function') return () => undefined;
    const own = Object.prototype.hasOwnProperty.call(agent, 'connectAgent');
    // The connects under way; each ends its replay once, when it settles or the hook lets go.
    const connects = new Set<symbol>();
    const ended = (connect: symbol) => {
      if (connects.delete(connect)) this.session.replayEnded();
    };
    const replaying = (params?: unknown, subscriber?: unknown): Promise<unknown> => {
      this.#followThread();
      const connect = Symbol('connect');
      connects.add(connect);
      this.session.replayStarted();
      return connectAgent.call(agent, params, subscriber).finally(() => ended(connect));
    };
    agent.connectAgent = replaying;
    return () => {
      for (const connect of connects) ended(connect);
      if (agent.connectAgent !== replaying) return;
      if (own) agent.connectAgent = connectAgent;
      else delete agent.connectAgent;
    };
  }

  #refreshing?: Promise<void>;

  /**
   * Reads the thread again from the server (CopilotKit's connect: the thread's runs replayed), so
   * cards another device answered meanwhile turn read-only with the answer the agent received,
   * marked as answered on another device. Call it when the thread may have changed elsewhere: the
   * hook does on window focus and when the tab becomes visible, and {@link threadChanged} (the
   * inbox's poll) does for the thread it names. Only a thread with cards waiting here is read: an
   * answer of this tab on its way, or a run streaming, already shows the thread as it is.
   */
  refreshThread(): Promise<void> {
    const agent = this.#agent;
    const copilotkit = this.#copilotkit;
    if (this.#refreshing) return this.#refreshing;
    if (!agent || !copilotkit?.connectAgent || agent.isRunning || this.session.sending || this.session.away) return Promise.resolve();
    // Only a thread a runtime keeps can be read again: an agent in the page replays nothing, and
    // its connect would only close the set it shows.
    if (typeof agent.runtimeUrl !== 'string') return Promise.resolve();
    if (!this.session.openSet.some((key) => this.session.get(key)?.phase === 'open' || this.session.get(key)?.phase === 'answered'))
      return Promise.resolve();
    // AG-UI's client refuses a connect while it holds pending interrupts; the replay lists the
    // thread's again (none, if another device answered them).
    const pending = agent.pendingInterrupts;
    agent.pendingInterrupts = [];
    // The replay brings the whole thread, and AG-UI appends a replayed message's text to the one
    // the chat holds: the transcript is rebuilt from the replay (and kept if the read fails).
    const messages = agent.messages;
    agent.setMessages?.([]);
    const refreshing = copilotkit
      .connectAgent({ agent })
      .then(
        () => undefined,
        (error: unknown) => console.warn(`${LOG} Could not read thread "${agent.threadId}" again:`, error),
      )
      .finally(() => {
        if (this.#refreshing === refreshing) this.#refreshing = undefined;
        // A read that did not get through (CopilotKit reports it) leaves the set as it was.
        const open = this.session.openSet.filter((key) => this.session.get(key)?.phase === 'open');
        if (agent.pendingInterrupts.length === 0 && open.length > 0) agent.pendingInterrupts = pending;
        if (agent.messages.length === 0 && messages.length > 0) agent.setMessages?.(messages);
      });
    this.#refreshing = refreshing;
    return refreshing;
  }

  /** The carrier, if `input` is the run carrying the batch on its way. */
  #carriedBy(input: unknown) {
    const carrier = this.#carrier;
    return input && carrier?.run === input ? carrier : undefined;
  }

  /**
   * Whether this thread's history already has a record under `id` for another raise than the one
   * at `anchor` (the session keeps ids unique). The same raise replayed (a reload, a connect to the
   * thread) is the one its record was written for: it keeps that record, so it is drawn once.
   */
  #recordedElsewhere = (anchor: string | null) => (id: string) => {
    const record = this.history.get(this.session.threadId, id);
    return record !== undefined && record.anchor !== anchor;
  };

  /** The last standard set unwrapped: the raw interrupts it was read from, and what they read as. */
  #unwrapped?: { raw: readonly unknown[]; cards: UnwrappedInterrupt[] };

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

  /**
   * The interrupts CopilotKit currently shows, as the cards to draw. Called from the `useInterrupt`
   * render callback, and when the agent stops; it only records bookkeeping (no store update), so it
   * is safe during render.
   * Interrupts sharing an id are each drawn (the session refuses them, and their cards say why).
   */
  setOpen(kind: OpenSet['kind'], interrupts: UnwrappedInterrupt[], actions?: CopilotKitInterruptActions): UnwrappedInterrupt[] {
    // What CopilotKit still shows of the thread the chat left (the agent has not stopped since): not this thread's to raise.
    if (this.session.away) return [];
    // The set drawn when the agent stopped, which CopilotKit shows after the run, or shows again: same cards.
    const previous = this.#open;
    if (previous?.stops === this.session.stops && previous.raw.map((i) => i.id).join('\n') === interrupts.map((i) => i.id).join('\n')) {
      previous.actions = actions;
      this.#followPeople(previous, interrupts);
      return previous.cards;
    }
    const cards = this.#openCards(kind, interrupts);
    this.#open = { kind, actions, raw: interrupts, cards, stops: this.session.stops };
    return cards;
  }

  /**
   * The same set shown again (a thread read again): the runner's word on people is as of this read
   * (who answered, since), so the cards take it; their records follow it when they settle.
   */
  #followPeople(open: OpenSet, interrupts: UnwrappedInterrupt[]) {
    open.cards = open.cards.map((card, n) => {
      const people = interrupts[n]?.people;
      if (!people || JSON.stringify(people) === JSON.stringify(card.people)) return card;
      const next = { ...card, people };
      const entry = this.#cards.get(card.id);
      if (entry) this.#cards.set(card.id, { ...entry, interrupt: next });
      return next;
    });
  }

  #openCards(kind: OpenSet['kind'], interrupts: UnwrappedInterrupt[]): UnwrappedInterrupt[] {
    let open = this.session.openSet;
    const keysOf = (keys: readonly InterruptKey[]) => {
      const seen = new Map<string, number>();
      return interrupts.map((i) => {
        const copy = seen.get(i.id) ?? 0;
        seen.set(i.id, copy + 1);
        return keys.find((k) => k.id === i.id && (k.copy ?? 0) === copy);
      });
    };
    let keys = keysOf(open);
    // A stop of the thread's past that a replay passes by draws no card of its own.
    if (keys.some((k) => !k) && !this.session.replayedStop(interrupts.map((i) => i.id))) {
      // Raised before this hook listened (a remount, a restored thread) or a legacy event.
      this.#followThread();
      const runId = (kind === 'legacy' ? this.#legacy?.runId : undefined) ?? 'restored';
      if (kind === 'legacy' && this.#legacy) this.#legacy.raised = true;
      const raised = interrupts.map((i) => ({
        id: i.id,
        expiresAt: i.expiresAt,
        ...(forOthers(i) && { forOthers: true }),
        ...(kind === 'legacy' && { legacyEvent: this.#legacy ? this.#legacy.value : legacyValue(i) }),
      }));
      const decisions = this.session.raised(
        runId,
        raised,
        this.#recordedElsewhere(kind === 'legacy' && this.#legacy ? this.#legacy.anchor : this.#lastMessageId()),
      );
      // This may run while CopilotKit renders: cards of a superseded (or refused) set learn why after it.
      if (decisions.some((d) => d.type !== 'nothing')) queueMicrotask(() => this.#dispatch(decisions));
      open = this.session.openSet;
      keys = keysOf(open);
      const anchor = kind === 'legacy' && this.#legacy ? this.#legacy.anchor : this.#lastMessageId();
      for (const key of open) if (!this.#anchors.has(keyOf(key))) this.#anchors.set(keyOf(key), anchor);
    }
    return interrupts.flatMap((interrupt, n) => {
      const key = keys[n];
      if (!key) return [];
      const id = this.#cardId(key);
      const card = { ...interrupt, id };
      this.#cards.set(id, {
        key,
        interrupt: card,
        anchor: this.#anchors.get(keyOf(key)) ?? this.#lastMessageId(),
      });
      if (interrupt.problem)
        this.#warnOnce(id, `${LOG} Interrupt "${id}" could not be fully understood: ${interrupt.problem}`, interrupt.raw);
      return [card];
    });
  }

  /** The id of the card (and of its history record) for a session key: the session assigns it. */
  #cardId(key: InterruptKey): string {
    return this.session.get(key)?.recordId ?? key.id;
  }

  #warnOnce(id: string, message: string, detail?: unknown) {
    if (this.#warned.has(id)) return;
    this.#warned.add(id);
    console.warn(message, ...(detail === undefined ? [] : [detail]));
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
    if (!card || this.session.get(card.key)?.phase !== 'open') return;
    // Normal, and shown on the card: a debug message only (setInterruptsDebug).
    debugLog(`Interrupt "${interrupt.id}" expired at ${interrupt.expiresAt}; the agent gets "cancelled" with the next run.`);
    this.#dispatch(this.session.expired(card.key), [card.key]);
  }

  /**
   * A run of this agent failed before it started: while an interrupt waits for an answer, AG-UI
   * refuses any run that does not answer it. The user sent a chat message; the session decides
   * (dismiss the open cards and answer them `cancelled` with that message, or ask to answer first).
   */
  #runRefused() {
    if (this.#open?.kind !== 'standard' || !this.#agent?.pendingInterrupts.length) return;
    this.#dispatch(this.session.chatSent());
  }

  /** Who the answer of `key` waits for: the people of the set's card given to others, while it is open. */
  #heldFor(status: string, key: InterruptKey | undefined): InterruptPeople | undefined {
    const other = status === 'submitting' && key ? this.session.heldFor(key) : undefined;
    return other && this.#cards.get(this.#cardId(other))?.interrupt.people;
  }

  /** Whether Retry can send anything for `id` now. */
  #canRetry(id: string): boolean {
    const card = this.#cards.get(id);
    return !!card && this.session.canRetry(card.key);
  }

  /** A card in `error`: the same resume again, after the paint and the resolve delay like the first send. */
  retry(id: string): void {
    const card = this.#cards.get(id);
    if (!card || !this.#canRetry(id)) return;
    const decisions = this.session.retry(card.key);
    // "Sending…" at once (other failed cards hide their Retry meanwhile); the send itself waits
    // for that paint and the resolve delay, like the first send.
    this.#dispatch(
      [],
      decisions.flatMap((d) => (d.type === 'send' ? d.batch.keys : [])),
    );
    this.#later(`retry:${id}`, () => this.#dispatch(decisions));
  }

  // ---- carrying out decisions ----

  /**
   * Carries out one batch of the session's decisions, and what carrying them out makes the session
   * decide in turn, then writes the records of every interrupt they name (and of `subjects`, those
   * of the event that produced them) and tells listeners once. The only place listeners hear of a
   * change: decisions, and (with no decision) a new view or transcript claim.
   */
  #dispatch(decisions: readonly SessionDecision[], subjects: readonly InterruptKey[] = []) {
    // A dispatch inside a dispatch (a send settled at once) is part of it: the outer one notifies.
    const outer = !this.#dispatching;
    this.#dispatching = true;
    try {
      this.#carryOut(decisions, subjects);
    } finally {
      if (outer) this.#dispatching = false;
    }
    if (outer) this.#listeners.notify();
  }

  #carryOut(decisions: readonly SessionDecision[], subjects: readonly InterruptKey[]) {
    const queue = [...decisions];
    const touched = [...subjects];
    for (let decision = queue.shift(); decision; decision = queue.shift()) {
      switch (decision.type) {
        case 'after-paint': {
          const { key } = decision;
          touched.push(key);
          this.#later(keyOf(key), () => this.#dispatch(this.session.painted(key), [key]));
          break;
        }
        case 'send':
          touched.push(...decision.batch.keys);
          queue.push(...this.#send(decision.batch));
          break;
        case 'show-error': {
          touched.push(...decision.keys);
          const ids = decision.keys.map((k) => this.#cardId(k)).join(', ');
          if (decision.refused) console.error(`${LOG} Interrupt(s) ${ids} refused: ${decision.message}`);
          else
            (decision.message === NOT_HANDED_OVER || decision.canRetry ? console.error : console.warn)(
              `${LOG} Resuming interrupt(s) ${ids} failed: ${decision.message}`,
            );
          break;
        }
        case 'record':
          touched.push(...decision.keys);
          break;
        case 'forget-pending':
          if (this.#agent) this.#agent.pendingInterrupts = [];
          break;
        case 'reply-to-chat': {
          const agent = this.#agent;
          if (agent)
            this.#copilotkit?.runAgent({ agent }).catch((error) => console.error(`${LOG} The reply to the chat message failed:`, error));
          break;
        }
        // 'answer-first' is read back in `cardSnapshot`; 'hold-chat-run' is the chat run's wrapper's.
      }
    }
    for (const key of touched) this.#sync(key);
  }

  /** Run `callback` once the current state is painted, plus `resolveDelayMs`; repeats are ignored. */
  #later(id: string, callback: () => void) {
    if (this.#scheduled.has(id)) return;
    this.#scheduled.set(
      id,
      afterPaint(() => {
        this.#scheduled.delete(id);
        callback();
      }, this.settings.resolveDelayMs),
    );
  }

  /** Starts the run carrying `batch`; returns what the session decides if it cannot (or need not) wait for one. */
  #send(batch: SessionBatch): SessionDecision[] {
    const agent = this.#agent;
    const copilotkit = this.#copilotkit;
    batch.keys.forEach((k) => this.#sync(k));
    if (!agent || !copilotkit) return this.session.notDelivered(batch.batchId, NOT_HANDED_OVER);
    this.#handOver(batch);

    if (batch.carry.type === 'dismiss') {
      // A legacy cancel only dismisses: CopilotKit drops the event and no run follows.
      void Promise.resolve()
        .then(() => this.#open?.actions?.cancel())
        .catch(() => undefined);
      return this.session.delivered(batch.batchId);
    }
    this.#carrier = { batch };
    const answers = batch.carry.type === 'command' ? { forwardedProps: { command: batch.carry.command } } : { resume: batch.resume };
    copilotkit.runAgent({ agent, ...answers, ...(batch.runId && { runId: batch.runId }) }).then(
      () => this.#failIfNotSent(batch),
      (error) => this.#landed(batch, runFailed(error)),
    );
    return [];
  }

  /** What goes with every run carrying `batch`: records written, the app told, expired interrupts let go (the session says which). */
  #handOver(batch: SessionBatch) {
    batch.keys.forEach((k) => this.#sync(k));
    for (const key of batch.told) this.#notify(key);
    if (this.#agent) forget(this.#agent, batch.expired);
  }

  /**
   * CopilotKit's `runAgent` catches every failure, an agent refusing the run before it starts
   * included, and only reports it. When it returns and no run carrying the answer was
   * initialized, no run event will ever settle the batch: say so instead of "Sending…" forever.
   */
  #failIfNotSent(batch: SessionBatch) {
    if (this.#carrier?.batch !== batch || this.#carrier.run) return;
    this.#landed(batch, NOT_HANDED_OVER);
  }

  /** `batch` is no longer on its way: delivered, or failed with `failure`. */
  #landed(batch: SessionBatch, failure?: string) {
    const carrier = this.#carrier?.batch === batch ? this.#carrier : undefined;
    const { elsewhere, final, reopen } = carrier ?? {};
    if (carrier) this.#carrier = undefined;
    const messages = this.#agent?.messages;
    const chatUnanswered = messages?.[messages.length - 1]?.role === 'user';
    if (elsewhere && this.#agent) forget(this.#agent, batch.keys);
    const decisions = elsewhere
      ? this.session.answeredElsewhere(batch.batchId, elsewhere)
      : failure
        ? this.session.notDelivered(batch.batchId, failure, !final)
        : this.session.delivered(batch.batchId, chatUnanswered);
    // Refused as changed: the requests open now are drawn in the same batch of decisions.
    this.#dispatch([...decisions, ...(reopen ? this.#reopen(batch, reopen) : [])], batch.keys);
  }

  /**
   * The server refused `batch` because a request changed since its card was drawn, and sent the
   * requests open now (signed by it, like a stop's): they are raised and drawn as a new set, the
   * changed ones saying so, and their answers go back under their new ids, to be checked again.
   * Returns the session's decisions for the caller to dispatch.
   */
  #reopen(batch: SessionBatch, interrupts: Array<{ id: string; expiresAt?: unknown }>): SessionDecision[] {
    const agent = this.#agent;
    if (!agent || this.session.threadId !== batch.threadId || this.session.sending) return [];
    const anchor = lastId(agent.messages);
    const raised = interrupts.map((i) => ({ id: i.id, expiresAt: i.expiresAt }));
    const decisions = this.session.raised(batch.runId, raised, this.#recordedElsewhere(anchor), { changedSince: batch.keys });
    for (const key of this.session.openSet) this.#anchors.set(keyOf(key), anchor);
    // AG-UI's client checks a resume against the interrupts it holds: those are the new ones now.
    agent.pendingInterrupts = interrupts;
    this.setOpen('standard', this.unwrap({ interrupts }));
    if (this.#open) this.#open.reopened = true;
    return decisions;
  }

  /**
   * The cards drawn again after a refusal as changed, while they wait: CopilotKit did not see that
   * run stop, so the set it still shows is the refused one, and the slot draws these instead.
   */
  get reopened(): UnwrappedInterrupt[] | undefined {
    return this.#open?.reopened && this.waiting.length > 0 ? this.waiting : undefined;
  }

  /** Writes the history record of `key` from its session phase (the one place records change). */
  #sync(key: InterruptKey) {
    const entry = this.session.get(key);
    const status = entry && statusOf(entry);
    if (!entry || !status || status === 'pending') return;
    const id = this.#cardId(key);
    const card = this.#cards.get(id);
    const current = this.history.get(key.threadId, id);
    const result = entry.answer?.status === 'resolved' ? entry.answer.payload : undefined;
    if (current) {
      // Who it waits for and who answered are the runner's word as of this read: a record made
      // while the card waited follows it, so a card someone else answered says who did.
      const people = card?.interrupt.people;
      if (people && JSON.stringify(people) !== JSON.stringify(current.interrupt.people))
        this.history.record({ ...current, interrupt: { ...current.interrupt, people } });
      if (entry.elsewhere && !current.elsewhere)
        this.history.update(key.threadId, id, { status, result, error: undefined, elsewhere: true });
      else if (current.status !== status || current.error !== entry.error)
        this.history.update(key.threadId, id, { status, error: entry.error });
      return;
    }
    if (!card) return;
    this.history.record({
      threadId: key.threadId,
      id,
      reason: card.interrupt.reason,
      interrupt: card.interrupt,
      status,
      ...(result !== undefined && { result }),
      ...(entry.error && { error: entry.error }),
      ...(entry.elsewhere && { elsewhere: true as const }),
      anchor: card.anchor,
      agentId: this.settings.agentId,
    });
  }

  #notify(key: InterruptKey) {
    const handler = this.settings.onInterruptResume;
    const id = this.#cardId(key);
    const record = this.history.get(key.threadId, id);
    const card = this.#cards.get(id);
    if (!handler || !record || !card) return;
    try {
      const result = handler(toResumeRecord({ ...record, id: key.id }), toProtocolInterrupt({ ...card.interrupt, id: key.id }));
      if (result && typeof (result as Promise<unknown>).catch === 'function') {
        (result as Promise<unknown>).catch((error) => console.error(`${LOG} onInterruptResume rejected:`, error));
      }
    } catch (error) {
      console.error(`${LOG} onInterruptResume threw:`, error);
    }
  }

  #lastMessageId() {
    return lastId(this.#agent?.messages);
  }

  // ---- echo claims: which interrupts the transcript is showing ----

  /** The transcript echo of `id` is mounted; the slot copy hides. Returns the release function. */
  claim(id: string): () => void {
    // No decision: which copy of a card shows changed, so the slot redraws.
    this.#claims.set(id, (this.#claims.get(id) ?? 0) + 1);
    this.#dispatch([]);
    return () => {
      const left = (this.#claims.get(id) ?? 1) - 1;
      if (left > 0) this.#claims.set(id, left);
      else this.#claims.delete(id);
      this.#dispatch([]);
    };
  }

  /** The cards of the set the agent still waits on, as last drawn; none once it is sent or replaced. */
  get waiting(): UnwrappedInterrupt[] {
    const open = this.#open;
    return (this.session.openSet.length && open?.stops === this.session.stops && open.cards) || NONE;
  }

  /** Whether a set is open, answers are on their way or kept with a thread: this controller holds what the user is doing. */
  get busy(): boolean {
    return this.session.holding;
  }

  /**
   * How many cards of the waiting set still wait for this user: not answered, dismissed or
   * expired, and not given by the runner to other people (those wait for them, not for this user).
   */
  get pendingCount(): number {
    return this.waiting.filter((card) => {
      const key = this.#cards.get(card.id)?.key;
      return key && this.session.get(key)?.phase === 'open' && card.people?.viewerMayAnswer !== false;
    }).length;
  }
}

/** The legacy event's `value`, as CopilotKit forwards it in `command.interruptEvent`. */
function legacyValue(interrupt: UnwrappedInterrupt): unknown {
  const raw = interrupt.raw as { value?: unknown } | undefined;
  return raw && typeof raw === 'object' && 'value' in raw ? raw.value : raw;
}

/** Takes interrupts off AG-UI's list of those the agent still waits on. */
function forget(agent: ControlledAgent, keys: InterruptKey[]) {
  const ids = keys.map((k) => k.id);
  agent.pendingInterrupts = agent.pendingInterrupts.filter((i) => !ids.includes(i.id));
}

/** What identifies a batch in a run's input: its resume entries, or the legacy command. */
const carried = (batch: SessionBatch) => ({
  ids: batch.keys.map((k) => k.id),
  legacy: batch.carry.type === 'command' ? batch.carry.command : undefined,
});
