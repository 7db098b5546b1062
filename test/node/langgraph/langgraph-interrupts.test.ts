import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveGraphs, type ServedGraphs } from '../../../demo/server/langgraph-server';
import type { NormalizeInterruptsOptions } from '../../../src/runtime';
import { unwrapInterrupt } from '../../../src/unwrap';
import { toolCallOf } from '../../../components/tool-approval-card/approval-edit-model';
import { QUESTIONS, REVIEW_REQUEST, createInterruptGraph, type Received } from './interrupt-graph';
import { langGraphConversation } from './conversation';

// A real LangGraph JS graph, served in-process by @langchain/langgraph-api, bridged by
// CopilotKit's LangGraphAgent with `.use(normalizeInterrupts())` — all an app writes.
const received: Received = [];
let served: ServedGraphs;
beforeAll(async () => {
  served = await serveGraphs({ interrupts: createInterruptGraph(received) });
}, 60_000);
afterAll(async () => {
  await served?.close();
});

const conversation = (emitInterruptOutcome: boolean, options?: NormalizeInterruptsOptions) =>
  langGraphConversation(served.url, 'interrupts', emitInterruptOutcome, options);
const receivedSince = (start: number) => received.slice(start);
/** LangGraph's own interrupt id inside ours (`langgraph::<id>.<fingerprint>.<signature>`). */
const langGraphIdOf = (id: string) => id.slice('langgraph::'.length, id.indexOf('.'));

