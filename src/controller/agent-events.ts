import type { InterruptKey, InterruptSession, ResumeEntry, SessionBatch } from '../session';
import { NOT_HANDED_OVER } from '../session';
import { openRequests, runErrorMeaning, type RunErrorMeaning } from '../session/refusal';
import type { CardIndex } from './card-index';
import { runFailed, type AgentWrappers, type DispatchResult, type Effect } from './effects';
import { givenToOthers } from '../unwrap/people';
import { carriesBatch } from './resume-batch';
import { onThreadChanged } from './thread-changes';

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
export type AgentRunParams = { resume?: unknown; runId?: string; forwardedProps?: { command?: unknown } & Record<string, unknown> };

/** A run's input, as far as the controller reads it. */
type RunInput = { runId?: string; resume?: Array<{ interruptId?: string }>; forwardedProps?: { command?: unknown } };
type RunMessages = ReadonlyArray<{ id: string }>;
type RaisedInterrupt = { id?: unknown; expiresAt?: unknown; metadata?: unknown };

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

/** What the agent-event translation reads of the controller. */
export interface AgentEventsHost {
  readonly session: InterruptSession;
  readonly cards: CardIndex;
  dispatch(decisions: readonly Effect[], subjects?: readonly InterruptKey[]): DispatchResult;
  /** The adapter let go of the agent: what waits for a paint is dropped. */
  cancelScheduled(): void;
}

export const lastId = (messages: ReadonlyArray<{ id: string }> | undefined): string | null =>
  messages && messages.length > 0 ? messages[messages.length - 1].id : null;

/** What identifies a batch in a run's input: its resume entries, or the legacy command. */
const carried = (batch: SessionBatch) => ({
  ids: batch.keys.map((k) => k.id),
  legacy: batch.carry.type === 'command' ? batch.carry.command : undefined,
});

/**
 * The translation of what AG-UI and CopilotKit report into session events: a run's start, stop,
 * error and end, a legacy event, a refused run, a connect's replay, a run the chat starts. It
 * keeps what that translation needs (the agent followed, the run carrying this tab's resume and
 * what that run reported, the run ids a replay shows) and decides nothing: the session does, and
 * the controller's dispatch carries the decisions out.
 */
export class AgentEvents {
  #host: AgentEventsHost;
  agent?: ControlledAgent;
  copilotkit?: ControlledCopilotKit;
  #attachments = 0;
  #detach?: () => void;
  /** The run carrying the session's batch on its way, and what that run reported, read when it ends. */
  #carrier?: { batch: SessionBatch; run?: object; finished?: boolean } & Partial<RunErrorMeaning>;
  /** The run ids the server gave the runs a stream shows (its RUN_STARTED's input), by the stream's input. */
  #runIds = new WeakMap<object, string>();
  #refreshing?: Promise<void>;

  constructor(host: AgentEventsHost) {
    this.#host = host;
  }

  /**
   * Follow an agent's runs. Returns the detach function. The controller is kept per agent, so two
   * mounted hooks for one agent share it: the second attach only counts, or every run event
   * would reach the session twice.
   */
  attach(agent: ControlledAgent, copilotkit: ControlledCopilotKit): () => void {
    if (this.#attachments > 0 && this.agent === agent) {
      this.#attachments++;
      return this.#release;
    }
    this.#detach?.();
    this.#attachments = 1;
    this.#detach = this.#follow(agent, copilotkit);
    return this.#release;
  }

  #release = () => {
    if (--this.#attachments > 0) return;
    this.#detach?.();
    this.#detach = undefined;
  };

