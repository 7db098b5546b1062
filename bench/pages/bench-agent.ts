/**
 * The in-page agent the browser benchmarks talk to: no network, no model. Every run is scripted
 * by the page (`setScript`), and the moments that matter are stamped with `performance.now()`:
 * when a run's input reaches the agent, and right before RUN_FINISHED is emitted.
 */
import { AbstractAgent, EventType, type BaseEvent, type Message, type RunAgentInput } from '@ag-ui/client';
import { Observable } from 'rxjs';

/** A step of a run: an event to emit now, or something to await first. */
export type Step = BaseEvent | (() => Promise<unknown> | void);
export type Script = (input: RunAgentInput) => Step[];

export interface AgentStamps {
  /** Every run's input, with the time it reached `run()`. */
  runs: Array<{ input: RunAgentInput; at: number }>;
}

export class BenchAgent extends AbstractAgent {
  script: Script = (input) => [runStarted(input), runFinished(input)];
  stamps: AgentStamps = { runs: [] };

  constructor(threadId: string, initialMessages: Message[] = []) {
    super({ agentId: 'default', threadId, initialMessages });
  }

  override run(input: RunAgentInput): Observable<BaseEvent> {
    this.stamps.runs.push({ input, at: performance.now() });
    const steps = this.script(input);
    return new Observable<BaseEvent>((subscriber) => {
      let stopped = false;
      void (async () => {
        for (const step of steps) {
          if (stopped) return;
          if (typeof step === 'function') await step();
          else subscriber.next(step);
        }
        subscriber.complete();
      })().catch((error: unknown) => subscriber.error(error));
      return () => {
        stopped = true;
      };
    });
  }

  /** CopilotKit may clone agents: share the script and the stamps. */
  override clone(): BenchAgent {
    const copy = new BenchAgent(this.threadId, this.messages);
    copy.script = this.script;
    copy.stamps = this.stamps;
    return copy;
  }
}

export const runStarted = (input: RunAgentInput): BaseEvent =>
  ({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId }) as BaseEvent;

export const runFinished = (input: RunAgentInput, outcome?: unknown): BaseEvent =>
  ({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId, ...(outcome ? { outcome } : {}) }) as BaseEvent;

export const customEvent = (name: string, value: unknown): BaseEvent => ({ type: EventType.CUSTOM, name, value }) as BaseEvent;

export const textStart = (messageId: string): BaseEvent =>
  ({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' }) as BaseEvent;
export const textDelta = (messageId: string, delta: string): BaseEvent =>
  ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta }) as BaseEvent;
export const textEnd = (messageId: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_END, messageId }) as BaseEvent;

export const textMessage = (messageId: string, text: string): BaseEvent[] => [
  textStart(messageId),
  textDelta(messageId, text),
  textEnd(messageId),
];

/** Wait a macrotask (lets React commit whatever the previous events scheduled). */
export const nextTask = (ms = 0) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));
