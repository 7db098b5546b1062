import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../demo/server';
import { DEMO_QUESTIONS } from '../../../demo/server/scripted-model';
import { unwrapInterrupt } from '../../../src/unwrap';
import { toolCallOf } from '../../../components/tool-approval-card/approval-edit-model';

// The demo's LangGraph agent over real HTTP: CopilotRuntime -> LangGraphAgent + normalizeInterrupts()
// -> @langchain/langgraph-api -> the graph. Same cards and replies as the Mastra agent.
let demo: DemoServer;
beforeAll(async () => {
  demo = await startDemoServer({ port: 0, approvals: { refreshesToApprove: 2 } });
}, 60_000);
afterAll(() => demo?.close());

let threads = 0;
/** `user`: the demo user the cookie names (none: the first, Ana). */
const newAgent = (user?: string) =>
  new HttpAgent({
    url: `${demo.url}/api/copilotkit/agent/langgraph/run`,
    threadId: crypto.randomUUID(),
    agentId: 'langgraph',
    ...(user ? { headers: { cookie: `cki-demo-user=${user}` } } : {}),
  });
async function run(agent: HttpAgent, params: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
  return events;
}
async function say(text: string, user?: string) {
  const agent = newAgent(user);
  agent.addMessage({ id: `u-${++threads}`, role: 'user', content: text });
  const events = await run(agent);
  const interrupts = ((events.find((e) => e.type === 'RUN_FINISHED') as any)?.outcome?.interrupts ?? []) as any[];
  return { agent, events, interrupts };
}
const lastText = (agent: HttpAgent) => [...agent.messages].reverse().find((m) => m.role === 'assistant' && m.content)?.content;

