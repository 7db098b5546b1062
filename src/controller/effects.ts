import type { InterruptHistory } from '../history';
import { errorMessage } from '../error-message';
import { debugLog, LOG } from '../log';
import type { AnyInterruptResume, OnInterruptResume } from '../protocol/types';
import {
  keyOf,
  statusOf,
  NOT_HANDED_OVER,
  type InterruptKey,
  type InterruptSession,
  type SessionBatch,
  type SessionDecision,
} from '../session';
import { toProtocolInterrupt } from '../unwrap';
import { afterPaint } from './after-paint';
import type { AgentRunParams, ControlledAgent, ControlledCopilotKit } from './agent-events';
import type { CardIndex } from './card-index';
import { toResumeRecord } from './resume-record';

export interface ControllerSettings {
  agentId: string;
  resolveDelayMs: number;
  onInterruptResume?: OnInterruptResume<AnyInterruptResume, unknown>;
  /** The hook's `allowAlways` option: which tools approval cards may always allow. */
  allowAlways?: boolean | readonly string[];
  onChatWhileOpen?: 'dismiss' | 'block';
}

/** The agent's methods the controller wraps to hear of what CopilotKit asks of it (see `agent-events.ts`). */
export type AgentWrappers = Partial<Pick<ControlledAgent, 'runAgent' | 'connectAgent'>>;

/**
 * What `#dispatch` carries out: the session's decisions, and the adapter's own wiring of the
 * agent (its wrapped methods on, and off again; its transcript put back after a failed re-read).
 */
export type Effect =
  | SessionDecision
  | { type: 'wrap-agent'; wrappers: AgentWrappers }
  | { type: 'unwrap-agent'; wrappers: AgentWrappers; originals: AgentWrappers }
  | { type: 'restore-messages' };

/** What a dispatch hands back to the event that caused it. */
export interface DispatchResult {
  /** The batch the run the chat is starting must carry (`send` with `inChatRun`). */
  chatRun?: SessionBatch;
  /** The run the chat is starting must not start (`hold-chat-run`). */
  hold?: boolean;
  /** The thread's re-read under way (`reread`). */
  reread?: Promise<void>;
}

/** What the interpreter reads of the controller and its other parts. */
export interface EffectsHost {
  readonly session: InterruptSession;
  readonly history: InterruptHistory;
  readonly cards: CardIndex;
  /** The agent followed, and the runs carrying this tab's resumes. */
  readonly events: {
    readonly agent?: ControlledAgent;
    readonly copilotkit?: ControlledCopilotKit;
    /** The run that will carry `batch` is this tab's: its end settles the batch. */
    carry(batch: SessionBatch): void;
    /** CopilotKit's `runAgent` for `batch` returned: a batch no run carried never went. */
    failIfNotSent(batch: SessionBatch): void;
    /** `batch` is no longer on its way: failed with `failure`, or delivered. */
    landed(batch: SessionBatch, failure?: string): void;
  };
  /** The app's latest options. */
  settings(): ControllerSettings;
  dispatch(decisions: readonly Effect[], subjects?: readonly InterruptKey[]): DispatchResult;
}

export const runFailed = (error: unknown): string => errorMessage(error, 'The resume run failed.');

/**
 * The interpreter: the one place the controller's effects happen. It carries out a batch of
 * decisions (and what carrying them out makes the session decide in turn), then writes the
 * history record of every interrupt they name. Only it writes the history, tells the app, starts
 * runs, and changes the agent's pending interrupts, transcript or methods; the controller calls it
 * from its `#dispatch` alone.
 */
export class Effects {
  #host: EffectsHost;
  #scheduled = new Map<string, () => void>();
  /** What a re-read of the thread took off the agent, put back if the read did not get through. */
  #saved?: { pending: Array<{ id: string }>; messages: ControlledAgent['messages'] };

  constructor(host: EffectsHost) {
    this.#host = host;
  }

  /**
   * What cards get as `onInterruptResume`: a stable function that calls the app's latest
   * callback, so a card CopilotKit keeps memoized never calls a stale one.
   */
  readonly forwardResume: OnInterruptResume<AnyInterruptResume, unknown> = (payload, interrupt) =>
    this.#host.settings().onInterruptResume?.(payload, interrupt);

