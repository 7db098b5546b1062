import { randomUUID } from 'node:crypto';
import type { AbstractAgent, BaseEvent, Message } from '@ag-ui/client';
import { ProxiedCopilotRuntimeAgent } from '@copilotkit/core';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { LangGraphAgent } from '@copilotkit/runtime/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGraphs, type ServedGraphs } from '../../../demo/server/langgraph-server';
import { HITL_GREETING, createHitlGraph, type ToolRuns } from '../../../demo/server/langchain-hitl-agent';
import { normalizeInterrupts } from '../../../src/runtime';
import { serveRuntime, type ServedRuntime } from '../../helpers/runtime-server';
import { createInterruptGraph, type Received } from './interrupt-graph';

// Steer-away on LangGraph: the user sends a chat message while a card is open. The hook sends one
// run that carries the `cancelled` entries and the message (docs/hook.md). A LangGraph resume is a
// Command, and a run with a Command takes no new input: the message must still reach the graph,
// get its reply, and be in the thread when the chat connects again.
const received: Received = [];
const toolRuns: ToolRuns = [];
let graphs: ServedGraphs;
let runtime: ServedRuntime;
beforeAll(async () => {
  graphs = await serveGraphs({ interrupts: createInterruptGraph(received), hitl: createHitlGraph(toolRuns) });
  // As the demo and docs/backends.md register it.
  const agent = (graphId: string, emitInterruptOutcome: boolean) =>
    new LangGraphAgent({ deploymentUrl: graphs.url, graphId, emitInterruptOutcome } as never).use(
      normalizeInterrupts({ secret: 'a-test-secret-of-at-least-32-characters' }),
    );
  runtime = await serveRuntime(
    new CopilotRuntime({
      agents: {
        interrupts: agent('interrupts', false),
        'interrupts-outcome': agent('interrupts', true),
        hitl: agent('hitl', false),
        'hitl-outcome': agent('hitl', true),
      } as never,
    }),
  );
}, 90_000);
afterAll(async () => {
  await runtime?.close();
  await graphs?.close();
});

type Interrupt = { id: string; message?: string };
/** CopilotKit's own client agent for a runtime agent, on one thread (what the chat talks to). */
const clientAgent = (agentId: string, threadId: string) =>
  new ProxiedCopilotRuntimeAgent({ runtimeUrl: runtime.url, agentId, threadId, transport: 'rest' } as never) as unknown as AbstractAgent;

async function run(agent: AbstractAgent, params: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
  const finished = events.find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts?: Interrupt[] } } | undefined;
  return { events, interrupts: finished?.outcome?.interrupts ?? [] };
}
/** The transcript as a user reads it: who said what, in order, without empty tool-call turns. */
const transcript = (messages: Message[]) =>
  messages
    .filter((m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content !== '')
    .map((m) => `${m.role}: ${m.content as string}`);

describe.each([
  ['interrupts', 'default agent settings'],
  ['interrupts-outcome', 'emitInterruptOutcome: true'],
])('steer-away on a LangGraph interrupt through CopilotRuntime (%s, %s)', (agentId) => {
  it('given a chat message sent with the cancel of an open question, the node gets the cancel, the message gets its reply, and a reconnect shows both', async () => {
    const threadId = randomUUID();
    const chat = clientAgent(agentId, threadId);
    chat.addMessage({ id: randomUUID(), role: 'user', content: 'Ask me a question' });
    const [question] = (await run(chat)).interrupts;
    expect(question?.message).toBe('One question first');

    const start = received.length;
    const message = { id: randomUUID(), role: 'user' as const, content: 'Never mind, just say hello' };
    chat.addMessage(message);
    const steered = await run(chat, { resume: [{ interruptId: question.id, status: 'cancelled' }] });
    expect(steered.interrupts).toEqual([]);
    expect(received.slice(start)).toEqual([{ node: 'question', value: expect.objectContaining({ __agui_cancelled__: true }) }]);
    const reply = 'assistant: Hello! Ask me for a question, a plain interrupt, a tool, a sequence or parallel questions.';
    // In the order it happened: the message, the node's answer to the cancel, the message's reply.
    const expected = ['user: Ask me a question', `user: ${message.content}`, expect.stringMatching(/^assistant: You answered /), reply];
    expect(transcript(chat.messages)).toEqual(expected);
    expect(chat.messages.find((m) => m.role === 'user' && m.content === message.content)?.id).toBe(message.id);

    const reloaded = clientAgent(agentId, threadId);
    await reloaded.connectAgent();
    expect(transcript(reloaded.messages)).toEqual(expected);
  });
});

describe.each([
  ['hitl', 'default agent settings'],
  ['hitl-outcome', 'emitInterruptOutcome: true'],
])('steer-away on a humanInTheLoopMiddleware request through CopilotRuntime (%s, %s)', (agentId) => {
  it('given a chat message sent with the cancel of an open approval, the call is rejected, the message gets its reply, and a reconnect shows both', async () => {
    const threadId = randomUUID();
    const chat = clientAgent(agentId, threadId);
    chat.addMessage({ id: randomUUID(), role: 'user', content: 'Email the team' });
    const [approval] = (await run(chat)).interrupts;
    expect(approval).toBeDefined();

    const before = toolRuns.length;
    const message = { id: randomUUID(), role: 'user' as const, content: 'Actually, what can you do?' };
    chat.addMessage(message);
    const steered = await run(chat, { resume: [{ interruptId: approval.id, status: 'cancelled' }] });
    expect(steered.interrupts).toEqual([]);
    expect(toolRuns.length).toBe(before);
    const expected = [
      'user: Email the team',
      `user: ${message.content}`,
      'assistant: Done. send_email: The user dismissed the approval request.',
      `assistant: ${HITL_GREETING}`,
    ];
    expect(transcript(chat.messages)).toEqual(expected);

    const reloaded = clientAgent(agentId, threadId);
    await reloaded.connectAgent();
    expect(transcript(reloaded.messages)).toEqual(expected);
  });
});