  #follow(agent: ControlledAgent, copilotkit: ControlledCopilotKit): () => void {
    const { session, dispatch } = this.#host;
    this.agent = agent;
    this.copilotkit = copilotkit;
    this.followThread();
    const subscription = agent.subscribe(this.#runSubscriber());
    const errors = copilotkit.subscribe?.({
      // A run the agent refused before it started: while an interrupt waits for an answer, AG-UI
      // refuses any run that does not answer it. The user sent a chat message: the session decides.
      onError: ({ code, context }) => {
        if (code === 'agent_run_failed' && (!context?.agentId || context.agentId === agent.agentId))
          dispatch(session.chatSent({ agentWaits: agent.pendingInterrupts.length > 0 }));
      },
      // The chat points the agent at another thread and connects at once: that thread's turn.
      onAgentRunStarted: (event) => {
        if (event.agent === agent) this.followThread();
      },
    });
    const { wrappers, originals, endReplays } = this.#wrappers(agent);
    const unlisten = onThreadChanged((threadId, waiting) => {
      if (threadId !== session.threadId || (waiting && session.showsWaiting(waiting))) return;
      void this.refreshThread();
    });
    // Answers whose send an unmount cancelled go out now.
    dispatch([{ type: 'wrap-agent', wrappers }, ...session.attached()]);
    return () => {
      endReplays();
      dispatch([{ type: 'unwrap-agent', wrappers, originals }]);
      unlisten();
      subscription.unsubscribe();
      errors?.unsubscribe();
      this.#host.cancelScheduled();
      dispatch(session.detached());
    };
  }