describe.each([
  ['default agent settings (legacy on_interrupt only)', false],
  ['emitInterruptOutcome: true', true],
])('LangGraph interrupts through LangGraphAgent + normalizeInterrupts(), %s', (_name, emitInterruptOutcome) => {
  it('given a node-level interrupt with a reason payload, the card gets that reason and questions, and the node gets the answer', async () => {
    const chat = conversation(emitInterruptOutcome);
    const { interrupts } = await chat.say('Ask me a question');
    expect(interrupts).toHaveLength(1);
    const [interrupt] = interrupts;
    expect(interrupt.id).toMatch(/^langgraph::[0-9a-f]{32}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{43}$/);
    expect(interrupt).toMatchObject({ reason: 'aidev:user_question', message: 'One question first', metadata: { questions: QUESTIONS } });
    expect(unwrapInterrupt(interrupt)).toMatchObject({ reason: 'aidev:user_question', metadata: { questions: QUESTIONS } });

    const start = received.length;
    const answer = { answers: [{ question: 'Which database?', answer: [{ label: 'Postgres', description: 'Relational' }] }] };
    const { text } = await chat.resume([{ interruptId: interrupt.id, status: 'resolved', payload: answer }]);
    expect(receivedSince(start)).toEqual([{ node: 'question', value: answer }]);
    expect(text).toBe(`You answered ${JSON.stringify(answer)}`);
  });

  it('given a plain-string interrupt, the card shows the sentence and the node gets the answer', async () => {
    const chat = conversation(emitInterruptOutcome);
    const [interrupt] = (await chat.say('A plain interrupt please')).interrupts;
    expect(interrupt).toMatchObject({
      id: expect.stringMatching(/^langgraph::/),
      reason: 'langgraph:interrupt',
      message: 'Approve the deploy?',
    });
    expect(unwrapInterrupt(interrupt)).toMatchObject({ message: 'Approve the deploy?' });
    const start = received.length;
    const { text } = await chat.resume([{ interruptId: interrupt.id, status: 'resolved', payload: 'yes' }]);
    expect(receivedSince(start)).toEqual([{ node: 'plain', value: 'yes' }]);
    expect(text).toBe('Plain answer: "yes"');
  });

  it('given an interrupt inside a tool, Approve runs it and Reject with a reason does not', async () => {
    const approve = conversation(emitInterruptOutcome);
    const [interrupt] = (await approve.say('Use the tool')).interrupts;
    expect(interrupt).toMatchObject({
      reason: 'aidev:tool_approval',
      toolCallId: 'call_delete_1',
      metadata: { toolName: 'delete_branch', args: { name: 'old-feature' } },
    });
    let start = received.length;
    expect((await approve.resume([{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }])).text).toBe(
      'Tool said: Deleted old-feature.',
    );
    expect(receivedSince(start)).toEqual([{ node: 'delete_branch', value: { approved: true } }]);

    const reject = conversation(emitInterruptOutcome);
    const [again] = (await reject.say('Use the tool')).interrupts;
    start = received.length;
    const rejected = await reject.resume([{ interruptId: again.id, status: 'resolved', payload: { approved: false, reason: 'keep it' } }]);
    expect(rejected.text).toBe('Tool said: Not deleted: keep it.');
    expect(receivedSince(start)).toEqual([{ node: 'delete_branch', value: { approved: false, reason: 'keep it' } }]);
  });

  it('given two interrupts in sequence, each has its own stable id and each node gets its own answer', async () => {
    const chat = conversation(emitInterruptOutcome);
    const [first] = (await chat.say('A sequence please')).interrupts;
    expect(first.message).toBe('First question');
    // A chat message while it is open: the bridge shows the same interrupt again, with the same id.
    const [shownAgain] = (await chat.say('What was the question?')).interrupts;
    expect(shownAgain.id).toBe(first.id);

    const start = received.length;
    const { interrupts: afterFirst } = await chat.resume([{ interruptId: first.id, status: 'resolved', payload: 'one' }]);
    expect(afterFirst).toHaveLength(1);
    const [second] = afterFirst;
    expect(second.message).toBe('Second question');
    expect(second.id).toMatch(/^langgraph::[0-9a-f]{32}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{43}$/);
    expect(second.id).not.toBe(first.id);
    const { text } = await chat.resume([{ interruptId: second.id, status: 'resolved', payload: 'two' }]);
    expect(receivedSince(start)).toEqual([
      { node: 'first', value: 'one' },
      { node: 'second', value: 'two' },
    ]);
    expect(text).toBe('Second: "two"');
  });

  it('given two interrupts in parallel branches, one resume gives each branch its own answer', async () => {
    const chat = conversation(emitInterruptOutcome);
    const { interrupts } = await chat.say('Parallel questions please');
    expect(interrupts.map((i) => i.message).sort()).toEqual(['Left question', 'Right question']);
    expect(new Set(interrupts.map((i) => i.id)).size).toBe(2);
    const left = interrupts.find((i) => i.message === 'Left question')!;
    const right = interrupts.find((i) => i.message === 'Right question')!;

    const start = received.length;
    await chat.resume([
      { interruptId: left.id, status: 'resolved', payload: 'for the left' },
      { interruptId: right.id, status: 'resolved', payload: 'for the right' },
    ]);
    expect(receivedSince(start).sort((a, b) => a.node.localeCompare(b.node))).toEqual([
      { node: 'left', value: 'for the left' },
      { node: 'right', value: 'for the right' },
    ]);
  });

  it('given parallel interrupts answered one at a time, each answer reaches only its own branch and the other stays open', async () => {
    const chat = conversation(emitInterruptOutcome);
    const { interrupts } = await chat.say('Parallel questions please');
    const left = interrupts.find((i) => i.message === 'Left question')!;
    const right = interrupts.find((i) => i.message === 'Right question')!;

    const before = received.length;
    let start = received.length;
    const after = await chat.resume([{ interruptId: left.id, status: 'resolved', payload: 'for the left' }]);
    expect(receivedSince(start)).toEqual([{ node: 'left', value: 'for the left' }]);
    // The right branch still asks, under the same id. (LangGraph lists the left one again as well
    // until the step that holds both ends.)
    expect(after.interrupts.map((i) => i.id)).toContain(right.id);

    start = received.length;
    const fin = await chat.resume([{ interruptId: right.id, status: 'resolved', payload: 'for the right' }]);
    expect(receivedSince(start)).toEqual([{ node: 'right', value: 'for the right' }]);
    expect(fin.interrupts).toEqual([]);
    expect(receivedSince(before).filter((r) => r.node === 'left')).toHaveLength(1);
  });

  it('given an answer sent again after its node went on (a double submit, a second tab), no node receives it', async () => {
    const chat = conversation(emitInterruptOutcome);
    const [first] = (await chat.say('A sequence please')).interrupts;
    await chat.resume([{ interruptId: first.id, status: 'resolved', payload: 'one' }]);

    const start = received.length;
    const again = await chat.resume([{ interruptId: first.id, status: 'resolved', payload: 'one again' }]);
    expect(receivedSince(start)).toEqual([]);
    expect(again.interrupts.map((i) => i.message)).toEqual(['Second question']);
  });

  it("given resume entries that are not this graph's beside its answers, each node still gets its own answer and the others are reported", async () => {
    const problems: string[] = [];
    const chat = conversation(emitInterruptOutcome, { onProblem: (problem) => void problems.push(problem) });
    const { interrupts } = await chat.say('Parallel questions please');
    const left = interrupts.find((i) => i.message === 'Left question')!;
    const right = interrupts.find((i) => i.message === 'Right question')!;

    const start = received.length;
    await chat.resume([
      { interruptId: 'stale-or-unknown', status: 'cancelled' },
      { interruptId: left.id, status: 'resolved', payload: 'for the left' },
      { interruptId: 'another-unknown', status: 'resolved', payload: 'not for this graph' },
      { interruptId: right.id, status: 'resolved', payload: 'for the right' },
    ]);
    expect(receivedSince(start).sort((a, b) => a.node.localeCompare(b.node))).toEqual([
      { node: 'left', value: 'for the left' },
      { node: 'right', value: 'for the right' },
    ]);
    expect(problems).toEqual(['2 resume entries do not belong to this LangGraph run; dropped.']);
  });

  it("given a cancel, the node gets the bridge's cancel marker, not an answer", async () => {
    const chat = conversation(emitInterruptOutcome);
    const [interrupt] = (await chat.say('Ask me a question')).interrupts;
    const start = received.length;
    await chat.resume([{ interruptId: interrupt.id, status: 'cancelled' }]);
    const langGraphId = langGraphIdOf(interrupt.id);
    expect(receivedSince(start)).toEqual([{ node: 'question', value: { __agui_cancelled__: true, interrupt_id: langGraphId } }]);
  });

  it('given parallel interrupts, one answered and one cancelled, each branch gets its own', async () => {
    const chat = conversation(emitInterruptOutcome);
    const { interrupts } = await chat.say('Parallel questions please');
    const left = interrupts.find((i) => i.message === 'Left question')!;
    const right = interrupts.find((i) => i.message === 'Right question')!;
    const start = received.length;
    await chat.resume([
      { interruptId: left.id, status: 'resolved', payload: 'left only' },
      { interruptId: right.id, status: 'cancelled' },
    ]);
    expect(receivedSince(start).sort((a, b) => a.node.localeCompare(b.node))).toEqual([
      { node: 'left', value: 'left only' },
      { node: 'right', value: { __agui_cancelled__: true, interrupt_id: langGraphIdOf(right.id) } },
    ]);
  });
});

