import { randomUUID } from 'node:crypto';
import { HttpAgent, type AbstractAgent, type BaseEvent } from '@ag-ui/client';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { LangGraphAgent } from '@copilotkit/runtime/langgraph';
import { AIMessage } from '@langchain/core/messages';
import { END, MessagesValue, START, StateGraph, StateSchema, interrupt } from '@langchain/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGraphs, type ServedGraphs } from '../../../demo/server/langgraph-server';
import {
  EMAIL_CALL,
  HITL_GRAPH_ID,
  RELEASE_CALLS,
  SEND_EMAIL_ARGS_SCHEMA,
  createHitlGraph,
  type ToolRuns,
} from '../../../demo/server/langchain-hitl-agent';
import {
  ANSWER_NOT_ALLOWED,
  INTERRUPT_CHANGED,
  INTERRUPT_ID_REFUSED,
  normalizeInterrupts,
  withNormalizedInterrupts,
} from '../../../src/runtime';
import { approvalFingerprint } from '../../../src/backends/fingerprint';
import { signId } from '../../../src/runtime/signed-ids';
import { unwrapInterrupt } from '../../../src/unwrap';
import { toolCallOf } from '../../../src/unwrap/approval-call';
import { serveRuntime, type ServedRuntime } from '../../helpers/runtime-server';

// A real LangChain createAgent graph gated by humanInTheLoopMiddleware (only its language model
// is scripted), served in-process by @langchain/langgraph-api, bridged by CopilotKit's
// LangGraphAgent with normalizeInterrupts(), behind CopilotRuntime over HTTP.
const runs: ToolRuns = [];
/** What the "question" branch of the mixed graph received from interrupt(). */
const asked: unknown[] = [];
let graphs: ServedGraphs;
let runtime: ServedRuntime;
/** The server's secret, known to the test so that it can sign what an attacker could not. */
const SECRET = 'a-test-secret-of-at-least-32-characters';

beforeAll(async () => {
  const State = new StateSchema({ messages: MessagesValue });
  // The createAgent graph as one branch, a plain question as the other: both open at once.
  const mixed = new StateGraph(State)
    .addNode('agent', createHitlGraph(runs))
    .addNode('question', () => {
      const answer = interrupt({ reason: 'aidev:user_question', message: 'Which region?' });
      asked.push(answer);
      return { messages: [new AIMessage(`Region: ${JSON.stringify(answer)}`)] };
    })
    .addEdge(START, 'agent')
    .addEdge(START, 'question')
    .addEdge('agent', END)
    .addEdge('question', END)
    .compile();
  graphs = await serveGraphs({ [HITL_GRAPH_ID]: createHitlGraph(runs), mixed });
  const agent = (graphId: string, emitInterruptOutcome: boolean) =>
    withNormalizedInterrupts(
      new LangGraphAgent({ deploymentUrl: graphs.url, graphId, emitInterruptOutcome } as never) as unknown as AbstractAgent,
      normalizeInterrupts({ secret: SECRET, onProblem: () => undefined }),
    );
  runtime = await serveRuntime(
    new CopilotRuntime({
      agents: { legacy: agent(HITL_GRAPH_ID, false), outcome: agent(HITL_GRAPH_ID, true), mixed: agent('mixed', true) } as never,
    }),
  );
}, 90_000);
afterAll(async () => {
  await runtime?.close();
  await graphs?.close();
});

type Interrupt = { id: string; reason: string; message?: string; metadata: Record<string, any> };
type Entry = { interruptId: string; status: 'resolved' | 'cancelled'; payload?: unknown };

/** One conversation with a runtime agent over HTTP: a fresh client per request, as a browser sends. */
function conversation(agentId: string) {
  const threadId = randomUUID();
  let messages: AbstractAgent['messages'] = [];
  const run = async (params: Record<string, unknown>, userText?: string) => {
    const agent = new HttpAgent({ url: `${runtime.url}/agent/${agentId}/run`, threadId, agentId });
    agent.setMessages(messages);
    if (userText) agent.addMessage({ id: randomUUID(), role: 'user', content: userText });
    const events: BaseEvent[] = [];
    await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
    messages = agent.messages;
    const finished = events.find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts: Interrupt[] } } | undefined;
    const texts = agent.messages.filter((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content !== '');
    return {
      events,
      interrupts: finished?.outcome?.interrupts ?? [],
      text: (texts[texts.length - 1]?.content as string | undefined) ?? '',
      toolMessages: agent.messages
        .filter((m) => m.role === 'tool')
        .map((m) => ({ content: m.content, toolCallId: (m as { toolCallId?: string }).toolCallId })),
    };
  };
  return { threadId, say: (text: string) => run({}, text), resume: (resume: Entry[]) => run({ resume }) };
}

