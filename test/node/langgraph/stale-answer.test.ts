import { randomUUID } from 'node:crypto';
import { HttpAgent, type AbstractAgent, type BaseEvent } from '@ag-ui/client';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { AIMessage } from '@langchain/core/messages';
import { END, MessagesValue, START, StateGraph, StateSchema, interrupt } from '@langchain/langgraph';
import { LangGraphAgent } from '@copilotkit/runtime/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGraphs, type ServedGraphs } from '../../../demo/server/langgraph-server';
import { normalizeInterrupts, withNormalizedInterrupts } from '../../../src/runtime';
import { langGraphConversation } from './conversation';
import { serveRuntime, type ServedRuntime } from '../../helpers/runtime-server';

// A node that asks twice (LangGraph's documented "several interrupts in one node" pattern),
// through CopilotKit's LangGraphAgent with normalizeInterrupts(), as CopilotRuntime serves it.
const received: unknown[] = [];
let served: ServedGraphs;
beforeAll(async () => {
  const State = new StateSchema({ messages: MessagesValue });
  const graph = new StateGraph(State)
    .addNode('ask_twice', () => {
      const name = interrupt({ reason: 'aidev:user_question', message: 'Which branch?' });
      received.push({ question: 'branch', answer: name });
      const confirm = interrupt({ reason: 'aidev:tool_approval', message: `Delete ${String(name)} for good?` });
      received.push({ question: 'delete', answer: confirm });
      return { messages: [new AIMessage(`Branch ${JSON.stringify(name)}, delete ${JSON.stringify(confirm)}`)] };
    })
    .addEdge(START, 'ask_twice')
    .addEdge('ask_twice', END)
    .compile();
  served = await serveGraphs({ twice: graph });
}, 60_000);
afterAll(async () => {
  await served?.close();
});

type Interrupt = { id: string; message?: string };
const conversation = (emitInterruptOutcome: boolean) => langGraphConversation(served.url, 'twice', emitInterruptOutcome);

describe.each([
  ['default agent settings (legacy on_interrupt only)', false],
  ['emitInterruptOutcome: true', true],
])('a LangGraph node that interrupts twice, through normalizeInterrupts(), %s', (_name, emitInterruptOutcome) => {
  it('given the answer to its first question sent again (a Retry after a lost stream, a second tab), the second question does not take it', async () => {
    received.length = 0;
    const chat = conversation(emitInterruptOutcome);
    const [first] = (await chat.say('Clean up')).interrupts;
    expect(first.message).toBe('Which branch?');
    const [second] = (await chat.resume([{ interruptId: first.id, status: 'resolved', payload: 'old-feature' }])).interrupts;
    expect(second.message).toBe('Delete old-feature for good?');
    expect(second.id).not.toBe(first.id);

    // The first answer arrives again while the second question is open.
    const again = await chat.resume([{ interruptId: first.id, status: 'resolved', payload: 'old-feature' }]);
    // Nobody answered "Delete old-feature for good?": the node must not have received an answer to it.
    // (The node body runs again on every resume, so the first question is recorded once more.)
    expect(received.filter((r) => (r as { question: string }).question === 'delete')).toEqual([]);
    expect(again.interrupts.map((i) => i.message)).toEqual(['Delete old-feature for good?']);
  });

  it('given an answer sent again after the graph ended, no node receives it and the graph does not start over', async () => {
    received.length = 0;
    const chat = conversation(emitInterruptOutcome);
    const [first] = (await chat.say('Clean up')).interrupts;
    const [second] = (await chat.resume([{ interruptId: first.id, status: 'resolved', payload: 'old-feature' }])).interrupts;
    const done = await chat.resume([{ interruptId: second.id, status: 'resolved', payload: 'yes' }]);
    expect(done.interrupts).toEqual([]);
    const before = received.length;

    const again = await chat.resume([{ interruptId: second.id, status: 'resolved', payload: 'yes again' }]);
    expect(received.slice(before)).toEqual([]);
    expect(again.interrupts).toEqual([]);
  });
});

describe('a LangGraph node that interrupts twice, behind CopilotRuntime with A2UI on (the runtime adds its own middleware to each request)', () => {
  let runtime: ServedRuntime;
  let base: string;
  const problems: string[] = [];
  beforeAll(async () => {
    const graph = () => new LangGraphAgent({ deploymentUrl: served.url, graphId: 'twice' } as never) as unknown as AbstractAgent;
    const agents = {
      // Registered the recommended way: the middleware stays next to the agent on every clone.
      wrapped: withNormalizedInterrupts(graph()),
      // Installed with use(): A2UI's middleware then comes between it and the agent.
      used: graph().use(normalizeInterrupts({ onProblem: (problem) => void problems.push(problem) })),
    };
    runtime = await serveRuntime(new CopilotRuntime({ agents: agents as never, a2ui: {} } as never));
    base = `${runtime.url}/agent`;
  });
  afterAll(() => runtime?.close());

  /** A client per request, as a second tab or a reload sends: same thread, what it had seen. */
  function conversationOver(agentId: string) {
    const threadId = randomUUID();
    let messages: AbstractAgent['messages'] = [{ id: randomUUID(), role: 'user', content: 'Clean up' }];
    return async (params: Record<string, unknown>) => {
      const agent = new HttpAgent({ url: `${base}/${agentId}/run`, threadId, agentId });
      agent.setMessages(messages);
      const events: BaseEvent[] = [];
      await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
      messages = agent.messages;
      const finished = events.find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts: Interrupt[] } } | undefined;
      return finished?.outcome?.interrupts ?? [];
    };
  }

  it('given the agent registered with withNormalizedInterrupts and the first answer sent again, the second question does not take it', async () => {
    received.length = 0;
    const run = conversationOver('wrapped');
    const [first] = await run({});
    const [second] = await run({ resume: [{ interruptId: first.id, status: 'resolved', payload: 'old-feature' }] });
    expect(second.message).toBe('Delete old-feature for good?');

    const again = await run({ resume: [{ interruptId: first.id, status: 'resolved', payload: 'old-feature' }] });
    expect(received.filter((r) => (r as { question: string }).question === 'delete')).toEqual([]);
    expect(again.map((i) => i.message)).toEqual(['Delete old-feature for good?']);
  });

  it('given the middleware installed with use(), should say once that LangGraph answers go on unchecked and how to register the agent', async () => {
    problems.length = 0;
    const run = conversationOver('used');
    const [first] = await run({});
    await run({ resume: [{ interruptId: first.id, status: 'resolved', payload: 'old-feature' }] });
    await run({ resume: [{ interruptId: first.id, status: 'resolved', payload: 'old-feature' }] });
    const unchecked = problems.filter((p) => p.includes('go on unchecked'));
    expect(unchecked).toHaveLength(1);
    expect(unchecked[0]).toContain('withNormalizedInterrupts(agent)');
  });
});