describe.each([
  ['default agent settings (legacy on_interrupt only)', false],
  ['emitInterruptOutcome: true', true],
])('LangGraph review requests (agent-inbox HumanInterrupt) through normalizeInterrupts(), %s', (_name, emitInterruptOutcome) => {
  /** Opens the review node's request and returns the interrupt the card gets. */
  async function openReview(chat: ReturnType<typeof conversation>, text = 'Review the email please') {
    const { interrupts } = await chat.say(text);
    expect(interrupts).toHaveLength(1);
    return interrupts[0];
  }

  it('given a review request, the card is a direct-mode approval of the action with its arguments, description and allowed answers', async () => {
    const interrupt = await openReview(conversation(emitInterruptOutcome));
    expect(interrupt.id).toMatch(/^langgraph-review::[0-9a-f]{32}::[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(interrupt).toMatchObject({ reason: 'aidev:tool_approval', message: 'Send the deploy email?' });
    const card = unwrapInterrupt(interrupt);
    expect(card).toMatchObject({ reason: 'aidev:tool_approval', message: 'Send the deploy email?' });
    expect(card.problem).toBeUndefined();
    expect(toolCallOf(card)).toMatchObject({
      toolName: 'send_email',
      args: REVIEW_REQUEST.action_request.args,
      approvable: true,
      editable: true,
      rejectable: true,
      dismissible: true,
      reasonOnlyOnReject: true,
    });
  });

  it('given Approve, the graph receives [{type: accept, args: null}]', async () => {
    const chat = conversation(emitInterruptOutcome);
    const interrupt = await openReview(chat);
    const start = received.length;
    const { text } = await chat.resume([{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }]);
    expect(receivedSince(start)).toEqual([{ node: 'review', value: [{ type: 'accept', args: null }] }]);
    expect(text).toBe('Review answer: [{"type":"accept","args":null}]');
  });

  it('given Approve with edits, the graph receives an edit of the action with exactly the edited arguments', async () => {
    const chat = conversation(emitInterruptOutcome);
    const interrupt = await openReview(chat);
    const start = received.length;
    const editedArgs = { to: 'team@example.com', subject: 'Deploy done', cc: ['lead@example.com'] };
    await chat.resume([{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true, editedArgs } }]);
    expect(receivedSince(start)).toEqual([{ node: 'review', value: [{ type: 'edit', args: { action: 'send_email', args: editedArgs } }] }]);
  });

  it('given Reject with a reason, the graph receives a response with that reason', async () => {
    const chat = conversation(emitInterruptOutcome);
    const interrupt = await openReview(chat);
    const start = received.length;
    await chat.resume([{ interruptId: interrupt.id, status: 'resolved', payload: { approved: false, reason: 'Wait for QA' } }]);
    expect(receivedSince(start)).toEqual([{ node: 'review', value: [{ type: 'response', args: 'Wait for QA' }] }]);
  });

  it('given Reject without a reason, the graph receives a response that says the user rejected it', async () => {
    const chat = conversation(emitInterruptOutcome);
    const interrupt = await openReview(chat);
    const start = received.length;
    await chat.resume([{ interruptId: interrupt.id, status: 'resolved', payload: { approved: false } }]);
    expect(receivedSince(start)).toEqual([{ node: 'review', value: [{ type: 'response', args: 'The user rejected this action.' }] }]);
  });

  it('given Dismiss, the graph receives [{type: ignore, args: null}], not the bridge cancel marker', async () => {
    const chat = conversation(emitInterruptOutcome);
    const interrupt = await openReview(chat);
    const start = received.length;
    await chat.resume([{ interruptId: interrupt.id, status: 'cancelled' }]);
    expect(receivedSince(start)).toEqual([{ node: 'review', value: [{ type: 'ignore', args: null }] }]);
  });

  it('given a request that allows accept and ignore only, the card offers no Edit or Reject, and a forged edit reaches the graph as ignore with a problem', async () => {
    const problems: string[] = [];
    const chat = conversation(emitInterruptOutcome, { onProblem: (problem) => void problems.push(problem) });
    const interrupt = await openReview(chat, 'A strict review please');
    expect(toolCallOf(unwrapInterrupt(interrupt))).toMatchObject({
      approvable: true,
      editable: false,
      rejectable: false,
      dismissible: true,
    });
    const start = received.length;
    await chat.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { approved: true, editedArgs: { to: 'anyone@example.com' } } },
    ]);
    expect(receivedSince(start)).toEqual([{ node: 'review', value: [{ type: 'ignore', args: null }] }]);
    expect(problems).toEqual([expect.stringContaining('allow_edit is false')]);
  });
});