  #runSubscriber(): RunSubscriber {
    const { session, dispatch } = this.#host;
    return {
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
        dispatch(session.answeredInThread(resume, { withChat, stream }));
      },
      onRunFinishedEvent: ({ outcome, interrupts, input, messages }) => {
        const carrying = this.#carriedBy(input);
        if (carrying) carrying.finished = true;
        const stopped = outcome === 'interrupt' && Array.isArray(interrupts);
        this.#finished(input, stopped ? interrupts : undefined, messages, !!carrying);
      },
      onCustomEvent: ({ event, input, messages }) => {
        if (event?.name !== 'on_interrupt') return;
        const legacy = { name: event.name, value: event.value };
        const cards = this.#host.cards.unwrap({ event: legacy });
        const interrupts = cards.map((i) => ({ id: i.id, expiresAt: i.expiresAt, legacyEvent: event.value }));
        session.legacyEventSent({ runId: input?.runId, value: event.value, event: legacy, anchor: lastId(messages), interrupts });
      },
      onRunInitialized: ({ input }) => {
        const carrier = this.#carrier;
        if (carrier && !carrier.run && carriesBatch(carried(carrier.batch), input)) carrier.run = input;
        // A replay of the thread is no other run: the set it shows is the one open here.
        else if (input && !carrier?.run && !session.replaying) dispatch(session.otherRunStarted());
      },
      // Only the run carrying the answer settles it: CopilotKit ends the active run (a chat reply
      // still streaming, say) before it starts the resume run, and that end is not the answer's.
      onRunErrorEvent: ({ event, input, messages }) => this.#runError(event, input, messages),
      onRunFailed: ({ error, input }) => {
        const carrier = this.#carriedBy(input);
        if (carrier) this.landed(carrier.batch, runFailed(error));
      },
      // A run the chat stopped following (it unmounted or changed thread) ends without
      // RUN_FINISHED (cut off). A run that reported an error keeps it: Retry sends the answer again.
      onRunFinalized: ({ input }) => {
        const carrier = this.#carriedBy(input);
        if (carrier) this.landed(carrier.batch, carrier.failure, { cutOff: !carrier.finished && !carrier.failure });
      },
    };
  }

  /** A run finished: stopped for `interrupts` (a stop, or a refusal as changed), or went on. */
  #finished(input: RunInput | undefined, interrupts: RaisedInterrupt[] | undefined, messages: RunMessages | undefined, carrying: boolean) {
    const { session, dispatch } = this.#host;
    // Which of them the runner gave to others, read from the set as the cards will draw it (unwrapped
    // once per stop: the draw that follows reuses it).
    const others = new Set(
      interrupts ? this.#host.cards.unwrap({ interrupts }).flatMap((card) => (givenToOthers(card) ? [card.id] : [])) : [],
    );
    const raised = interrupts?.flatMap((i) => {
      const id = i?.id;
      return typeof id === 'string' ? [{ id, expiresAt: i.expiresAt, ...(others.has(id) && { forOthers: true }) }] : [];
    });
    dispatch(
      session.runFinished({
        threadId: this.agent?.threadId ?? session.threadId,
        runId: input?.runId,
        // Each connect streams the thread under its own input: the stream its replay is counted on,
        // and the run it shows the one a stop belongs to, so a stop seen again keeps its key.
        raisedIn: (input && this.#runIds.get(input)) ?? input?.runId ?? 'unknown',
        stream: input,
        interrupts: raised,
        source: interrupts,
        anchor: lastId(messages),
        carrying,
      }),
    );
  }

  /**
   * A run's RUN_ERROR: what it means for the carried answers (`runErrorMeaning`), kept until the
   * run ends, or another device's refusal. Returns whether CopilotKit's own subscriber hears of it.
   */
  #runError(event: RunErrorEvent, input: RunInput | undefined, messages: RunMessages | undefined): { stopPropagation?: boolean } | void {
    const carrier = this.#carriedBy(input);
    const meaning = runErrorMeaning(event);
    if (carrier) Object.assign(carrier, meaning);
    // Another device's answer refused as changed (live, or in the thread's replay): the
    // requests the refusal carries, signed by the server, are the thread's open set now.
    else if (meaning.reopen) this.#finished(input, openRequests(event?.interrupts), messages, false);
    // Another device's answer came first: an expected end, which the card shows (with the answer
    // that won). CopilotKit, whose subscriber comes after this one, would report it as a failed
    // run (a console error); it is not one, so it stops here.
    return meaning.expected ? { stopPropagation: true } : undefined;
  }

  /**
   * The agent's methods the controller wraps, to hear of what CopilotKit asks of it: a run the chat
   * starts for the user's message (it adds the answers owed, or holds the run), and a connect that
   * replays the thread (the session counts its stops again). Put on and taken off by the dispatch.
   */
  #wrappers(agent: ControlledAgent): { wrappers: AgentWrappers; originals: AgentWrappers; endReplays: () => void } {
    const wrappers: AgentWrappers = {};
    const originals: AgentWrappers = {};
    const { runAgent, connectAgent } = agent;
    if (Object.prototype.hasOwnProperty.call(agent, 'runAgent')) originals.runAgent = runAgent;
    if (Object.prototype.hasOwnProperty.call(agent, 'connectAgent')) originals.connectAgent = connectAgent;
    if (typeof runAgent === 'function') wrappers.runAgent = (params, subscriber) => this.#chatRun(runAgent.bind(agent), params, subscriber);
    // The connects under way; each ends its replay once, when it settles or the hook lets go.
    const connects = new Set<symbol>();
    const ended = (connect: symbol) => {
      if (connects.delete(connect)) this.#host.session.replayEnded();
    };
    if (typeof connectAgent === 'function')
      wrappers.connectAgent = (params, subscriber) => {
        this.followThread();
        const connect = Symbol('connect');
        connects.add(connect);
        this.#host.session.replayStarted();
        return connectAgent.call(agent, params, subscriber).finally(() => ended(connect));
      };
    return { wrappers, originals, endReplays: () => connects.forEach(ended) };
  }

  /**
   * A run the chat starts goes through the agent's `runAgent`, which refuses it while an interrupt
   * waits for an answer. The session decides what it carries (the answers owed, `cancelled` for the
   * cards the message dismisses) or that it waits; a resume (this tab's or CopilotKit's) is left as it is.
   */
  #chatRun(runAgent: NonNullable<ControlledAgent['runAgent']>, params: AgentRunParams | undefined, subscriber: unknown): Promise<unknown> {
    const agent = this.agent;
    if (!agent || params?.resume !== undefined || params?.forwardedProps?.command !== undefined) return runAgent(params, subscriber);
    const { session, dispatch } = this.#host;
    const { chatRun: batch, hold } = dispatch(session.chatRunStarting({ agentWaits: agent.pendingInterrupts.length > 0 }));
    if (hold) return Promise.resolve({ result: undefined, newMessages: [] });
    if (!batch) return runAgent(params, subscriber);
    return runAgent({ ...params, resume: batch.resume, runId: batch.runId }, subscriber).then(
      (result) => {
        this.failIfNotSent(batch);
        return result;
      },
      (error: unknown) => {
        this.landed(batch, runFailed(error));
        throw error;
      },
    );
  }

  /**
   * The chat may show another thread: the session follows it (the open set stays with its thread,
   * and AG-UI's client forgets it, or it would refuse every run of the new thread).
   */
  followThread(): void {
    const threadId = this.agent?.threadId;
    if (threadId && threadId !== this.#host.session.threadId) this.#host.dispatch(this.#host.session.threadSwitched(threadId));
  }

  /** The run that will carry `batch` is this tab's: its end settles the batch. */
  carry(batch: SessionBatch): void {
    this.#carrier = { batch };
  }

  /** The carrier, if `input` is the run carrying the batch on its way. */
  #carriedBy(input: unknown) {
    const carrier = this.#carrier;
    return input && carrier?.run === input ? carrier : undefined;
  }

  /**
   * CopilotKit's `runAgent` catches every failure, an agent refusing the run before it starts
   * included, and only reports it. When it returns and no run carrying the answer was
   * initialized, no run event will ever settle the batch: say so instead of "Sending…" forever.
   */
  failIfNotSent(batch: SessionBatch): void {
    if (this.#carrier?.batch !== batch || this.#carrier.run) return;
    this.landed(batch, NOT_HANDED_OVER);
  }

  /** `batch` is no longer on its way: delivered, or failed with `failure`; the session says what that means. */
  landed(batch: SessionBatch, failure?: string, { cutOff = false }: { cutOff?: boolean } = {}): void {
    const carrier = this.#carrier?.batch === batch ? this.#carrier : undefined;
    if (carrier) this.#carrier = undefined;
    const messages = this.agent?.messages;
    const chatUnanswered = messages?.[messages.length - 1]?.role === 'user';
    const { session, dispatch } = this.#host;
    dispatch(session.batchEnded(batch, { failure, refusal: carrier, chatUnanswered, cutOff, anchor: lastId(messages) }), batch.keys);
  }

  /**
   * Reads the thread again from the server (CopilotKit's connect: the thread's runs replayed), so
   * cards another device answered meanwhile turn read-only with the answer the agent received,
   * marked as answered on another device. The session says whether the thread needs it.
   */
  refreshThread(): Promise<void> {
    if (this.#refreshing) return this.#refreshing;
    const { agent, copilotkit } = this;
    // Only a thread a runtime keeps can be read again (an agent in the page replays nothing, and its
    // connect would only close the set it shows), and not while a run streams into it.
    const possible = !!agent && !!copilotkit?.connectAgent && !agent.isRunning && typeof agent.runtimeUrl === 'string';
    const decisions = this.#host.session.rereadWanted({ possible });
    // Nothing to read: no dispatch, so nothing redraws (the hook asks on every window focus).
    if (!decisions.some((d) => d.type === 'reread')) return Promise.resolve();
    const { reread } = this.#host.dispatch(decisions);
    if (!reread) return Promise.resolve();
    const refreshing = reread.finally(() => {
      if (this.#refreshing === refreshing) this.#refreshing = undefined;
    });
    this.#refreshing = refreshing;
    return refreshing;
  }
}

type RunErrorEvent = Parameters<NonNullable<RunSubscriber['onRunErrorEvent']>>[0]['event'];