describe('demo server: the LangGraph agent', () => {
  it('books a call: the time picker card with four slots; the pick reaches the graph and the reply quotes it', async () => {
    const { agent, interrupts } = await say('Book an intro call with the sales team to discuss pricing.');
    const card = unwrapInterrupt(interrupts[0]);
    expect(card.toolName).toBe('schedule_meeting');
    const { topic, slots } = card.payload as any;
    expect(slots).toHaveLength(4);
    await run(agent, {
      resume: [{ interruptId: card.id, status: 'resolved', payload: { chosen_time: slots[1].iso, chosen_label: slots[1].label } }],
    });
    expect(lastText(agent)).toBe(`Scheduled "${topic}" for ${slots[1].label}.`);
  });

  it('asks the three questions and repeats the answers', async () => {
    const { agent, interrupts } = await say('Ask me a few questions about my project.');
    const card = unwrapInterrupt(interrupts[0]);
    expect(card.reason).toBe('aidev:user_question');
    expect(card.metadata.questions).toEqual(DEMO_QUESTIONS);
    const answers = [
      { question: DEMO_QUESTIONS[0].question, answer: [{ label: 'Web app', description: 'A browser front end with an API' }] },
    ];
    await run(agent, { resume: [{ interruptId: card.id, status: 'resolved', payload: { answers } }] });
    expect(lastText(agent)).toContain('Web app');
  });

  it('opens an approval ticket; once approved, the reply is about that ticket and says the action may go ahead', async () => {
    // Dana is on call: the approval ticket she asks for waits for her.
    const { agent, interrupts } = await say('Request approval to deploy v2 to production.', 'dana');
    const card = unwrapInterrupt(interrupts[0]);
    expect(card.reason).toBe('aidev:tool_approval');
    const { sn } = card.metadata.ticket as any;
    demo.approvals.refresh(sn);
    const ticket = demo.approvals.refresh(sn);
    expect(ticket?.status).toBe('approved');
    await run(agent, { resume: [{ interruptId: card.id, status: 'resolved', payload: { metadata: { ticket } } }] });
    expect(lastText(agent)).toContain(sn);
    expect(lastText(agent)).toMatch(/approved/i);
  });

  it('given "for review", the deploy approval is a LangGraph review request: the card offers every answer, and edits reach the graph', async () => {
    const { agent, interrupts } = await say('Deploy v2 to staging for review');
    expect(interrupts[0].id).toMatch(/^langgraph-review::/);
    const card = unwrapInterrupt(interrupts[0]);
    expect(card).toMatchObject({ reason: 'aidev:tool_approval', message: 'Review needed: Deploy v2 to staging for review' });
    expect(toolCallOf(card)).toMatchObject({
      toolName: 'deploy',
      args: { version: 'v2', environment: 'staging', replicas: 2 },
      approvable: true,
      editable: true,
      rejectable: true,
      dismissible: true,
    });
    const editedArgs = { version: 'v2', environment: 'production', replicas: 4 };
    await run(agent, { resume: [{ interruptId: card.id, status: 'resolved', payload: { approved: true, editedArgs } }] });
    expect(lastText(agent)).toContain('Deployed v2 to production with 4 replicas.');
  });

  it('given "for review" and a rejection with a reason, the graph gets the reason and does not deploy', async () => {
    const { agent, interrupts } = await say('Deploy v3 to production for review');
    await run(agent, {
      resume: [{ interruptId: interrupts[0].id, status: 'resolved', payload: { approved: false, reason: 'Freeze week' } }],
    });
    expect(lastText(agent)).toContain('Freeze week');
    expect(lastText(agent)).not.toContain('Deployed');
  });

  it('given the release pill, LangChain humanInTheLoopMiddleware asks three approvals at once; one resume runs the three tools', async () => {
    const { agent, interrupts } = await say('Release v2: tag it, email the team and delete the release branch.');
    expect(interrupts.map((i) => toolCallOf(unwrapInterrupt(i)))).toMatchObject([
      { toolName: 'tag_release', args: { version: 'v2.0.0' }, editable: true, rejectable: false },
      { toolName: 'send_email', args: { to: 'team@example.com' }, editable: true, rejectable: true },
      { toolName: 'delete_branch', args: { name: 'release-candidate' }, editable: false, rejectable: true },
    ]);
    await run(agent, {
      resume: interrupts.map((i, n) => ({
        interruptId: i.id,
        status: 'resolved',
        payload: n === 0 ? { approved: true, editedArgs: { version: 'v2.0.1' } } : { approved: true },
      })),
    });
    expect(lastText(agent)).toBe(
      'Done. tag_release: Tagged v2.0.1. | send_email: Sent "v2.0.0 is out" to team@example.com. | delete_branch: Deleted the branch release-candidate.',
    );
  });

  it('given a page whose provider has an A2UI catalog (CopilotRuntime then adds its A2UI middleware), answers are still checked: no "unchecked" warning, and one sent again reaches no node', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      const a2ui = { forwardedProps: { a2uiCatalogAvailable: true } };
      const agent = newAgent();
      agent.addMessage({ id: `u-${++threads}`, role: 'user', content: 'Ask me a few questions about my project.' });
      const first = await run(agent, a2ui);
      const card = unwrapInterrupt(((first.find((e) => e.type === 'RUN_FINISHED') as any).outcome.interrupts as any[])[0]);
      const answers = [
        { question: DEMO_QUESTIONS[0].question, answer: [{ label: 'Web app', description: 'A browser front end with an API' }] },
      ];
      const resume = [{ interruptId: card.id, status: 'resolved', payload: { answers } }];
      await run(agent, { ...a2ui, resume });
      const replies = agent.messages.filter((m) => m.role === 'assistant' && m.content).length;
      // The same answer again (a second tab): the graph's question is no longer open, so no node takes it.
      await run(agent, { ...a2ui, resume });
      expect(agent.messages.filter((m) => m.role === 'assistant' && m.content)).toHaveLength(replies);
      expect(warn.mock.calls.flat().filter((arg) => String(arg).includes('unchecked'))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it('answers anything else in plain text, without a card', async () => {
    const { agent, interrupts } = await say('Hello');
    expect(interrupts).toEqual([]);
    expect(lastText(agent)).toContain('copilotkit-interrupts demo agent');
  });
});