const approve = (i: Interrupt): Entry => ({ interruptId: i.id, status: 'resolved', payload: { approved: true } });
const runsSince = (start: number) => runs.slice(start);
const refusalOf = (events: BaseEvent[]) => events.filter((e) => e.type === 'RUN_ERROR') as unknown as { code?: string; message: string }[];

describe.each([
  ['default agent settings (legacy on_interrupt only)', 'legacy'],
  ['emitInterruptOutcome: true', 'outcome'],
])('LangChain humanInTheLoopMiddleware through CopilotRuntime, %s', (_name, agentId) => {
  it('given one gated tool call, the card shows the tool, its arguments, its argument form and the decisions it allows', async () => {
    const { interrupts } = await conversation(agentId).say('Email the team');
    expect(interrupts).toHaveLength(1);
    const [card] = interrupts;
    expect(card.id).toMatch(/^langgraph-hitl::[0-9a-f]{32}::[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(card).toMatchObject({
      reason: 'aidev:tool_approval',
      message: 'Send this email?',
      metadata: { toolName: 'send_email', args: EMAIL_CALL.args, argsSchema: SEND_EMAIL_ARGS_SCHEMA },
    });
    expect(toolCallOf(unwrapInterrupt(card))).toMatchObject({
      toolName: 'send_email',
      args: EMAIL_CALL.args,
      argsSchema: SEND_EMAIL_ARGS_SCHEMA,
      approvable: true,
      editable: true,
      rejectable: true,
      dismissible: true,
      reasonOnlyOnReject: true,
    });
  });

  it('given Approve, the tool runs with the arguments the card showed', async () => {
    const chat = conversation(agentId);
    const [card] = (await chat.say('Email the team')).interrupts;
    const start = runs.length;
    const { text, interrupts } = await chat.resume([approve(card)]);
    expect(runsSince(start)).toEqual([{ name: 'send_email', args: EMAIL_CALL.args }]);
    expect(interrupts).toEqual([]);
    expect(text).toBe('Done. send_email: Sent "Standup moved to 10:00" to team@example.com.');
  });

  it('given Approve with edits, the tool runs with exactly the edited arguments', async () => {
    const chat = conversation(agentId);
    const [card] = (await chat.say('Email the team')).interrupts;
    const start = runs.length;
    const editedArgs = { to: 'leads@example.com', subject: 'Standup moved to 11:00' };
    const { text } = await chat.resume([{ interruptId: card.id, status: 'resolved', payload: { approved: true, editedArgs } }]);
    expect(runsSince(start)).toEqual([{ name: 'send_email', args: editedArgs }]);
    expect(text).toBe('Done. send_email: Sent "Standup moved to 11:00" to leads@example.com.');
  });

  it('given Reject with a reason, the tool does not run and its ToolMessage is the reason', async () => {
    const chat = conversation(agentId);
    const [card] = (await chat.say('Email the team')).interrupts;
    const start = runs.length;
    const reason = 'The standup did not move.';
    const { text, toolMessages } = await chat.resume([{ interruptId: card.id, status: 'resolved', payload: { approved: false, reason } }]);
    expect(runsSince(start)).toEqual([]);
    expect(toolMessages).toContainEqual({ content: reason, toolCallId: EMAIL_CALL.id });
    expect(text).toBe(`Done. send_email: ${reason}`);
  });

  it('given a dismissal, the tool does not run and the model reads that the user dismissed it', async () => {
    const chat = conversation(agentId);
    const [card] = (await chat.say('Email the team')).interrupts;
    const start = runs.length;
    const { toolMessages } = await chat.resume([{ interruptId: card.id, status: 'cancelled' }]);
    expect(runsSince(start)).toEqual([]);
    expect(toolMessages).toContainEqual({ content: 'The user dismissed the approval request.', toolCallId: EMAIL_CALL.id });
  });

  it('given three gated tool calls in one step, three cards in order offer only what each allows, and one resume carries the three decisions in order', async () => {
    const chat = conversation(agentId);
    const { interrupts } = await chat.say('Release v2');
    expect(interrupts.map((i) => [i.metadata.toolName, i.metadata.args])).toEqual(RELEASE_CALLS.map((c) => [c.name, c.args]));
    expect(new Set(interrupts.map((i) => i.id)).size).toBe(3);
    expect(interrupts.map((i) => toolCallOf(unwrapInterrupt(i)))).toMatchObject([
      { toolName: 'tag_release', approvable: true, editable: true, rejectable: false, dismissible: false },
      { toolName: 'send_email', approvable: true, editable: true, rejectable: true, dismissible: true },
      { toolName: 'delete_branch', approvable: true, editable: false, rejectable: true, dismissible: true },
    ]);

    const start = runs.length;
    const [tag, email, branch] = interrupts;
    const editedTag = { version: 'v2.0.1' };
    const { text } = await chat.resume([
      approve(branch),
      { interruptId: tag.id, status: 'resolved', payload: { approved: true, editedArgs: editedTag } },
      approve(email),
    ]);
    expect(runsSince(start)).toEqual([
      { name: 'tag_release', args: editedTag },
      { name: 'send_email', args: RELEASE_CALLS[1].args },
      { name: 'delete_branch', args: RELEASE_CALLS[2].args },
    ]);
    expect(text).toBe(
      'Done. tag_release: Tagged v2.0.1. | send_email: Sent "v2.0.0 is out" to team@example.com. | delete_branch: Deleted the branch release-candidate.',
    );
  });

  it('given one of three rejected with a reason, no tool runs (the middleware asks the model again) and the rejected call gets the reason', async () => {
    const chat = conversation(agentId);
    const [tag, email, branch] = (await chat.say('Release v2')).interrupts;
    const start = runs.length;
    const { toolMessages, text } = await chat.resume([
      approve(tag),
      approve(email),
      { interruptId: branch.id, status: 'resolved', payload: { approved: false, reason: 'Keep the branch.' } },
    ]);
    expect(runsSince(start)).toEqual([]);
    expect(toolMessages).toContainEqual({ content: 'Keep the branch.', toolCallId: RELEASE_CALLS[2].id });
    expect(text).toBe('Done. delete_branch: Keep the branch.');
  });

  it('given every card dismissed (a chat message sent instead) while one call allows no reject, no tool runs, nothing is refused and the cards stay open', async () => {
    const chat = conversation(agentId);
    const cards = (await chat.say('Release v2')).interrupts;
    const start = runs.length;
    const dismissed = await chat.resume(cards.map((card) => ({ interruptId: card.id, status: 'cancelled' as const })));
    expect(refusalOf(dismissed.events)).toEqual([]);
    expect(runsSince(start)).toEqual([]);
    expect(dismissed.interrupts.map((i) => i.metadata.toolName)).toEqual(['tag_release', 'send_email', 'delete_branch']);
    await chat.resume(dismissed.interrupts.map(approve));
    expect(runsSince(start).map((r) => r.name)).toEqual(['tag_release', 'send_email', 'delete_branch']);
  });

  it.each([
    [
      'an edit of a call that allows no edit',
      (cards: Interrupt[]) => [
        approve(cards[0]),
        approve(cards[1]),
        { interruptId: cards[2].id, status: 'resolved' as const, payload: { approved: true, editedArgs: { name: 'main' } } },
      ],
    ],
    [
      'a rejection of a call that allows no reject',
      (cards: Interrupt[]) => [
        { interruptId: cards[0].id, status: 'resolved' as const, payload: { approved: false, reason: 'no' } },
        approve(cards[1]),
        approve(cards[2]),
      ],
    ],
    [
      'a dismissal of a call that allows no reject',
      (cards: Interrupt[]) => [{ interruptId: cards[0].id, status: 'cancelled' as const }, approve(cards[1]), approve(cards[2])],
    ],
    ['two of the three answers', (cards: Interrupt[]) => [approve(cards[0]), approve(cards[1])]],
    [
      'an answer that is not a card answer',
      (cards: Interrupt[]) => [
        approve(cards[0]),
        { interruptId: cards[1].id, status: 'resolved' as const, payload: 'yes' },
        approve(cards[2]),
      ],
    ],
  ])('given %s, the run ends with RUN_ERROR answer_not_allowed, no tool runs, and the cards stay answerable', async (_what, answers) => {
    const chat = conversation(agentId);
    const cards = (await chat.say('Release v2')).interrupts;
    const start = runs.length;
    const refused = await chat.resume(answers(cards));
    expect(refusalOf(refused.events)).toEqual([
      expect.objectContaining({ code: ANSWER_NOT_ALLOWED, message: expect.stringContaining('was refused (answer_not_allowed)') }),
    ]);
    expect(runsSince(start)).toEqual([]);

    // The request is still open: the honest answers go through.
    await chat.resume(cards.map(approve));
    expect(runsSince(start).map((r) => r.name)).toEqual(['tag_release', 'send_email', 'delete_branch']);
  });
});

describe('answers to humanInTheLoopMiddleware cards that cannot be trusted, through CopilotRuntime', () => {
  it('given a card id whose carried decisions were changed to allow editing, the edit is refused and no tool runs', async () => {
    const chat = conversation('outcome');
    const cards = (await chat.say('Release v2')).interrupts;
    // langgraph-hitl::<LangGraph id>::<base64url {i, n, a, d}>.<fingerprint>.<signature>
    const [body, fingerprint, signature] = cards[2].id.split('.');
    const carried = body.slice(body.lastIndexOf('::') + 2);
    expect(JSON.parse(Buffer.from(carried, 'base64url').toString())).toEqual({ i: 2, n: 3, a: 'delete_branch', d: 'ar' });
    const widened = Buffer.from(JSON.stringify({ i: 2, n: 3, a: 'delete_branch', d: 'aer' })).toString('base64url');
    const forged = `${body.slice(0, -carried.length)}${widened}.${fingerprint}.${signature}`;
    const start = runs.length;
    const { events } = await chat.resume([
      approve(cards[0]),
      approve(cards[1]),
      { interruptId: forged, status: 'resolved', payload: { approved: true, editedArgs: { name: 'main' } } },
    ]);
    expect(refusalOf(events)).toEqual([expect.objectContaining({ code: INTERRUPT_ID_REFUSED })]);
    expect(runsSince(start)).toEqual([]);
  });

  it('given an approval signed for other arguments than the request holds, it is refused as changed and no tool runs', async () => {
    const chat = conversation('outcome');
    const [card] = (await chat.say('Email the team')).interrupts;
    const unsigned = card.id.slice(0, card.id.indexOf('.'));
    // What a card that had shown other arguments would carry (the server's own signature, so only the fingerprint differs).
    const shownElsewhere = approvalFingerprint({
      reason: 'aidev:tool_approval',
      metadata: { toolName: 'send_email', args: { to: 'attacker@example.com', subject: 'Standup moved to 10:00' } },
    });
    const replayed = signId(Buffer.from(SECRET), chat.threadId, unsigned, shownElsewhere);
    const start = runs.length;
    const { events } = await chat.resume([{ interruptId: replayed, status: 'resolved', payload: { approved: true } }]);
    expect(refusalOf(events)).toEqual([expect.objectContaining({ code: INTERRUPT_CHANGED })]);
    expect(runsSince(start)).toEqual([]);
  });
});

describe('a humanInTheLoopMiddleware request open beside another interrupt (parallel branches), through CopilotRuntime', () => {
  it('given both answered in one resume, the agent gets its decisions and the other branch its own answer', async () => {
    const chat = conversation('mixed');
    const { interrupts } = await chat.say('Email the team');
    expect(interrupts.map((i) => i.reason).sort()).toEqual(['aidev:tool_approval', 'aidev:user_question']);
    const card = interrupts.find((i) => i.reason === 'aidev:tool_approval')!;
    const question = interrupts.find((i) => i.reason === 'aidev:user_question')!;
    const start = runs.length;
    asked.length = 0;
    const editedArgs = { to: 'eu@example.com', subject: 'Hello EU' };
    await chat.resume([
      { interruptId: question.id, status: 'resolved', payload: 'EU' },
      { interruptId: card.id, status: 'resolved', payload: { approved: true, editedArgs } },
    ]);
    expect(asked).toEqual(['EU']);
    expect(runsSince(start)).toEqual([{ name: 'send_email', args: editedArgs }]);
  });

  it('given only the other interrupt answered, the approval stays open and is answerable after', async () => {
    const chat = conversation('mixed');
    const { interrupts } = await chat.say('Email the team');
    const card = interrupts.find((i) => i.reason === 'aidev:tool_approval')!;
    const question = interrupts.find((i) => i.reason === 'aidev:user_question')!;
    const start = runs.length;
    asked.length = 0;
    const after = await chat.resume([{ interruptId: question.id, status: 'resolved', payload: 'US' }]);
    expect(asked).toEqual(['US']);
    expect(runsSince(start)).toEqual([]);
    const [again] = after.interrupts.filter((i) => i.reason === 'aidev:tool_approval');
    expect(again?.metadata).toMatchObject({ toolName: 'send_email', args: EMAIL_CALL.args });
    await chat.resume([approve(again ?? card)]);
    expect(runsSince(start)).toEqual([{ name: 'send_email', args: EMAIL_CALL.args }]);
  });
});