  carryOut(decisions: readonly Effect[], subjects: readonly InterruptKey[]): DispatchResult {
    const queue = [...decisions];
    const touched = [...subjects];
    const result: DispatchResult = {};
    for (let decision = queue.shift(); decision; decision = queue.shift()) {
      if ('keys' in decision && decision.keys) touched.push(...decision.keys);
      if (decision.type === 'after-paint') touched.push(decision.key);
      if (decision.type === 'send') touched.push(...decision.batch.keys);
      queue.push(...this.#carryOutOne(decision, result));
    }
    for (const key of touched) this.#sync(key);
    return result;
  }

  #carryOutOne(decision: Effect, result: DispatchResult): readonly SessionDecision[] {
    const { session } = this.#host;
    const { agent, copilotkit } = this.#host.events;
    switch (decision.type) {
      case 'after-paint': {
        const { key } = decision;
        this.later(keyOf(key), () => this.#host.dispatch(session.painted(key), [key]));
        return [];
      }
      case 'send':
        return this.#send(decision.batch, result);
      case 'show-error':
        this.#log(decision);
        return [];
      case 'record':
        decision.keys.forEach((key) => this.#sync(key));
        return [];
      case 'tell-app':
        if (agent) decision.keys.forEach((key) => this.#tellApp(key));
        return [];
      case 'forget-pending': {
        const ids = decision.keys?.map((k) => k.id);
        if (agent) agent.pendingInterrupts = ids ? agent.pendingInterrupts.filter((i) => !ids.includes(i.id)) : [];
        return [];
      }
      case 'set-pending':
        if (agent) agent.pendingInterrupts = decision.interrupts;
        return [];
      case 'draw':
        this.#host.cards.draw(decision.kind, decision.source, decision.reopened);
        return [];
      case 'reply-to-chat':
        if (agent) copilotkit?.runAgent({ agent }).catch((error) => console.error(`${LOG} The reply to the chat message failed:`, error));
        return [];
      case 'hold-chat-run':
        result.hold = true;
        return [];
      case 'reread':
        result.reread = this.#reread();
        return [];
      case 'debug':
        debugLog(decision.message);
        return [];
      case 'restore-pending':
        if (agent && this.#saved) agent.pendingInterrupts = this.#saved.pending;
        return [];
      default:
        this.#wire(decision);
        return [];
      // 'answer-first' is read back in the card's snapshot; 'nothing' is nothing.
    }
  }

  /** The adapter's wiring of the agent: its wrapped methods, its transcript after a failed re-read. */
  #wire(decision: Effect) {
    const agent = this.#host.events.agent;
    if (!agent) return;
    if (decision.type === 'wrap-agent') Object.assign(agent, decision.wrappers);
    if (decision.type === 'unwrap-agent') {
      for (const name of Object.keys(decision.wrappers) as Array<keyof AgentWrappers>) {
        // Another wrapper went on after this one: it keeps its own.
        if (agent[name] !== decision.wrappers[name]) continue;
        // An agent whose own property it was (not its class's method) gets it back.
        if (name in decision.originals) agent[name] = decision.originals[name] as never;
        else delete agent[name];
      }
    }
    const saved = this.#saved;
    if (decision.type === 'restore-messages' && saved && agent.messages.length === 0 && saved.messages.length > 0)
      agent.setMessages?.(saved.messages);
  }

  #log(decision: Extract<SessionDecision, { type: 'show-error' }>) {
    const ids = decision.keys.map((k) => this.#host.cards.idOf(k)).join(', ');
    if (decision.refused) console.error(`${LOG} Interrupt(s) ${ids} refused: ${decision.message}`);
    else
      (decision.message === NOT_HANDED_OVER || decision.canRetry ? console.error : console.warn)(
        `${LOG} Resuming interrupt(s) ${ids} failed: ${decision.message}`,
      );
  }

  /** Run `callback` once the current state is painted, plus `resolveDelayMs`; repeats are ignored. */
  later(id: string, callback: () => void): void {
    if (this.#scheduled.has(id)) return;
    this.#scheduled.set(
      id,
      afterPaint(() => {
        this.#scheduled.delete(id);
        callback();
      }, this.#host.settings().resolveDelayMs),
    );
  }

  /** The adapter let go of the agent: what waits for a paint is dropped (the session sends it again on attach). */
  cancelScheduled(): void {
    for (const cancel of this.#scheduled.values()) cancel();
    this.#scheduled.clear();
  }

  /** Starts the run carrying `batch`; returns what the session decides if it cannot (or need not) wait for one. */
  #send(batch: SessionBatch, result: DispatchResult): readonly SessionDecision[] {
    const { session } = this.#host;
    const { agent, copilotkit } = this.#host.events;
    if (!agent || !copilotkit) return session.notDelivered(batch.batchId, { message: NOT_HANDED_OVER });
    if (batch.inChatRun) {
      // The chat's own run carries it: its wrapper adds the answers.
      this.#host.events.carry(batch);
      result.chatRun = batch;
      return [];
    }
    if (batch.carry.type === 'dismiss') {
      // A legacy cancel only dismisses: CopilotKit drops the event and no run follows.
      void Promise.resolve()
        .then(() => this.#host.cards.cancelShown())
        .catch(() => undefined);
      return session.delivered(batch.batchId);
    }
    this.#host.events.carry(batch);
    const answers: AgentRunParams =
      batch.carry.type === 'command' ? { forwardedProps: { command: batch.carry.command } } : { resume: batch.resume };
    copilotkit
      .runAgent({ agent, ...answers, ...(batch.runId && { runId: batch.runId }) } as Parameters<ControlledCopilotKit['runAgent']>[0])
      .then(
        () => this.#host.events.failIfNotSent(batch),
        (error) => this.#host.events.landed(batch, runFailed(error)),
      );
    return [];
  }

  /**
   * Reads the thread again (CopilotKit's connect: its runs replayed). AG-UI's client refuses a
   * connect while it holds pending interrupts (the replay lists the thread's again: none, if
   * another device answered them), and appends a replayed message's text to the one the chat
   * holds, so both are taken off first, and put back if the read does not get through.
   */
  #reread(): Promise<void> {
    const { session } = this.#host;
    const { agent, copilotkit } = this.#host.events;
    if (!agent || !copilotkit?.connectAgent) return Promise.resolve();
    this.#saved = { pending: agent.pendingInterrupts, messages: agent.messages };
    agent.pendingInterrupts = [];
    agent.setMessages?.([]);
    return copilotkit
      .connectAgent({ agent })
      .then(
        () => undefined,
        (error: unknown) => console.warn(`${LOG} Could not read thread "${agent.threadId}" again:`, error),
      )
      .finally(() => {
        this.#host.dispatch([...session.rereadEnded({ agentWaits: agent.pendingInterrupts.length > 0 }), { type: 'restore-messages' }]);
        this.#saved = undefined;
      });
  }

  /** Writes the history record of `key` from its session phase (the one place records change). */
  #sync(key: InterruptKey) {
    const { session, history, cards } = this.#host;
    const entry = session.get(key);
    const status = entry && statusOf(entry);
    if (!entry || !status || status === 'pending') return;
    const id = cards.idOf(key);
    const card = cards.get(id);
    const current = history.get(key.threadId, id);
    const result = entry.answer?.status === 'resolved' ? entry.answer.payload : undefined;
    if (current) {
      // Who it waits for and who answered are the runner's word as of this read: a record made
      // while the card waited follows it, so a card someone else answered says who did.
      const people = card?.interrupt.people;
      if (people && JSON.stringify(people) !== JSON.stringify(current.interrupt.people))
        history.record({ ...current, interrupt: { ...current.interrupt, people } });
      if (entry.elsewhere && !current.elsewhere) history.update(key.threadId, id, { status, result, error: undefined, elsewhere: true });
      else if (current.status !== status || current.error !== entry.error) history.update(key.threadId, id, { status, error: entry.error });
      return;
    }
    if (!card) return;
    history.record({
      threadId: key.threadId,
      id,
      reason: card.interrupt.reason,
      interrupt: card.interrupt,
      status,
      ...(result !== undefined && { result }),
      ...(entry.error && { error: entry.error }),
      ...(entry.elsewhere && { elsewhere: true as const }),
      anchor: card.anchor,
      agentId: this.#host.settings().agentId,
    });
  }

  /** Tells the app (`onInterruptResume`) of the answer of `key` as it goes. */
  #tellApp(key: InterruptKey) {
    const { history, cards } = this.#host;
    const handler = this.#host.settings().onInterruptResume;
    const id = cards.idOf(key);
    const record = history.get(key.threadId, id);
    const card = cards.get(id);
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
}
