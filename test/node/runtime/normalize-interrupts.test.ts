import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import fc from 'fast-check';
import { Observable, firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { normalizeInterrupts, toolApprovalInterrupt, userQuestionInterrupt, withNormalizedInterrupts } from '../../../src/runtime';
import { LEGACY_INTERRUPT_REASON } from '../../../src/backends/legacy/ids';
import { APPROVAL_STATUS, InterruptReason } from '../../../src/protocol';
import { unwrapInterrupt } from '../../../src/unwrap';

// Event shapes exactly as @ag-ui/mastra 1.1.2 emits them for a tool suspend (recorded from its wire).
const RUN_ID = 'run-1';
const TOOL_CALL_ID = 'call_abc';
const questions = [
  { header: 'Stack', question: 'Which database?', multiSelect: false, options: [{ label: 'Postgres', description: 'Relational' }] },
  { header: 'Scope', question: 'Which regions?', multiSelect: true, options: [{ label: 'EU', description: 'Europe' }] },
];
const questionPayload = { reason: 'aidev:user_question', message: 'A few questions first', metadata: { questions } };
const resumeSchema = JSON.stringify({ type: 'object', properties: { answers: { type: 'array' } } });

function mastraWrapper(suspendPayload: unknown, toolName = 'ask_user_questions') {
  return { type: 'mastra_suspend', toolCallId: TOOL_CALL_ID, toolName, suspendPayload, args: { topic: 'x' }, resumeSchema, runId: RUN_ID };
}
function bridgeInterrupt(suspendPayload: unknown, toolName = 'ask_user_questions') {
  const { type, args, runId } = mastraWrapper(suspendPayload, toolName);
  return {
    id: `${RUN_ID}::${TOOL_CALL_ID}`,
    reason: 'mastra:tool_suspend',
    toolCallId: TOOL_CALL_ID,
    responseSchema: JSON.parse(resumeSchema),
    metadata: { mastra: { type, toolName, suspendPayload, args, resumeSchema, runId } },
  };
}
function suspendRun(suspendPayload: unknown, { withOutcome = true, toolName = 'ask_user_questions' } = {}): BaseEvent[] {
  return [
    { type: 'RUN_STARTED', threadId: 't', runId: RUN_ID } as BaseEvent,
    { type: 'CUSTOM', name: 'on_interrupt', value: JSON.stringify(mastraWrapper(suspendPayload, toolName)) } as BaseEvent,
    {
      type: 'RUN_FINISHED',
      threadId: 't',
      runId: RUN_ID,
      ...(withOutcome ? { outcome: { type: 'interrupt', interrupts: [bridgeInterrupt(suspendPayload, toolName)] } } : {}),
    } as BaseEvent,
  ];
}

const input = (extra: Partial<RunAgentInput> = {}): RunAgentInput =>
  ({ threadId: 't', runId: RUN_ID, messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...extra }) as RunAgentInput;

/** A scripted agent whose clone(), like MastraAgent's, builds a fresh instance (and drops middlewares). */
class ScriptedAgent extends AbstractAgent {
  readonly inputs: RunAgentInput[] = [];
  constructor(private readonly script: (input: RunAgentInput) => BaseEvent[]) {
    super({ agentId: 'scripted' });
  }
  run(input: RunAgentInput): Observable<BaseEvent> {
    this.inputs.push(input);
    return new Observable((subscriber) => {
      for (const event of this.script(input)) subscriber.next(event);
      subscriber.complete();
    });
  }
  override clone(): ScriptedAgent {
    const copy = new ScriptedAgent(this.script);
    (copy as { inputs: RunAgentInput[] }).inputs = this.inputs;
    return copy;
  }
}

async function through(events: BaseEvent[], middleware = normalizeInterrupts({ onProblem: () => {} }), runInput = input()) {
  const agent = new ScriptedAgent(() => events);
  return firstValueFrom(middleware(runInput, agent).pipe(toArray()));
}
/** The id the browser gets for a Mastra suspend: the bridge's, marked as ours and signed. */
const signedMastraId = (bridgeId = `${RUN_ID}::${TOOL_CALL_ID}`) =>
  expect.stringMatching(new RegExp(`^mastra::${bridgeId}\\.[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]{43}$`));
const finished = (events: BaseEvent[]) => events.find((e) => e.type === 'RUN_FINISHED') as BaseEvent & { outcome?: any };

describe('normalizeInterrupts: a Mastra suspend that carries an aidev:* reason', () => {
  it('lifts the reason, message and metadata; keeps id, toolCallId, responseSchema and metadata.mastra', async () => {
    const out = await through(suspendRun(questionPayload));
    const [interrupt] = finished(out).outcome.interrupts;
    expect(interrupt).toEqual({
      id: signedMastraId(),
      reason: 'aidev:user_question',
      message: 'A few questions first',
      toolCallId: TOOL_CALL_ID,
      responseSchema: JSON.parse(resumeSchema),
      metadata: { questions, mastra: bridgeInterrupt(questionPayload).metadata.mastra },
    });
    // The client-side unwrap reads it as a question card with the same questions.
    const unwrapped = unwrapInterrupt(interrupt);
    expect(unwrapped.reason).toBe(InterruptReason.UserQuestion);
    expect(unwrapped.metadata).toEqual({ questions });
    expect(unwrapped.problem).toBeUndefined();
  });

  it('passes the legacy CUSTOM event and every other event through unchanged', async () => {
    const events = suspendRun(questionPayload);
    const out = await through(events);
    expect(out).toHaveLength(3);
    expect(out[0]).toBe(events[0]);
    expect(out[1]).toBe(events[1]);
  });

  it('lifts an approval ticket payload', async () => {
    const ticket = {
      approvers: ['ops'],
      sn: 'APR-1',
      status: 'pending',
      submit_time: '2026-01-01 10:00',
      title: 'Deploy',
      url: 'https://example.com/APR-1',
    };
    const out = await through(suspendRun({ reason: 'aidev:tool_approval', metadata: { ticket } }, { toolName: 'request_approval' }));
    const [interrupt] = finished(out).outcome.interrupts;
    expect(interrupt.reason).toBe('aidev:tool_approval');
    expect(interrupt.metadata.ticket).toEqual(ticket);
    expect(interrupt.metadata.mastra.toolName).toBe('request_approval');
    expect(interrupt.id).toEqual(signedMastraId());
  });

  it('leaves a suspend without a reason (the time picker) as it is, but for its signed id', async () => {
    const payload = { topic: 'Intro', slots: [{ label: 'Tomorrow 10:00 AM', iso: '2026-01-02T10:00:00.000Z' }] };
    const events = suspendRun(payload, { toolName: 'schedule_meeting' });
    const out = await through(events);
    expect(out[2]).toEqual({
      ...events[2],
      outcome: { type: 'interrupt', interrupts: [{ ...bridgeInterrupt(payload, 'schedule_meeting'), id: signedMastraId() }] },
    });
  });
});

describe('normalizeInterrupts: a legacy-only run', () => {
  it('turns a lone mastra_suspend on_interrupt into the interrupt outcome the bridge would have sent', async () => {
    const out = await through(suspendRun(questionPayload, { withOutcome: false }));
    const outcome = finished(out).outcome;
    expect(outcome.type).toBe('interrupt');
    expect(outcome.interrupts).toEqual([
      {
        id: signedMastraId(),
        reason: 'aidev:user_question',
        message: 'A few questions first',
        toolCallId: TOOL_CALL_ID,
        responseSchema: JSON.parse(resumeSchema),
        metadata: { questions, mastra: bridgeInterrupt(questionPayload).metadata.mastra },
      },
    ]);
  });

  it('keeps a Mastra interrupt without a reason as mastra:tool_suspend with the suspend payload', async () => {
    const payload = { topic: 'Intro', slots: [] };
    const out = await through(suspendRun(payload, { withOutcome: false, toolName: 'schedule_meeting' }));
    const [interrupt] = finished(out).outcome.interrupts;
    expect(interrupt).toEqual({ ...bridgeInterrupt(payload, 'schedule_meeting'), id: signedMastraId() });
    expect(unwrapInterrupt(interrupt)).toMatchObject({ toolName: 'schedule_meeting', payload });
  });

  it('turns a non-Mastra legacy value ({reason, metadata}, object) into a standard interrupt', async () => {
    const events: BaseEvent[] = [
      { type: 'RUN_STARTED', threadId: 't', runId: RUN_ID } as BaseEvent,
      { type: 'CUSTOM', name: 'on_interrupt', value: { reason: 'aidev:user_question', metadata: { questions } } } as BaseEvent,
      { type: 'RUN_FINISHED', threadId: 't', runId: RUN_ID } as BaseEvent,
    ];
    const [interrupt] = finished(await through(events)).outcome.interrupts;
    expect(interrupt).toEqual({
      id: expect.stringMatching(`^legacy::${RUN_ID}::0::`),
      reason: 'aidev:user_question',
      metadata: { questions },
    });
  });

  it('turns a plain-sentence legacy value into an interrupt with that message', async () => {
    const events: BaseEvent[] = [
      { type: 'RUN_STARTED', threadId: 't', runId: RUN_ID } as BaseEvent,
      { type: 'CUSTOM', name: 'on_interrupt', value: 'Approve the deploy?' } as BaseEvent,
      { type: 'RUN_FINISHED', threadId: 't', runId: RUN_ID } as BaseEvent,
    ];
    const [interrupt] = finished(await through(events)).outcome.interrupts;
    expect(interrupt).toMatchObject({ reason: LEGACY_INTERRUPT_REASON, message: 'Approve the deploy?' });
  });

  it('sends the resume of a synthesized legacy interrupt the legacy way (forwardedProps.command)', async () => {
    const value = { reason: 'aidev:user_question', metadata: { questions } };
    const middleware = normalizeInterrupts({ onProblem: () => {} });
    const agent = new ScriptedAgent((i) =>
      i.forwardedProps?.command
        ? [
            { type: 'RUN_STARTED', threadId: 't', runId: 'run-2' } as BaseEvent,
            { type: 'RUN_FINISHED', threadId: 't', runId: 'run-2' } as BaseEvent,
          ]
        : [
            { type: 'RUN_STARTED', threadId: 't', runId: RUN_ID } as BaseEvent,
            { type: 'CUSTOM', name: 'on_interrupt', value } as BaseEvent,
            { type: 'RUN_FINISHED', threadId: 't', runId: RUN_ID } as BaseEvent,
          ],
    );
    const first = await firstValueFrom(middleware(input(), agent).pipe(toArray()));
    const id = finished(first).outcome.interrupts[0].id;
    const answers = { answers: [{ question: 'Which database?', answer: [{ label: 'Postgres', description: 'Relational' }] }] };
    await firstValueFrom(
      middleware(input({ runId: 'run-2', resume: [{ interruptId: id, status: 'resolved', payload: answers }] } as any), agent).pipe(
        toArray(),
      ),
    );
    const sent = agent.inputs[1] as RunAgentInput & { resume?: unknown };
    expect(sent.forwardedProps.command).toEqual({ resume: answers, interruptEvent: value });
    expect(sent.resume).toBeUndefined();
  });

  it('hands the resume of a Mastra interrupt to the bridge under its own id (runId::toolCallId), the answer untouched', async () => {
    const [interrupt] = finished(await through(suspendRun(questionPayload))).outcome.interrupts;
    const agent = new ScriptedAgent(() => []);
    const resume = [{ interruptId: interrupt.id, status: 'resolved', payload: { chosen_label: 'x' } }];
    await firstValueFrom(normalizeInterrupts()(input({ resume } as any), agent).pipe(toArray()));
    expect((agent.inputs[0] as any).resume).toEqual([{ ...resume[0], interruptId: `${RUN_ID}::${TOOL_CALL_ID}` }]);
    expect(agent.inputs[0].forwardedProps).toEqual({});
  });

  it('adds nothing to a run without interrupts', async () => {
    const events: BaseEvent[] = [
      { type: 'RUN_STARTED', threadId: 't', runId: RUN_ID } as BaseEvent,
      { type: 'CUSTOM', name: 'something_else', value: { reason: 'x' } } as BaseEvent,
      { type: 'RUN_FINISHED', threadId: 't', runId: RUN_ID } as BaseEvent,
    ];
    const out = await through(events);
    expect(out).toEqual(events);
    expect(out[2]).toBe(events[2]);
  });
});

// The middleware marks the ids it gives (LangGraph's, legacy events', Mastra approvals') with
// prefixes and reads a resume by them. An agent's own id may start the same way.
describe("normalizeInterrupts: an agent's own interrupt id that starts like one of ours", () => {
  const reserved = ['legacy::', 'langgraph::', 'langgraph-review::', 'mastra-approval::', 'own::'];
  const ids = fc.oneof(
    fc.string({ minLength: 1 }),
    fc.tuple(fc.constantFrom(...reserved), fc.string()).map(([prefix, rest]) => prefix + rest),
    // Ids of ours, as an inner normalizeInterrupts gives them: a legacy id with a readable event.
    fc.constantFrom('legacy::run-0::0::eyJlIjoiR28_In0', 'langgraph-review::abc::eyJhIjoiZGVwbG95IiwiYyI6ImEifQ'),
  );
  /** A plain AG-UI agent: stops with `id` on its first run, replies to the answer on the next. */
  const stopsWith = (id: string) =>
    new ScriptedAgent((i) => [
      { type: 'RUN_STARTED', threadId: 't', runId: i.runId } as BaseEvent,
      (i as { resume?: unknown }).resume
        ? ({ type: 'RUN_FINISHED', threadId: 't', runId: i.runId } as BaseEvent)
        : ({
            type: 'RUN_FINISHED',
            threadId: 't',
            runId: i.runId,
            outcome: { type: 'interrupt', interrupts: [{ id, reason: 'acme:confirm' }] },
          } as BaseEvent),
    ]);
  const run = (middleware: ReturnType<typeof normalizeInterrupts>, runInput: RunAgentInput, agent: AbstractAgent) =>
    firstValueFrom(middleware(runInput, agent).pipe(toArray()));

  it('given any id, when its interrupt is answered, the agent gets the answer under the id it gave, with nothing added', async () => {
    await fc.assert(
      fc.asyncProperty(ids, fc.constantFrom('resolved', 'cancelled'), fc.jsonValue(), async (id, status, payload) => {
        const problems: string[] = [];
        const middleware = normalizeInterrupts({ onProblem: (problem) => void problems.push(problem) });
        const agent = stopsWith(id);
        const shown = finished(await run(middleware, input(), agent)).outcome.interrupts[0].id as string;
        if (!reserved.some((prefix) => id.startsWith(prefix))) expect(shown).toBe(id);
        const answer = { interruptId: shown, status, ...(status === 'resolved' && { payload }) };
        await run(middleware, input({ runId: 'run-2', resume: [answer] } as Partial<RunAgentInput>), agent);
        expect((agent.inputs[1] as { resume?: unknown }).resume).toEqual([{ ...answer, interruptId: id }]);
        expect(agent.inputs[1].forwardedProps).toEqual({});
        expect(problems).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('given the middleware twice in a row, when a legacy event is answered, the agent still gets it the legacy way', async () => {
    const value = { reason: 'acme:confirm', message: 'Go?' };
    const agent = new ScriptedAgent((i) => [
      { type: 'RUN_STARTED', threadId: 't', runId: i.runId } as BaseEvent,
      ...(i.forwardedProps?.command ? [] : [{ type: 'CUSTOM', name: 'on_interrupt', value } as BaseEvent]),
      { type: 'RUN_FINISHED', threadId: 't', runId: i.runId } as BaseEvent,
    ]);
    const inner = normalizeInterrupts({ onProblem: () => {} });
    const outer = normalizeInterrupts({ onProblem: () => {} });
    const twice = { run: (i: RunAgentInput) => inner(i, agent) } as unknown as AbstractAgent;
    const shown = finished(await run(outer, input(), twice)).outcome.interrupts[0].id as string;
    await run(
      outer,
      input({ runId: 'run-2', resume: [{ interruptId: shown, status: 'resolved', payload: true }] } as Partial<RunAgentInput>),
      twice,
    );
    expect(agent.inputs[1].forwardedProps.command).toEqual({ resume: true, interruptEvent: value });
    expect((agent.inputs[1] as { resume?: unknown }).resume).toBeUndefined();
  });
});

describe('normalizeInterrupts keeps no state between requests', () => {
  // A legacy-only agent: the first run raises the given on_interrupt values; a run that carries a
  // command records it and finishes.
  const legacyAgent = (values: unknown[], runId = RUN_ID) =>
    new ScriptedAgent((i) =>
      i.forwardedProps?.command || (i as { resume?: unknown }).resume
        ? [
            { type: 'RUN_STARTED', threadId: i.threadId, runId: i.runId } as BaseEvent,
            { type: 'RUN_FINISHED', threadId: i.threadId, runId: i.runId } as BaseEvent,
          ]
        : [
            { type: 'RUN_STARTED', threadId: i.threadId, runId } as BaseEvent,
            ...values.map((value) => ({ type: 'CUSTOM', name: 'on_interrupt', value }) as BaseEvent),
            { type: 'RUN_FINISHED', threadId: i.threadId, runId } as BaseEvent,
          ],
    );
  const raise = async (agent: ScriptedAgent, runInput: RunAgentInput) => {
    const events = await firstValueFrom(normalizeInterrupts({ onProblem: () => {} })(runInput, agent).pipe(toArray()));
    return finished(events).outcome.interrupts as { id: string; reason: string; metadata: any }[];
  };
  // Every request gets a new middleware: as after a server restart, or on another server process.
  const answer = async (agent: ScriptedAgent, runInput: RunAgentInput) => {
    await firstValueFrom(normalizeInterrupts({ onProblem: () => {} })(runInput, agent).pipe(toArray()));
    return agent.inputs[agent.inputs.length - 1] as RunAgentInput & { resume?: unknown };
  };

  it('given a run with two legacy on_interrupt events, when both are answered, the agent gets both answers', async () => {
    const first = { id: 'ask_db', reason: 'aidev:user_question', metadata: { questions: [questions[0]] } };
    const second = { id: 'ask_region', reason: 'aidev:user_question', metadata: { questions: [questions[1]] } };
    const agent = legacyAgent([JSON.stringify(first), second]);
    const interrupts = await raise(agent, input());
    expect(interrupts.map((i) => i.metadata.questions[0].question)).toEqual(['Which database?', 'Which regions?']);
    expect(new Set(interrupts.map((i) => i.id)).size).toBe(2);

    const sent = await answer(
      agent,
      input({
        runId: 'run-2',
        resume: [
          { interruptId: interrupts[0].id, status: 'resolved', payload: { answers: ['Postgres'] } },
          { interruptId: interrupts[1].id, status: 'resolved', payload: { answers: ['EU'] } },
        ],
      } as any),
    );
    // One command, each answer under the interrupt's own id.
    expect(sent.forwardedProps.command).toEqual({
      resume: { ask_db: { answers: ['Postgres'] }, ask_region: { answers: ['EU'] } },
      interruptEvent: JSON.stringify(first),
    });
    expect(sent.resume).toBeUndefined();
  });

  it('given two legacy interrupts of one run that share their own id, both answers reach the agent', async () => {
    const value = (message: string) => ({ id: 'interrupt_ai_dev_tool_approval', reason: 'aidev:tool_approval', message, metadata: {} });
    const agent = legacyAgent([value('Deploy?'), value('Migrate?')]);
    const interrupts = await raise(agent, input());
    expect(new Set(interrupts.map((i) => i.id)).size).toBe(2);
    const sent = await answer(
      agent,
      input({
        runId: 'run-2',
        resume: [
          { interruptId: interrupts[0].id, status: 'resolved', payload: { approved: true } },
          { interruptId: interrupts[1].id, status: 'resolved', payload: { approved: false } },
        ],
      } as any),
    );
    expect(Object.values((sent.forwardedProps.command as any).resume)).toEqual([{ approved: true }, { approved: false }]);
  });

  it('given more than 200 legacy interrupts raised on the server, when the first is answered, it is still translated with its event', async () => {
    const agents = Array.from({ length: 250 }, (_, n) =>
      legacyAgent([{ reason: 'aidev:user_question', metadata: { questions }, message: `Question ${n}` }], `run-${n}`),
    );
    const raised = [];
    for (const [n, agent] of agents.entries()) raised.push((await raise(agent, input({ runId: `run-${n}` })))[0]);
    const sent = await answer(
      agents[0],
      input({ runId: 'answer', resume: [{ interruptId: raised[0].id, status: 'resolved', payload: 'yes' }] } as any),
    );
    expect(sent.forwardedProps.command).toEqual({
      resume: 'yes',
      interruptEvent: { reason: 'aidev:user_question', metadata: { questions }, message: 'Question 0' },
    });
  });

  it("given two threads whose legacy interrupts share an id, when each user answers, each resume carries its own thread's event", async () => {
    // A fixed id the protocol's examples give every approval.
    const valueA = { id: 'interrupt_ai_dev_tool_approval', reason: 'aidev:tool_approval', message: 'Deploy A?', metadata: {} };
    const valueB = { id: 'interrupt_ai_dev_tool_approval', reason: 'aidev:tool_approval', message: 'Delete B?', metadata: {} };
    const agentA = legacyAgent([valueA], 'run-a');
    const agentB = legacyAgent([valueB], 'run-b');
    const [interruptA] = await raise(agentA, input({ threadId: 'thread-a', runId: 'run-a' }));
    const [interruptB] = await raise(agentB, input({ threadId: 'thread-b', runId: 'run-b' }));
    expect(interruptA.id).not.toBe(interruptB.id);

    // B answers first, then A: the order the server sees them must not matter.
    const sentB = await answer(
      agentB,
      input({
        threadId: 'thread-b',
        runId: 'b2',
        resume: [{ interruptId: interruptB.id, status: 'resolved', payload: { approved: false } }],
      } as any),
    );
    const sentA = await answer(
      agentA,
      input({
        threadId: 'thread-a',
        runId: 'a2',
        resume: [{ interruptId: interruptA.id, status: 'resolved', payload: { approved: true } }],
      } as any),
    );
    expect(sentA.forwardedProps.command).toEqual({ resume: { approved: true }, interruptEvent: valueA });
    expect(sentB.forwardedProps.command).toEqual({ resume: { approved: false }, interruptEvent: valueB });
  });

  it('given a cancelled legacy interrupt, the agent gets resume false with the event', async () => {
    const agent = legacyAgent(['Approve the deploy?']);
    const [interrupt] = await raise(agent, input());
    const sent = await answer(agent, input({ runId: 'run-2', resume: [{ interruptId: interrupt.id, status: 'cancelled' }] } as any));
    expect(sent.forwardedProps.command).toEqual({ resume: false, interruptEvent: 'Approve the deploy?' });
  });

  it('given a forged or truncated legacy id, the answer does not reach the agent and the run ends with an error naming the id', async () => {
    const onProblem = vi.fn();
    const agent = legacyAgent([]);
    const forged = `legacy::${RUN_ID}::0::not*base64`;
    const events = await firstValueFrom(
      normalizeInterrupts({ onProblem })(
        input({ resume: [{ interruptId: forged, status: 'resolved', payload: 'ok' }] } as any),
        agent,
      ).pipe(toArray()),
    );
    expect(agent.inputs).toEqual([]);
    expect(events).toEqual([{ type: 'RUN_ERROR', code: 'interrupt_id_refused', message: expect.stringContaining(forged) }]);
    expect(onProblem.mock.calls[0][0]).toMatch(/no signature/);
  });

  it('given a legacy value too large to carry, the interrupt still appears and its answer reaches the agent', async () => {
    const onProblem = vi.fn();
    const huge = { reason: 'aidev:user_question', metadata: { questions }, blob: 'x'.repeat(20_000) };
    const agent = legacyAgent([huge]);
    const out = await firstValueFrom(normalizeInterrupts({ onProblem })(input(), agent).pipe(toArray()));
    const [interrupt] = finished(out).outcome.interrupts;
    expect(interrupt.reason).toBe('aidev:user_question');
    expect(onProblem.mock.calls[0][0]).toMatch(/too large to carry/);
    const sent = await answer(
      agent,
      input({ runId: 'run-2', resume: [{ interruptId: interrupt.id, status: 'resolved', payload: 'ok' }] } as any),
    );
    expect(sent.forwardedProps.command).toEqual({ resume: 'ok' });
  });

  /** One resume run answering each interrupt with its payload, in order. */
  const answerEach = (agent: ScriptedAgent, interrupts: { id: string }[], payloads: unknown[]) =>
    answer(
      agent,
      input({
        runId: 'run-2',
        resume: interrupts.map((interrupt, n) => ({ interruptId: interrupt.id, status: 'resolved', payload: payloads[n] })),
      } as any),
    );

  it("given two legacy interrupts with their own ids, one too large to carry, each answer is still keyed by the agent's own id", async () => {
    const small = { id: 'ask_db', reason: 'aidev:user_question', metadata: { questions: [questions[0]] } };
    const large = { id: 'ask_region', reason: 'aidev:user_question', metadata: { questions: [questions[1]] }, blob: 'x'.repeat(20_000) };
    const agent = legacyAgent([small, large]);
    const sent = await answerEach(agent, await raise(agent, input()), ['pg', 'eu']);
    expect((sent.forwardedProps as any).command.resume).toEqual({ ask_db: 'pg', ask_region: 'eu' });
    expect((sent.forwardedProps as any).command.interruptEvent).toEqual(small);
  });

  it.each([
    ['Chinese', '请'],
    ['emoji', '🙂'],
  ])('given a legacy value in %s text just under the carry limit, its answer reaches the agent with its event', async (_name, char) => {
    const onProblem = vi.fn();
    const value = { id: 'ask', reason: 'aidev:user_question', message: '', metadata: { questions } };
    // Fill the JSON up to 100 bytes under the limit, counted in UTF-8 as the id carries it.
    const room = 16_384 - 100 - new TextEncoder().encode(JSON.stringify({ a: 'ask', e: value })).length;
    value.message = char.repeat(Math.floor(room / new TextEncoder().encode(char).length));
    const agent = legacyAgent([value]);
    const events = await firstValueFrom(normalizeInterrupts({ onProblem })(input(), agent).pipe(toArray()));
    const [interrupt] = finished(events).outcome.interrupts;
    const sent = await firstValueFrom(
      normalizeInterrupts({ onProblem })(
        input({ runId: 'run-2', resume: [{ interruptId: interrupt.id, status: 'resolved', payload: 'yes' }] } as any),
        agent,
      ).pipe(toArray()),
    ).then(() => agent.inputs[agent.inputs.length - 1] as any);
    expect(onProblem).not.toHaveBeenCalled();
    expect(sent.forwardedProps.command).toEqual({ resume: 'yes', interruptEvent: value });
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'given two legacy interrupts whose own ids include %s, each answer is keyed by its own id',
    async (own) => {
      const agent = legacyAgent([
        { id: own, reason: 'aidev:user_question', metadata: { questions: [questions[0]] } },
        { id: 'second', reason: 'aidev:user_question', metadata: { questions: [questions[1]] } },
      ]);
      const sent = await answerEach(agent, await raise(agent, input()), ['first answer', 'second answer']);
      const resume = (sent.forwardedProps as any).command.resume;
      expect(Object.entries(resume)).toEqual([
        [own, 'first answer'],
        ['second', 'second answer'],
      ]);
      // What the agent reads is JSON: the key survives the wire too.
      expect(JSON.parse(JSON.stringify(resume))).toEqual(
        Object.fromEntries([
          [own, 'first answer'],
          ['second', 'second answer'],
        ]),
      );
    },
  );
});

describe('normalizeInterrupts: malformed input', () => {
  const cases: [string, unknown][] = [
    ['a broken JSON string', '{"type":"mastra_suspend", "toolCallId":'],
    ['null', null],
    ['a number', 42],
    ['a list', [1, 2]],
    ['a mastra wrapper without a toolCallId', { type: 'mastra_suspend', suspendPayload: { reason: 'aidev:user_question' } }],
    ['a __proto__ key', JSON.parse('{"__proto__": {"polluted": true}, "reason": "aidev:user_question"}')],
  ];
  it.each(cases)('survives a legacy value that is %s', async (_name, value) => {
    const events: BaseEvent[] = [
      { type: 'RUN_STARTED', threadId: 't', runId: RUN_ID } as BaseEvent,
      { type: 'CUSTOM', name: 'on_interrupt', value } as BaseEvent,
      { type: 'RUN_FINISHED', threadId: 't', runId: RUN_ID } as BaseEvent,
    ];
    const out = await through(events);
    expect(out).toHaveLength(3);
    expect(({} as any).polluted).toBeUndefined();
    const outcome = finished(out).outcome;
    if (outcome) for (const interrupt of outcome.interrupts) expect(typeof interrupt.id).toBe('string');
  });

  it('survives broken standard outcomes: a non-object interrupt, metadata.mastra without a payload, a null reason', async () => {
    const weird = [
      'not an interrupt',
      { id: 'a', reason: 'mastra:tool_suspend', metadata: { mastra: { suspendPayload: 'text' } } },
      { id: 'b', reason: 'mastra:tool_suspend', metadata: { mastra: { suspendPayload: { reason: null } } } },
      { id: 'c', reason: 'x', metadata: 'not metadata' },
    ];
    const events: BaseEvent[] = [
      { type: 'RUN_FINISHED', threadId: 't', runId: RUN_ID, outcome: { type: 'interrupt', interrupts: weird } } as BaseEvent,
    ];
    const out = await through(events);
    // Each is passed on as it came; the two that name Mastra get their signed id.
    expect(finished(out).outcome.interrupts).toEqual([
      weird[0],
      { ...(weird[1] as object), id: signedMastraId('a') },
      { ...(weird[2] as object), id: signedMastraId('b') },
      weird[3],
    ]);
  });

  it('passes an event through when reading it throws', async () => {
    const onProblem = vi.fn();
    const hostile = { type: 'RUN_FINISHED', threadId: 't', runId: RUN_ID } as BaseEvent;
    Object.defineProperty(hostile, 'outcome', {
      get: () => {
        throw new Error('boom');
      },
      enumerable: true,
    });
    const out = await through([hostile], normalizeInterrupts({ onProblem }));
    expect(out[0]).toBe(hostile);
    expect(onProblem.mock.calls[0][0]).toContain('boom');
    expect(onProblem.mock.calls[0][1]).toBe(hostile);
  });

  it('forwards an upstream error as an error, not a throw', async () => {
    const agent = new ScriptedAgent(() => []);
    agent.run = () => new Observable((s) => s.error(new Error('upstream failed')));
    await expect(firstValueFrom(normalizeInterrupts()(input(), agent).pipe(toArray()))).rejects.toThrow('upstream failed');
  });
});

describe('normalizeInterrupts: CopilotRuntime clones the agent per request', () => {
  const collect = async (agent: AbstractAgent) => {
    const events: BaseEvent[] = [];
    await agent.runAgent({ runId: RUN_ID }, { onEvent: ({ event }) => void events.push(event) });
    return events;
  };

  it('plain agent.use() is lost by an agent whose clone() rebuilds it (MastraAgent does this)', async () => {
    const agent = new ScriptedAgent(() => suspendRun(questionPayload)).use(normalizeInterrupts());
    const events = await collect(agent.clone());
    expect(finished(events).outcome.interrupts[0].reason).toBe('mastra:tool_suspend');
  });

  it('withNormalizedInterrupts keeps the middleware on clones, and clones of clones, exactly once', async () => {
    const agent = withNormalizedInterrupts(new ScriptedAgent(() => suspendRun(questionPayload)));
    for (const copy of [agent, agent.clone(), agent.clone().clone()]) {
      const events = await collect(copy);
      expect(finished(events).outcome.interrupts[0].reason).toBe('aidev:user_question');
      expect((copy as any).middlewares.filter((m: any) => m.fn !== undefined)).toHaveLength(1);
    }
  });

  it('agent.use() survives AbstractAgent.clone(), which copies middlewares', async () => {
    class DefaultClone extends AbstractAgent {
      run(): Observable<BaseEvent> {
        return new Observable((s) => {
          for (const e of suspendRun(questionPayload)) s.next(e);
          s.complete();
        });
      }
    }
    const agent = withNormalizedInterrupts(new DefaultClone());
    const copy = agent.clone() as AbstractAgent;
    expect((copy as any).middlewares.filter((m: any) => m.fn !== undefined)).toHaveLength(1);
    const events = await collect(copy);
    expect(finished(events).outcome.interrupts[0].reason).toBe('aidev:user_question');
  });
});

describe('interrupt builders', () => {
  const ticket = {
    approvers: ['ops'],
    sn: 'APR-1',
    status: APPROVAL_STATUS.PENDING,
    submit_time: '2026-01-01 10:00',
    title: 'Deploy',
    url: 'https://example.com/APR-1',
  };

  it('toolApprovalInterrupt builds a ticket-mode interrupt', () => {
    expect(toolApprovalInterrupt({ toolCallId: 'c1', ticket, message: 'Needs approval' })).toEqual({
      id: 'aidev:tool_approval::c1',
      reason: 'aidev:tool_approval',
      toolCallId: 'c1',
      message: 'Needs approval',
      metadata: { ticket },
    });
  });

  it('toolApprovalInterrupt builds a direct-mode interrupt', () => {
    const interrupt = toolApprovalInterrupt({ id: 'i1', toolCallId: 'c2', toolName: 'delete_branch', args: { name: 'old' } });
    expect(interrupt).toEqual({
      id: 'i1',
      reason: 'aidev:tool_approval',
      toolCallId: 'c2',
      metadata: { toolName: 'delete_branch', args: { name: 'old' } },
    });
    expect(unwrapInterrupt(interrupt).reason).toBe('aidev:tool_approval');
  });

  it('userQuestionInterrupt builds a question interrupt the unwrap accepts', () => {
    const interrupt = userQuestionInterrupt({ toolCallId: 'c3', questions, expiresAt: '2030-01-01T00:00:00Z' });
    expect(interrupt).toEqual({
      id: 'aidev:user_question::c3',
      reason: 'aidev:user_question',
      toolCallId: 'c3',
      expiresAt: '2030-01-01T00:00:00Z',
      metadata: { questions },
    });
    expect(unwrapInterrupt(interrupt).problem).toBeUndefined();
  });

  it('refuses to build interrupts without a tool call or questions', () => {
    expect(() => userQuestionInterrupt({ toolCallId: 'c', questions: [] })).toThrow(/at least one question/);
    expect(() => toolApprovalInterrupt({ toolCallId: '', ticket })).toThrow(/toolCallId/);
  });
});
