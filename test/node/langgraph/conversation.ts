import { randomUUID } from 'node:crypto';
import type { AbstractAgent, BaseEvent } from '@ag-ui/client';
import { LangGraphAgent } from '@copilotkit/runtime/langgraph';
import { normalizeInterrupts, type NormalizeInterruptsOptions } from '../../../src/runtime';

export type LangGraphInterrupt = { id: string; reason: string; message?: string; toolCallId?: string; metadata: Record<string, any> };
type ResumeEntry = { interruptId: string; status: 'resolved' | 'cancelled'; payload?: unknown };

const lastAssistantText = (agent: AbstractAgent) => {
  const last = [...agent.messages].reverse().find((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content !== '');
  return (last?.content as string | undefined) ?? '';
};

/**
 * One conversation with a served graph through CopilotKit's LangGraphAgent and normalizeInterrupts():
 * each turn is a fresh clone of the registered agent, as CopilotRuntime makes per request.
 */
export function langGraphConversation(
  deploymentUrl: string,
  graphId: string,
  emitInterruptOutcome: boolean,
  options?: NormalizeInterruptsOptions,
) {
  const registered = new LangGraphAgent({ deploymentUrl, graphId, emitInterruptOutcome } as never).use(
    normalizeInterrupts(options),
  ) as AbstractAgent;
  const threadId = randomUUID();
  let messages: AbstractAgent['messages'] = [];
  const run = async (params: Record<string, unknown>, userText?: string) => {
    const agent = registered.clone() as AbstractAgent;
    agent.threadId = threadId;
    agent.setMessages(messages);
    if (userText) agent.addMessage({ id: randomUUID(), role: 'user', content: userText });
    const events: BaseEvent[] = [];
    await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
    messages = agent.messages;
    const finished = events.find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts: LangGraphInterrupt[] } } | undefined;
    return { events, interrupts: finished?.outcome?.interrupts ?? [], text: lastAssistantText(agent) };
  };
  return {
    say: (text: string) => run({}, text),
    resume: (entries: ResumeEntry[]) => run({ resume: entries }),
  };
}
