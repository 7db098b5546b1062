import { AbstractAgent, EventType, type AgentConfig, type BaseEvent, type Message, type RunAgentInput } from '@ag-ui/client';
import { Observable } from 'rxjs';

/** A step of a scripted run: an event to emit, or a function to await before going on. */
export type ScriptStep = BaseEvent | (() => Promise<unknown> | void);

/** Decides what one run emits. `runIndex` counts runs from 0. */
export type RunScript = (input: RunAgentInput, runIndex: number) => ScriptStep[];

/**
 * An AG-UI agent that plays a script instead of calling a model: each `run(input)` is recorded in
 * `runs` (so tests can assert `input.resume` and `runId`) and emits the script's events.
 * Events before the first awaited step are emitted synchronously, which is the worst case for
 * the UI (the resume run's RUN_STARTED lands in the same tick as the resolve).
 *
 * Register it with `<CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>`; it works the
 * same in a Storybook story.
 *
 * @example
 * const agent = new ScriptedAgent((input, n) =>
 *   n === 0 ? [runStarted(input), runFinished(input, interruptOutcome(approval))]
 *           : [runStarted(input), ...textMessage('m1', 'Done.'), runFinished(input)]);
 */
export interface ScriptedAgentConfig extends AgentConfig {
  /**
   * The transcript a backend would restore when the chat connects to a thread (CopilotKit clears
   * the messages and asks the agent to replay them). Besides these, the agent remembers every
   * thread it ran on, like a backend would, and replays that when the chat comes back to it.
   */
  storedMessages?: Message[];
}

export class ScriptedAgent extends AbstractAgent {
  readonly runs: RunAgentInput[] = [];
  private readonly script: RunScript;
  private readonly storedMessages?: Message[];
  private readonly threads = new Map<string, Message[]>();

  constructor(script: RunScript, config: ScriptedAgentConfig = {}) {
    const { storedMessages, ...agentConfig } = config;
    super({ agentId: 'default', ...agentConfig });
    this.script = script;
    this.storedMessages = storedMessages;
    this.subscribe({
      onRunFinalized: ({ input, messages }) => {
        if (input.threadId) this.threads.set(input.threadId, structuredClone(messages) as Message[]);
      },
    });
  }

  /** A thread restore: RUN_STARTED, MESSAGES_SNAPSHOT of the thread's transcript, RUN_FINISHED. */
  protected override connect(input: RunAgentInput): Observable<BaseEvent> {
    const messages = this.threads.get(input.threadId) ?? this.storedMessages;
    if (!messages) return super.connect(input);
    return playSteps([runStarted(input), { type: EventType.MESSAGES_SNAPSHOT, messages } as BaseEvent, runFinished(input)]);
  }

  override run(input: RunAgentInput): Observable<BaseEvent> {
    const runIndex = this.runs.length;
    this.runs.push(input);
    return playSteps(this.script(input, runIndex));
  }

  /** The runtime clones agents per request; keep the script and the shared run log. */
  override clone(): ScriptedAgent {
    const copy = new ScriptedAgent(this.script, {
      agentId: this.agentId,
      threadId: this.threadId,
      initialMessages: this.messages,
      storedMessages: this.storedMessages,
    });
    (copy as { runs: RunAgentInput[] }).runs = this.runs;
    // As AbstractAgent.clone does: a copy remembers the interrupts its original's last run raised.
    copy.pendingInterrupts = structuredClone(this.pendingInterrupts);
    return copy;
  }
}

/**
 * The events of a script as an Observable: events are emitted in order, function steps are
 * awaited. Everything before the first awaited step is emitted synchronously on subscribe.
 * Reusable by any scripted agent (stories, benchmarks).
 */
export function playSteps(steps: readonly ScriptStep[]): Observable<BaseEvent> {
  return new Observable<BaseEvent>((subscriber) => {
    let stopped = false;
    void (async () => {
      for (const step of steps) {
        if (stopped) return;
        if (typeof step === 'function') await step();
        else subscriber.next(step);
      }
      subscriber.complete();
    })().catch((error) => subscriber.error(error));
    return () => {
      stopped = true;
    };
  });
}

// ---- event builders ----

export const runStarted = (input: RunAgentInput): BaseEvent =>
  ({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId }) as BaseEvent;

export const runFinished = (input: RunAgentInput, outcome?: unknown): BaseEvent =>
  ({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId, ...(outcome ? { outcome } : {}) }) as BaseEvent;

export const runError = (message: string): BaseEvent => ({ type: EventType.RUN_ERROR, message }) as BaseEvent;

/** The RUN_FINISHED outcome of a run that stopped for interrupts. */
export const interruptOutcome = (...interrupts: unknown[]) => ({ type: 'interrupt', interrupts });

export const customEvent = (name: string, value: unknown): BaseEvent => ({ type: EventType.CUSTOM, name, value }) as BaseEvent;

export const textMessage = (messageId: string, text: string): BaseEvent[] => [
  { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' } as BaseEvent,
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text } as BaseEvent,
  { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
];

/** A promise the script can wait on, released by the test: `const gate = createGate(); ... gate.open()`. */
export function createGate(): { wait: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait: () => promise, open };
}
