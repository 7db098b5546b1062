/**
 * The in-page agent the browser benchmarks talk to: no network, no model. It is the tests'
 * `ScriptedAgent` with a script the page swaps per turn (`plan`) and a time stamp for every run's
 * input as it reaches `run()`.
 */
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import type { Observable } from 'rxjs';
import { runFinished, runStarted, ScriptedAgent, type ScriptStep } from '../../test/helpers/scripted-agent';

export { customEvent, runFinished, runStarted, textMessage } from '../../test/helpers/scripted-agent';

export type Step = ScriptStep;
export type Plan = (input: RunAgentInput) => Step[];

export interface AgentStamps {
  /** Every run's input, with the time it reached `run()`. */
  runs: Array<{ input: RunAgentInput; at: number }>;
}

export class BenchAgent extends ScriptedAgent {
  plan: Plan = (input) => [runStarted(input), runFinished(input)];
  stamps: AgentStamps = { runs: [] };

  constructor(threadId: string) {
    // The script reads `plan` at run time, so the page can change it between turns.
    const holder: { agent?: BenchAgent } = {};
    super((input) => holder.agent!.plan(input), { agentId: 'default', threadId });
    holder.agent = this;
  }

  override run(input: RunAgentInput): Observable<BaseEvent> {
    this.stamps.runs.push({ input, at: performance.now() });
    return super.run(input);
  }

  /** CopilotKit may clone agents: share the plan and the stamps. */
  override clone(): BenchAgent {
    const copy = new BenchAgent(this.threadId);
    copy.plan = this.plan;
    copy.stamps = this.stamps;
    return copy;
  }
}

export const textStart = (messageId: string): BaseEvent =>
  ({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' }) as BaseEvent;
export const textDelta = (messageId: string, delta: string): BaseEvent =>
  ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta }) as BaseEvent;
export const textEnd = (messageId: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_END, messageId }) as BaseEvent;

/** Wait a macrotask (lets React commit whatever the previous events scheduled). */
export const nextTask =
  (ms = 0) =>
  () =>
    new Promise<void>((resolve) => setTimeout(resolve, ms));
