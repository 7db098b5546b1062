import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventType, HttpAgent, type BaseEvent, type Message, type RunAgentInput } from '@ag-ui/client';
import { PGlite } from '@electric-sql/pglite';
import { CopilotRuntime, InMemoryAgentRunner } from '@copilotkit/runtime/v2';
import fc from 'fast-check';
import pg from 'pg';
import { firstValueFrom, lastValueFrom, toArray, type Observable } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInterruptRunner,
  RunnerError,
  SCHEMA_VERSION,
  type InterruptRecord,
  type InterruptRunner,
  type InterruptRunnerOptions,
} from '../../../src/runner';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres';
import { serveRuntime } from '../../helpers/runtime-server';
import {
  createGate,
  interruptOutcome,
  runFinished,
  runStarted,
  ScriptedAgent,
  textMessage,
  type RunScript,
} from '../../helpers/scripted-agent';
import { emptyEmbeddedStore } from '../../helpers/embedded-store';

/** A scripted agent whose `abortRun` ends the run, as a real agent's does. */
class StoppableAgent extends ScriptedAgent {
  override abortRun() {
    void this.detachActiveRun();
  }
}

const collect = (events: Observable<BaseEvent>) => lastValueFrom(events.pipe(toArray()));
const ofType = (events: BaseEvent[], type: EventType) => events.filter((event) => event.type === type) as Array<Record<string, unknown>>;
const errorsOf = (events: BaseEvent[]) => ofType(events, EventType.RUN_ERROR).map((event) => event.message as string);
const userMessage = (id: string, content: string): Message => ({ id, role: 'user', content }) as Message;

function inputFor(threadId: string, extra: Partial<RunAgentInput> & { resume?: unknown } = {}): RunAgentInput {
  return { threadId, runId: randomUUID(), messages: [], state: {}, tools: [], context: [], forwardedProps: {}, ...extra } as RunAgentInput;
}

/** Raises `interrupts` on the first run of a thread; later runs say "Done." and finish. */
const raising =
  (...interrupts: unknown[]): RunScript =>
  (input) =>
    (input as { resume?: unknown }).resume
      ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)]
      : [
          runStarted(input),
          ...textMessage(`ask-${input.runId}`, 'Needs your answer.'),
          runFinished(input, interruptOutcome(...interrupts)),
        ];

interface StoreUnderTest {
  /** Options for a runner on a fresh store. */
  fresh(): Promise<InterruptRunnerOptions>;
  /** Runs SQL on a store while no runner has it open. */
  sql(options: InterruptRunnerOptions, text: string, params?: unknown[]): Promise<unknown[]>;
  /** Runs a script of several statements (a dump) on a store while no runner has it open. */
  script(options: InterruptRunnerOptions, text: string): Promise<void>;
  /** The same database, as seen by a second runtime instance. */
  multiInstance: boolean;
}

const tempDirs: string[] = [];
let cluster: PostgresCluster | undefined;
let databases = 0;

const stores: Record<'embedded' | 'PostgreSQL', StoreUnderTest> = {
  embedded: {
    async fresh() {
      const dir = mkdtempSync(join(tmpdir(), 'cki-runner-'));
      tempDirs.push(dir);
      return { dataDir: await emptyEmbeddedStore(join(dir, 'store')) };
    },
    async sql(options, text, params) {
      const db = await PGlite.create(options.dataDir!);
      try {
        return (await db.query(text, params)).rows;
      } finally {
        await db.close();
      }
    },
    async script(options, text) {
      const db = await PGlite.create(options.dataDir!);
      try {
        await db.exec(text);
      } finally {
        await db.close();
      }
    },
    multiInstance: true,
  },
  PostgreSQL: {
    async fresh() {
      cluster ??= await startPostgres();
      return { url: await cluster.createDatabase(`runner_${++databases}`), pollIntervalMs: 20 };
    },
    async sql(options, text, params) {
      const client = new pg.Client({ connectionString: options.url });
      await client.connect();
      try {
        return (await client.query(text, params)).rows;
      } finally {
        await client.end();
      }
    },
    async script(options, text) {
      const client = new pg.Client({ connectionString: options.url });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    },
    multiInstance: true,
  },
};

afterAll(async () => {
  await cluster?.stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('the durable runner on the %s store', (kind) => {
  const store = stores[kind];
  let options: InterruptRunnerOptions;
  let runner: InterruptRunner;
  const opened: InterruptRunner[] = [];
  const open = () => {
    const instance = createInterruptRunner(options);
    opened.push(instance);
    return instance;
  };

  beforeAll(async () => {
    options = await store.fresh();
    runner = open();
    await runner.ready();
  }, 60_000);

  afterAll(async () => {
    for (const instance of opened) await instance.close();
  });

  it('given a finished run, a later connect (on a restarted instance too) should replay it with the run input on RUN_STARTED', async () => {
    const threadId = `replay-${randomUUID()}`;
    const agent = new ScriptedAgent((input) => [runStarted(input), ...textMessage(`a-${input.runId}`, 'Hi there'), runFinished(input)]);
    const hello = userMessage('u1', 'Hello');
    const first = await collect(runner.run({ threadId, agent, input: inputFor(threadId, { messages: [hello] }) }));
    expect(ofType(first, EventType.RUN_STARTED)[0]).toMatchObject({ input: { threadId, messages: [hello] } });

    // The second run's input carries the whole transcript; only the new message rides on RUN_STARTED.
    const again = userMessage('u2', 'And again');
    const assistant = { id: `a-${agent.runs[0]!.runId}`, role: 'assistant', content: 'Hi there' } as Message;
    await collect(runner.run({ threadId, agent, input: inputFor(threadId, { messages: [hello, assistant, again] }) }));

    const replay = await collect(runner.connect({ threadId }));
    const started = ofType(replay, EventType.RUN_STARTED) as Array<{ input: RunAgentInput }>;
    expect(started.map((event) => event.input.messages.map((message) => message.id))).toEqual([['u1'], ['u2']]);
    expect(ofType(replay, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Hi there', 'Hi there']);
    expect(ofType(replay, EventType.RUN_FINISHED)).toHaveLength(2);

    const restarted = open();
    expect(await collect(restarted.connect({ threadId }))).toEqual(replay);
  });

  it("given the same runs, connect should replay what CopilotKit's in-memory runner replays", async () => {
    const threadId = `parity-${randomUUID()}`;
    const script = raising({ id: 'i-parity', reason: 'tool_approval', expiresAt: '2031-01-01T00:00:00.000Z' });
    const hello = userMessage('u-parity', 'Hello');
    const inputs = [
      inputFor(threadId, { messages: [hello] }),
      inputFor(threadId, { messages: [hello], resume: [{ interruptId: 'i-parity', status: 'resolved', payload: { approved: true } }] }),
    ];
    const replayOf = async (subject: InMemoryAgentRunner | InterruptRunner) => {
      const agent = new ScriptedAgent(script, { threadId });
      for (const input of inputs) await collect(subject.run({ threadId, agent, input: structuredClone(input) }));
      return collect(subject.connect({ threadId }));
    };
    const expected = await replayOf(new InMemoryAgentRunner());
    expect(expected.length).toBeGreaterThan(4);
    expect(await replayOf(runner)).toEqual(expected);
  });

  it('given a thread never run, connect should complete with nothing', async () => {
    expect(await collect(runner.connect({ threadId: `empty-${randomUUID()}` }))).toEqual([]);
  });

  it('given a run in progress, isRunning should say so, stop should end it, and the stopped run should be kept', async () => {
    const threadId = `stop-${randomUUID()}`;
    const gate = createGate();
    const agent = new StoppableAgent((input) => [
      runStarted(input),
      ...textMessage('m-stop', 'Working'),
      () => gate.wait(),
      runFinished(input),
    ]);
    const input = inputFor(threadId);
    const events = runner.run({ threadId, agent, input });
    const all = collect(events);
    await firstValueFrom(events.pipe(filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)));

    expect(await runner.isRunning({ threadId })).toBe(true);
    expect(await runner.stop({ threadId, runId: 'another-run' })).toBe(false);
    expect(await runner.stop({ threadId, runId: input.runId })).toBe(true);
    await all;
    expect(await runner.isRunning({ threadId })).toBe(false);
    gate.open();

    const replay = await collect(runner.connect({ threadId }));
    expect(ofType(replay, EventType.TEXT_MESSAGE_CONTENT)).toHaveLength(1);
    expect(ofType(replay, EventType.RUN_STARTED)).toHaveLength(1);
  });

  it('given a stop asked after the run was claimed but before its agent began, the run should still stop and be kept as stopped', async () => {
    const threadId = `early-stop-${randomUUID()}`;
    const initializing = createGate();
    const go = createGate();
    const never = createGate();
    // An agent still getting ready (as CopilotKit's BuiltInAgent before its run): a stop then reaches no run.
    class SlowToStart extends StoppableAgent {
      protected override async onInitialize(...args: Parameters<ScriptedAgent['onInitialize']>) {
        initializing.open();
        await go.wait();
        return super.onInitialize(...args);
      }
    }
    const agent = new SlowToStart((input) => [
      runStarted(input),
      ...textMessage('m-early', 'Working'),
      () => never.wait(),
      runFinished(input),
    ]);
    const input = inputFor(threadId);
    const all = collect(runner.run({ threadId, agent, input }));
    await initializing.wait();
    expect(await runner.stop({ threadId, runId: input.runId })).toBe(true);
    go.open();
    const events = await all;
    expect(ofType(events, EventType.RUN_FINISHED)).toHaveLength(1);
    expect(await runner.isRunning({ threadId })).toBe(false);
    never.open();
    const replay = await collect(runner.connect({ threadId }));
    expect(ofType(replay, EventType.RUN_STARTED)).toHaveLength(1);
    expect(ofType(replay, EventType.RUN_FINISHED)).toHaveLength(1);
  });

  it('given a run in progress, a connect should replay the history and then join the live run, each event once', async () => {
    const threadId = `join-${randomUUID()}`;
    const gate = createGate();
    let runs = 0;
    const agent = new ScriptedAgent((input) =>
      runs++ === 0
        ? [runStarted(input), ...textMessage('m-first', 'First'), runFinished(input)]
        : [runStarted(input), ...textMessage('m-live', 'Live'), () => gate.wait(), ...textMessage('m-after', 'After'), runFinished(input)],
    );
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    const live = runner.run({ threadId, agent, input: inputFor(threadId) });
    const done = collect(live);
    await firstValueFrom(live.pipe(filter((event) => event.type === EventType.TEXT_MESSAGE_END)));

    const joined = collect(runner.connect({ threadId }));
    gate.open();
    await done;
    const events = await joined;
    expect(ofType(events, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['First', 'Live', 'After']);
    expect(ofType(events, EventType.RUN_STARTED)).toHaveLength(2);
    expect(ofType(events, EventType.RUN_FINISHED)).toHaveLength(2);
  });

  it('given a run in progress, a second run on the thread should be refused while the first goes on', async () => {
    const threadId = `busy-${randomUUID()}`;
    const gate = createGate();
    const agent = new ScriptedAgent((input) => [runStarted(input), () => gate.wait(), runFinished(input)]);
    const first = collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    const second = await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    expect(errorsOf(second)).toEqual([expect.stringMatching(/already running/)]);
    gate.open();
    expect(errorsOf(await first)).toEqual([]);
    expect(agent.runs).toHaveLength(1);
  });

  it('given interrupts raised and then answered, listInterrupts should show each row open, then resolved or cancelled with the response', async () => {
    const threadId = `rows-${randomUUID()}`;
    const other = `rows-other-${randomUUID()}`;
    const expiresAt = '2030-01-01T00:00:00.000Z';
    const script = raising({ id: 'i-approve', reason: 'tool_approval', expiresAt }, { id: 'i-ask', reason: 'user_question' });
    const agent = new ScriptedAgent(script);
    const before = Date.now();
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    await collect(runner.run({ threadId: other, agent: new ScriptedAgent(script), input: inputFor(other) }));

    const open = await runner.listInterrupts({ threadId });
    expect(open).toEqual([
      {
        threadId,
        interruptId: expect.any(String),
        agentId: 'default',
        reason: expect.any(String),
        raisedAt: expect.any(String),
        expiresAt: expect.anything(),
        status: 'open',
        response: null,
        answeredAt: null,
        cancelReason: null,
        message: null,
        interrupt: expect.objectContaining({ id: expect.any(String) }),
        position: 0,
        ownerId: null,
        answeredBy: null,
        approvers: null,
        cursor: expect.any(String),
      },
      expect.objectContaining({ threadId, status: 'open', response: null, answeredAt: null }),
    ]);
    expect(open.map((row) => [row.interruptId, row.reason, row.expiresAt]).sort()).toEqual([
      ['i-approve', 'tool_approval', expiresAt],
      ['i-ask', 'user_question', null],
    ]);
    // The interrupt as raised is read back from the run's stored RUN_FINISHED.
    expect(open.find((row) => row.interruptId === 'i-approve')!.interrupt).toEqual({ id: 'i-approve', reason: 'tool_approval', expiresAt });
    expect(Date.parse(open[0]!.raisedAt)).toBeGreaterThanOrEqual(before - 1);

    const events = await collect(
      runner.run({
        threadId,
        agent,
        input: inputFor(threadId, {
          resume: [
            { interruptId: 'i-approve', status: 'resolved', payload: { approved: true, note: 'ok' } },
            { interruptId: 'i-ask', status: 'cancelled' },
          ],
        }),
      }),
    );
    expect(errorsOf(events)).toEqual([]);
    const answered = await runner.listInterrupts({ threadId });
    const byId = Object.fromEntries(answered.map((row) => [row.interruptId, row]));
    expect(byId['i-approve']).toMatchObject({ status: 'resolved', response: { approved: true, note: 'ok' } });
    expect(byId['i-ask']).toMatchObject({ status: 'cancelled', response: null });
    expect(Date.parse(byId['i-approve']!.answeredAt!)).toBeGreaterThanOrEqual(Date.parse(byId['i-approve']!.raisedAt));

    expect((await runner.listInterrupts({ threadId, status: 'open' })).length).toBe(0);
    expect((await runner.listInterrupts({ threadId, status: 'resolved' })).map((row) => row.interruptId)).toEqual(['i-approve']);
    const openEverywhere = await runner.listInterrupts({ status: 'open' });
    expect(openEverywhere.filter((row) => row.threadId === other)).toHaveLength(2);
    expect(openEverywhere.some((row) => row.threadId === threadId)).toBe(false);
    await expect(runner.listInterrupts({ status: 'closed' as never })).rejects.toThrow(/status must be one of open, resolved, cancelled/);
  });

  it.each([
    ['an id never raised', 'never-raised', /not open on thread .*no such interrupt was raised there/],
    ['an id answered already', 'answered', /already answered \(resolved\)/],
    ["another thread's id", 'elsewhere', /not open on thread .*no such interrupt was raised there/],
  ])('given a resume naming %s, the run should end with RUN_ERROR naming the id, and the agent should never run', async (_, which, why) => {
    const threadId = `refuse-${randomUUID()}`;
    const elsewhere = `refuse-other-${randomUUID()}`;
    const agent = new ScriptedAgent(raising({ id: 'i-1', reason: 'tool_approval' }, { id: 'i-2', reason: 'tool_approval' }));
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    const otherAgent = new ScriptedAgent(raising({ id: 'i-other', reason: 'tool_approval' }));
    await collect(runner.run({ threadId: elsewhere, agent: otherAgent, input: inputFor(elsewhere) }));
    if (which === 'answered') {
      await collect(
        runner.run({ threadId, agent, input: inputFor(threadId, { resume: [{ interruptId: 'i-1', status: 'resolved', payload: 1 }] }) }),
      );
    }
    const target = which === 'never-raised' ? 'i-unknown' : which === 'answered' ? 'i-1' : 'i-other';
    const runsBefore = agent.runs.length;
    const rowsBefore = await runner.listInterrupts({ threadId });

    const events = await collect(
      runner.run({
        threadId,
        agent,
        input: inputFor(threadId, {
          resume: [
            { interruptId: 'i-2', status: 'resolved', payload: 2 },
            { interruptId: target, status: 'resolved', payload: 3 },
          ],
        }),
      }),
    );
    expect(events.map((event) => event.type)).toEqual([EventType.RUN_ERROR]);
    expect(errorsOf(events)[0]).toContain(JSON.stringify(target));
    expect(errorsOf(events)[0]).toMatch(why);
    expect(events[0]).toMatchObject({ code: which === 'answered' ? 'interrupt_already_answered' : 'interrupt_not_open' });
    expect(agent.runs).toHaveLength(runsBefore);
    // Nothing of the refused resume was kept: i-2 is still open.
    expect(await runner.listInterrupts({ threadId })).toEqual(rowsBefore);
    expect((await runner.listInterrupts({ threadId: elsewhere }))[0]).toMatchObject({ interruptId: 'i-other', status: 'open' });
  });

  it.each([
    ['one instance', false],
    ['two instances', true],
  ])(
    'given two resumes of the same interrupt at once through %s, exactly one should run and the other be refused',
    async (_, twoInstances) => {
      const threadId = `race-${randomUUID()}`;
      const agent = new ScriptedAgent(raising({ id: 'i-race', reason: 'tool_approval' }));
      await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
      const second = twoInstances ? open() : runner;
      const answer = (instance: InterruptRunner, approved: boolean) =>
        collect(
          instance.run({
            threadId,
            agent,
            input: inputFor(threadId, { resume: [{ interruptId: 'i-race', status: 'resolved', payload: { approved } }] }),
          }),
        );

      // Four devices answer at once, alternating between the instances.
      const outcomes = await Promise.all([answer(runner, true), answer(second, false), answer(runner, false), answer(second, true)]);
      const accepted = outcomes.filter((events) => errorsOf(events).length === 0);
      const refused = outcomes.filter((events) => errorsOf(events).length > 0);
      expect(accepted).toHaveLength(1);
      expect(refused).toHaveLength(3);
      for (const events of refused) {
        expect(events.map((event) => event.type)).toEqual([EventType.RUN_ERROR]);
        expect(errorsOf(events)[0]).toMatch(
          /interrupt "i-race" on thread .* was already answered \(resolved\); only the first answer counts/,
        ); // The refusal says which answer counts, so the card can show it.
        expect(events[0]).toMatchObject({ code: 'interrupt_already_answered', answers: [{ interruptId: 'i-race', status: 'resolved' }] });
      }
      const winner = (await runner.listInterrupts({ threadId }))[0]!.response;
      for (const events of refused)
        expect((events[0] as unknown as { answers: Array<{ payload: unknown }> }).answers[0]!.payload).toEqual(winner);
      const resumeRuns = agent.runs.filter((input) => (input as { resume?: unknown }).resume);
      expect(resumeRuns).toHaveLength(1);
      const [row] = await runner.listInterrupts({ threadId });
      expect(row).toMatchObject({
        status: 'resolved',
        response: (resumeRuns[0] as { resume: Array<{ payload: unknown }> }).resume[0]!.payload,
      });
    },
  );

  it('given a run on one instance, a second instance should join it live, and a resume may land on either', async () => {
    const threadId = `instances-${randomUUID()}`;
    const a = runner;
    const b = open();
    const gate = createGate();
    const agent = new ScriptedAgent((input) =>
      (input as { resume?: unknown }).resume
        ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)]
        : [
            runStarted(input),
            ...textMessage('m-asking', 'Asking'),
            () => gate.wait(),
            runFinished(input, interruptOutcome({ id: 'i-x', reason: 'tool_approval' })),
          ],
    );
    const live = a.run({ threadId, agent, input: inputFor(threadId) });
    const done = collect(live);
    await firstValueFrom(live.pipe(filter((event) => event.type === EventType.TEXT_MESSAGE_END)));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the events reach the database

    expect(await b.isRunning({ threadId })).toBe(true);
    const joined = collect(b.connect({ threadId }));
    gate.open();
    await done;
    const seen = await joined;
    expect(ofType(seen, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Asking']);
    expect(ofType(seen, EventType.RUN_FINISHED)[0]).toMatchObject({ outcome: { type: 'interrupt', interrupts: [{ id: 'i-x' }] } });
    expect(await b.isRunning({ threadId })).toBe(false);

    const resumed = await collect(
      b.run({ threadId, agent, input: inputFor(threadId, { resume: [{ interruptId: 'i-x', status: 'resolved', payload: 'yes' }] }) }),
    );
    expect(errorsOf(resumed)).toEqual([]);
    expect((await a.listInterrupts({ threadId }))[0]).toMatchObject({ status: 'resolved', response: 'yes' });
    const fromA = await collect(a.connect({ threadId }));
    expect(ofType(fromA, EventType.RUN_STARTED).map((event) => (event as { input: { resume?: unknown } }).input.resume)).toEqual([
      undefined,
      [{ interruptId: 'i-x', status: 'resolved', payload: 'yes' }],
    ]);
  });

  it('given a thread an instance has replayed, turns through another instance should show in its next replay as a fresh instance replays them', async () => {
    const threadId = `remembered-${randomUUID()}`;
    const a = runner;
    const b = open();
    const agent = new ScriptedAgent(raising({ id: 'i-remembered', reason: 'tool_approval' }), { threadId });
    await collect(a.run({ threadId, agent, input: inputFor(threadId, { messages: [userMessage('u-r1', 'First')] }) }));
    const before = await collect(a.connect({ threadId }));
    expect(await collect(a.connect({ threadId }))).toEqual(before);

    // Answered through the other instance, then a new message there too.
    const resume = [{ interruptId: 'i-remembered', status: 'resolved' as const, payload: 'yes' }];
    expect(errorsOf(await collect(b.run({ threadId, agent, input: inputFor(threadId, { resume }) })))).toEqual([]);
    await collect(b.run({ threadId, agent, input: inputFor(threadId, { messages: [userMessage('u-r2', 'Second')] }) }));

    const after = await collect(a.connect({ threadId }));
    expect(ofType(after, EventType.RUN_FINISHED)).toHaveLength(3);
    expect(after).toEqual(await collect(open().connect({ threadId })));
    // The second message raised it again: answered through the instance that remembered the thread,
    // a second answer through the other is refused, and both replay the same.
    expect(errorsOf(await collect(a.run({ threadId, agent, input: inputFor(threadId, { resume }) })))).toEqual([]);
    const late = await collect(b.run({ threadId, agent, input: inputFor(threadId, { resume }) }));
    expect(ofType(late, EventType.RUN_ERROR)[0]).toMatchObject({ code: 'interrupt_already_answered' });
    const last = await collect(a.connect({ threadId }));
    expect(ofType(last, EventType.RUN_FINISHED)).toHaveLength(4);
    expect(last).toEqual(await collect(b.connect({ threadId })));
  });

  it('given a run on one instance, stop through another should end it', async () => {
    const threadId = `remote-stop-${randomUUID()}`;
    const b = open();
    const gate = createGate();
    const agent = new StoppableAgent((input) => [
      runStarted(input),
      ...textMessage('m-remote', 'Working'),
      () => gate.wait(),
      runFinished(input),
    ]);
    const input = inputFor(threadId);
    const live = runner.run({ threadId, agent, input });
    const done = collect(live);
    await firstValueFrom(live.pipe(filter((event) => event.type === EventType.TEXT_MESSAGE_END)));

    expect(await b.stop({ threadId, runId: 'not-this-run' })).toBe(false);
    expect(await b.stop({ threadId, runId: input.runId })).toBe(true);
    await done;
    gate.open();
    expect(await runner.isRunning({ threadId })).toBe(false);
    expect(await b.isRunning({ threadId })).toBe(false);
  });

  it('given close() while a run is in progress, it should stop and save the run, then refuse new runs', async () => {
    const threadId = `close-${randomUUID()}`;
    const closing = open();
    const gate = createGate();
    const agent = new StoppableAgent((input) => [
      runStarted(input),
      ...textMessage('m-close', 'Half'),
      () => gate.wait(),
      runFinished(input),
    ]);
    const live = closing.run({ threadId, agent, input: inputFor(threadId) });
    const done = collect(live);
    await firstValueFrom(live.pipe(filter((event) => event.type === EventType.TEXT_MESSAGE_END)));

    await closing.close();
    await done;
    gate.open();
    expect(ofType(await collect(runner.connect({ threadId })), EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual([
      'Half',
    ]);
    expect(errorsOf(await collect(closing.run({ threadId, agent, input: inputFor(threadId) })))).toEqual([
      expect.stringMatching(/the runner is closed/),
    ]);
  });

  it('given hostile thread ids, interrupt ids and payloads, every one should be stored and read back unchanged', async () => {
    const hostile = fc.oneof(
      fc.constantFrom(
        "'",
        '"',
        ';',
        '--',
        "'); DROP TABLE cki_events; --",
        '\u0000',
        '\\',
        '\\u0000',
        '😀',
        '\u{10FFFF}',
        '\uD800',
        '\uDFFF',
        '%s',
        '$1',
        '\n\r\t',
      ),
      fc.string({ unit: 'binary', maxLength: 8 }),
    );
    const text = fc.array(hostile, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(text, text, text, fc.jsonValue({ maxDepth: 2 }), text, async (threadPart, interruptId, reason, payload, note) => {
        const threadId = `${kind}-${n++}-${threadPart}`;
        const agent = new ScriptedAgent(raising({ id: interruptId, reason }));
        await collect(runner.run({ threadId, agent, input: inputFor(threadId, { messages: [userMessage(`u-${note}`, note)] }) }));
        const response = { payload, note };
        const resumed = await collect(
          runner.run({ threadId, agent, input: inputFor(threadId, { resume: [{ interruptId, status: 'resolved', payload: response }] }) }),
        );
        expect(errorsOf(resumed)).toEqual([]);

        const [row] = await runner.listInterrupts({ threadId });
        expect(row).toMatchObject({ threadId, interruptId, reason, status: 'resolved' });
        expect(row!.response).toEqual(JSON.parse(JSON.stringify(response)));
        const replay = await collect(runner.connect({ threadId }));
        const started = ofType(replay, EventType.RUN_STARTED) as Array<{
          input: { messages: Message[]; resume?: Array<{ payload: unknown }> };
        }>;
        expect(started[0]!.input.messages[0]!.content).toBe(note);
        expect(started[1]!.input.resume![0]!.payload).toEqual(JSON.parse(JSON.stringify(response)));
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('given a 1 MB payload with NUL and non-BMP characters, it should round-trip unchanged', async () => {
    const threadId = `large-${randomUUID()}`;
    const big = ('\u0000😀\\\'";--' + 'x'.repeat(1000)).repeat(1024);
    const agent = new ScriptedAgent(raising({ id: 'i-big', reason: 'tool_approval' }));
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    await collect(
      runner.run({ threadId, agent, input: inputFor(threadId, { resume: [{ interruptId: 'i-big', status: 'resolved', payload: big }] }) }),
    );
    expect((await runner.listInterrupts({ threadId }))[0]!.response).toBe(big);
    const replay = await collect(open().connect({ threadId }));
    expect((ofType(replay, EventType.RUN_STARTED)[1] as { input: { resume: Array<{ payload: string }> } }).input.resume[0]!.payload).toBe(
      big,
    );
  });

  it('given a thread id too long to index, run and connect should refuse it up front with the limit, storing nothing', async () => {
    const agent = new ScriptedAgent(raising({ id: 'i', reason: 'r' }));
    const atLimit = 'a'.repeat(1022); // 1024 bytes once JSON-quoted
    expect(errorsOf(await collect(runner.run({ threadId: atLimit, agent, input: inputFor(atLimit) })))).toEqual([]);
    expect(await runner.listInterrupts({ threadId: atLimit })).toHaveLength(1);

    for (const tooLong of ['a'.repeat(1023), '😀'.repeat(300), '\u0000'.repeat(200)]) {
      const runs = agent.runs.length;
      const refused = await collect(runner.run({ threadId: tooLong, agent, input: inputFor(tooLong) }));
      expect(refused.map((event) => event.type)).toEqual([EventType.RUN_ERROR]);
      expect(errorsOf(refused)[0]).toMatch(/the limit is 1024 bytes/);
      expect(agent.runs).toHaveLength(runs);
      expect(errorsOf(await collect(runner.connect({ threadId: tooLong })))[0]).toMatch(/the limit is 1024 bytes/);
      await expect(runner.listInterrupts({ threadId: tooLong })).rejects.toThrow(/the limit is 1024 bytes/);
    }
  });

  it('given a stored event that no longer parses, that thread connect should say so and other threads should replay as before', async () => {
    const own = await store.fresh();
    const first = createInterruptRunner(own);
    const agent = new ScriptedAgent((input) => [
      runStarted(input),
      ...textMessage(`m-${input.threadId}`, `Hello ${input.threadId}`),
      runFinished(input),
    ]);
    await collect(first.run({ threadId: 'broken', agent, input: inputFor('broken') }));
    await collect(first.run({ threadId: 'fine', agent, input: inputFor('fine') }));
    const fineBefore = await collect(first.connect({ threadId: 'fine' }));
    await first.close();

    await store.sql(
      own,
      `UPDATE cki_events SET payload = '{"type": "TEXT_MESSAGE_CONTENT", "delta": ' WHERE seq = 1 AND run_pk IN (SELECT run_pk FROM cki_runs WHERE thread_key = $1)`,
      [JSON.stringify('broken')],
    );
    const second = createInterruptRunner(own);
    try {
      const broken = await collect(second.connect({ threadId: 'broken' }));
      expect(broken.map((event) => event.type)).toEqual([EventType.RUN_ERROR]);
      expect(errorsOf(broken)[0]).toMatch(/thread "broken" cannot be replayed: its stored event #1 .* no longer parses/);
      expect(await collect(second.connect({ threadId: 'fine' }))).toEqual(fineBefore);
    } finally {
      await second.close();
    }
  }, 90_000);

  it('given a store written by a newer schema, the runner should refuse it with a message and leave it unchanged', async () => {
    const own = await store.fresh();
    const first = createInterruptRunner(own);
    await first.ready();
    await first.close();
    await store.sql(own, `UPDATE cki_meta SET value = '99' WHERE key = 'schema_version'`);

    const newer = createInterruptRunner(own);
    await expect(newer.ready()).rejects.toThrow(
      new RegExp(`schema version 99, written by a newer copilotkit-interrupts; this version reads version ${SCHEMA_VERSION}\\b`),
    );
    await expect(newer.ready()).rejects.toMatchObject({ code: 'schema_newer' });
    const events = await collect(newer.run({ threadId: 't', agent: new ScriptedAgent(() => []), input: inputFor('t') }));
    expect(errorsOf(events)[0]).toMatch(/schema version 99/);
    await newer.close();
    expect(await store.sql(own, `SELECT value FROM cki_meta WHERE key = 'schema_version'`)).toEqual([{ value: '99' }]);
  }, 90_000);

  it('given a schema-1 database written by the released runner, the runner should upgrade it in place and replay and list every thread as before', async () => {
    const own = await store.fresh();
    // The fixture is pg_dump's SQL; its psql-only `\restrict` lines are not SQL.
    const dump = readFileSync(new URL('../../fixtures/runner-v1/v1.sql', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    await store.script(own, dump);
    expect(await store.sql(own, `SELECT value FROM cki_meta WHERE key = 'schema_version'`)).toEqual([{ value: '1' }]);
    const expected = JSON.parse(readFileSync(new URL('../../fixtures/runner-v1/v1-expected.json', import.meta.url), 'utf8')) as {
      threads: Record<string, BaseEvent[]>;
      interrupts: Array<Omit<InterruptRecord, 'agentId' | 'position' | 'cursor'>>;
    };

    const upgraded = createInterruptRunner(own);
    try {
      await upgraded.ready();
      expect(Object.keys(expected.threads)).toHaveLength(8);
      for (const [threadId, events] of Object.entries(expected.threads)) {
        expect(await collect(upgraded.connect({ threadId }))).toEqual(events);
      }
      const listed = await upgraded.listInterrupts();
      expect(
        listed.map(
          ({ agentId: _a, position: _p, cursor: _c, cancelReason: _r, ownerId: _o, answeredBy: _b, approvers: _v, ...old }) => old,
        ),
      ).toEqual(expected.interrupts);
      // No row of an older store was closed by the server's expiry.
      expect(listed.map((row) => row.cancelReason)).toEqual(expected.interrupts.map(() => null));
      // Rows written before anyone was identified belong to no one and were answered by no one known.
      expect(listed.map((row) => [row.ownerId, row.answeredBy, row.approvers])).toEqual(listed.map(() => [null, null, null]));
      // What the rows did not hold before is filled in: the agent, and each interrupt's place in its set.
      expect(listed.map((row) => [row.interruptId, row.agentId, row.position])).toEqual(
        expected.interrupts.map((row) => [
          row.interruptId,
          row.threadId === 'v1-open' ? 'langgraph' : 'mastra',
          { 'z-approve': 0, 'a-ask': 1, 'm-third': 2, 'lg-2': 1 }[row.interruptId] ?? 0,
        ]),
      );
      expect((await upgraded.listInterrupts({ agentId: 'langgraph' })).map((row) => row.interruptId)).toEqual(['lg-1', 'lg-2']);

      // The upgraded threads go on: an open interrupt is answered once, a changed one is refused with the request as it is now.
      const graph = new ScriptedAgent(raising({ id: 'lg-next', reason: 'tool_approval' }), { agentId: 'langgraph' });
      const answer = (interruptId: string, threadId: string) =>
        collect(
          upgraded.run({
            threadId,
            agent: graph,
            input: inputFor(threadId, { resume: [{ interruptId, status: 'resolved', payload: 1 }] }),
          }),
        );
      expect(errorsOf(await answer('lg-1', 'v1-open'))).toEqual([]);
      expect(ofType(await answer('lg-1', 'v1-open'), EventType.RUN_ERROR)[0]).toMatchObject({ code: 'interrupt_already_answered' });
      expect(ofType(await answer('c-1', 'v1-changed'), EventType.RUN_ERROR)[0]).toMatchObject({
        code: 'interrupt_changed',
        interrupts: [{ id: 'c-2', reason: 'tool_approval', message: 'Transfer 200 EUR?' }],
      });
      // The run a crashed instance left running is never replayed, and does not hold the thread.
      expect(errorsOf(await collect(upgraded.run({ threadId: 'v1-crashed', agent: graph, input: inputFor('v1-crashed') })))).toEqual([]);
    } finally {
      await upgraded.close();
    }
    expect(await store.sql(own, `SELECT value FROM cki_meta WHERE key = 'schema_version'`)).toEqual([{ value: String(SCHEMA_VERSION) }]);
  }, 90_000);

  it('given interrupts of two agents in sets, listing should page in raise order with a cursor and filter by thread, status and agent', async () => {
    const prefix = `page-${randomUUID()}`;
    const threads = [0, 1, 2, 3].map((n) => `${prefix}-${n}`);
    const ids = ['z', 'a', 'm'];
    for (const [n, threadId] of threads.entries()) {
      const agent = new ScriptedAgent(raising(...ids.map((id) => ({ id: `${id}-${n}`, reason: 'tool_approval' }))), {
        agentId: n % 2 === 0 ? 'mastra' : 'langgraph',
      });
      await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
      if (n === 1) {
        await collect(
          runner.run({ threadId, agent, input: inputFor(threadId, { resume: [{ interruptId: 'a-1', status: 'cancelled' }] }) }),
        );
      }
    }
    const all = (await runner.listInterrupts()).filter((row) => row.threadId.startsWith(prefix));
    // Each set in the order it was raised, never re-sorted by id.
    expect(all.filter((row) => row.threadId === threads[2]).map((row) => row.interruptId)).toEqual(['z-2', 'a-2', 'm-2']);
    expect(all.filter((row) => row.threadId === threads[2]).map((row) => row.position)).toEqual([0, 1, 2]);

    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(undefined, 'mastra', 'langgraph'),
        fc.constantFrom(undefined, 'open' as const, 'cancelled' as const),
        fc.constantFrom(undefined, ...threads),
        async (limit, agentId, status, threadId) => {
          const query = { ...(agentId ? { agentId } : {}), ...(status ? { status } : {}), ...(threadId ? { threadId } : {}) };
          const pages: InterruptRecord[] = [];
          let cursor: string | undefined;
          for (;;) {
            const page = await runner.listInterrupts({ ...query, limit, ...(cursor ? { cursor } : {}) });
            expect(page.length).toBeLessThanOrEqual(limit);
            pages.push(...page);
            if (page.length < limit) break;
            cursor = page[page.length - 1]!.cursor;
          }
          const whole = await runner.listInterrupts(query);
          expect(pages).toEqual(whole);
          const mine = whole.filter((row) => row.threadId.startsWith(prefix));
          expect(mine).toEqual(
            all.filter(
              (row) =>
                (!agentId || row.agentId === agentId) && (!status || row.status === status) && (!threadId || row.threadId === threadId),
            ),
          );
        },
      ),
      { numRuns: 15 },
    );
    for (const bad of [
      { limit: 0 },
      { limit: 1.5 },
      { limit: 1001 },
      { cursor: 'not-a-cursor' },
      { cursor: btoa('[1,2]') },
      { agentId: '' },
    ]) {
      const refusal = await runner.listInterrupts(bad).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(RunnerError);
      expect(refusal).toMatchObject({ code: 'bad_query' });
    }
    await expect(runner.listInterrupts({ threadId: '' })).rejects.toMatchObject({ code: 'bad_thread_id' });
  });

  it("given threads of two agents, listThreads should page them newest first, and a thread's events and state read as a connect replays them", async () => {
    const prefix = `threads-${randomUUID()}`;
    const own = createInterruptRunner(await store.fresh());
    opened.push(own);
    const agentFor = (n: number) =>
      new ScriptedAgent(
        (input) => [
          runStarted(input),
          ...textMessage(`t-${input.runId}`, `Thread ${n}`),
          { type: EventType.STATE_SNAPSHOT, snapshot: { step: n } } as BaseEvent,
          runFinished(input),
        ],
        { agentId: n % 2 === 0 ? 'mastra' : 'langgraph' },
      );
    for (const n of [0, 1, 2, 3, 4])
      await collect(own.run({ threadId: `${prefix}-${n}`, agent: agentFor(n), input: inputFor(`${prefix}-${n}`) }));
    const listed = await own.listThreads();
    expect(listed.map((thread) => thread.id)).toEqual([4, 3, 2, 1, 0].map((n) => `${prefix}-${n}`));
    expect(listed[0]).toMatchObject({ agentId: 'mastra', name: null, archived: false, organizationId: '', createdById: '' });
    const paged = [...(await own.listThreads({ limit: 2 }))];
    paged.push(...(await own.listThreads({ limit: 2, cursor: paged[1]!.cursor })));
    paged.push(...(await own.listThreads({ limit: 2, cursor: paged[3]!.cursor })));
    expect(paged).toEqual(listed);
    expect((await own.listThreads({ agentId: 'langgraph' })).map((thread) => thread.id)).toEqual([`${prefix}-3`, `${prefix}-1`]);

    const threadId = `${prefix}-2`;
    expect(await own.getThreadEvents(threadId)).toEqual(await collect(own.connect({ threadId })));
    expect(await own.getThreadState(threadId)).toEqual({ step: 2 });
    expect(await own.getThreadEvents(`${prefix}-never`)).toEqual([]);
    expect(await own.getThreadState(`${prefix}-never`)).toBeNull();
  });

  it.each([
    ['one instance', false],
    ['two instances', true],
  ])(
    "given onConcurrentRun 'supersede' and a run in progress through %s, a new run should stop it, keep it as stopped, and run",
    async (_, two) => {
      const threadId = `supersede-${randomUUID()}`;
      const first = createInterruptRunner({ ...options, onConcurrentRun: 'supersede' });
      const second = two ? createInterruptRunner({ ...options, onConcurrentRun: 'supersede' }) : first;
      opened.push(first, second);
      const gate = createGate();
      const agent = new StoppableAgent((input, runIndex) =>
        runIndex === 0
          ? [runStarted(input), ...textMessage('m-old', 'Old'), () => gate.wait(), runFinished(input)]
          : [runStarted(input), ...textMessage(`m-${input.runId}`, 'New'), runFinished(input)],
      );
      const live = first.run({ threadId, agent, input: inputFor(threadId) });
      const old = collect(live);
      await firstValueFrom(live.pipe(filter((event) => event.type === EventType.TEXT_MESSAGE_END)));
      if (two) await new Promise((resolve) => setTimeout(resolve, 100)); // the events reach the database

      const next = await collect(second.run({ threadId, agent, input: inputFor(threadId) }));
      gate.open();
      expect(errorsOf(next)).toEqual([]);
      expect(errorsOf(await old)).toEqual([]);
      expect(ofType(await old, EventType.RUN_FINISHED)).toHaveLength(1);
      const replay = await collect(first.connect({ threadId }));
      expect(ofType(replay, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Old', 'New']);

      // The default refuses, with a code.
      const gate2 = createGate();
      const busy = new ScriptedAgent((input) => [runStarted(input), () => gate2.wait(), runFinished(input)]);
      const held = collect(runner.run({ threadId: `${threadId}-throw`, agent: busy, input: inputFor(`${threadId}-throw`) }));
      const refused = await collect(runner.run({ threadId: `${threadId}-throw`, agent: busy, input: inputFor(`${threadId}-throw`) }));
      expect(refused[0]).toMatchObject({ type: EventType.RUN_ERROR, code: 'thread_running' });
      gate2.open();
      await held;
    },
  );

  it('given a real CopilotRuntime served over HTTP, a second client connecting to the thread should get the answered interrupt back', async () => {
    const threadId = `http-${randomUUID()}`;
    const agent = new ScriptedAgent(raising({ id: 'i-http', reason: 'tool_approval' }));
    const served = await serveRuntime(new CopilotRuntime({ agents: { default: agent }, runner }));
    try {
      const client = new HttpAgent({ url: `${served.url}/agent/default/run`, threadId, agentId: 'default' });
      client.addMessage(userMessage('u-http', 'Ship it?'));
      await client.runAgent();
      await client.runAgent({ resume: [{ interruptId: 'i-http', status: 'resolved', payload: { approved: true } }] } as never);
      expect((await runner.listInterrupts({ threadId }))[0]).toMatchObject({ status: 'resolved', response: { approved: true } });

      const phone = new HttpAgent({ url: `${served.url}/agent/default/connect`, threadId, agentId: 'default' });
      const replayed: BaseEvent[] = [];
      await phone.runAgent({}, { onEvent: ({ event }) => void replayed.push(event) });
      expect(phone.messages.map((message) => message.id)).toEqual(expect.arrayContaining(['u-http']));
      const finished = ofType(replayed, EventType.RUN_FINISHED) as Array<{ outcome?: { type: string } }>;
      expect(finished[0]!.outcome).toMatchObject({ type: 'interrupt' });
      const started = ofType(replayed, EventType.RUN_STARTED) as Array<{ input?: { resume?: unknown } }>;
      expect(started[1]!.input!.resume).toEqual([{ interruptId: 'i-http', status: 'resolved', payload: { approved: true } }]);
    } finally {
      await served.close();
    }
  });
});

describe('the durable runner given a database it cannot reach', () => {
  it('should name the URL with the password hidden and say what to do, at start and on each run', async () => {
    const url = 'postgres://alice:hunter2-secret@127.0.0.1:1/threads';
    const runner = createInterruptRunner({ url });
    const failure = runner.ready().then(
      () => 'connected',
      (error: Error) => error.message,
    );
    const message = await failure;
    expect(message).toContain('cannot reach PostgreSQL at postgres://alice:***@127.0.0.1:1/threads');
    expect(message).toMatch(/Check that the server is running/);
    expect(message).not.toContain('hunter2');
    const events = await collect(runner.run({ threadId: 't', agent: new ScriptedAgent(() => []), input: inputFor('t') }));
    expect(errorsOf(events)).toEqual([message]);
    await runner.close();
  });

  it('should refuse a URL that is not PostgreSQL, hiding its password', async () => {
    const runner = createInterruptRunner({ url: 'mysql://bob:pw123@db/x' });
    await expect(runner.ready()).rejects.toThrow(/url must start with postgres:\/\/ .*mysql:\/\/bob:\*\*\*@db\/x/);
    await runner.close();
  });
});

describe('the durable runner on PostgreSQL when the database goes away in the middle of a run', () => {
  let own: PostgresCluster | undefined;
  beforeAll(async () => {
    own = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await own?.stop();
  });

  it('given the server stops during a run for longer than the runner waits for it, that run should end with RUN_ERROR, and once it is back only the saved runs should replay', async () => {
    const runner = createInterruptRunner({ url: own!.url });
    const threadId = 'mid-run';
    const gate = createGate();
    let runs = 0;
    const agent = new ScriptedAgent((input) =>
      runs++ === 0
        ? [runStarted(input), ...textMessage('m-kept', 'Kept'), runFinished(input)]
        : [runStarted(input), ...textMessage('m-lost', 'Lost'), () => gate.wait(), ...textMessage('m-after', 'After'), runFinished(input)],
    );
    try {
      await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
      const live = runner.run({ threadId, agent, input: inputFor(threadId) });
      const done = collect(live);
      await firstValueFrom(live.pipe(filter((event) => event.type === EventType.TEXT_MESSAGE_END)));
      await new Promise((resolve) => setTimeout(resolve, 100)); // the first events reach the database

      await own!.halt();
      gate.open();
      const events = await done;
      expect(errorsOf(events)).toEqual([
        expect.stringMatching(
          // Noticed by a batch of its events, or (a run that ends within the write delay) by its end's transaction.
          /lost the thread store at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres (during the run|while saving the run); it was not saved/,
        ),
      ]);
      expect(errorsOf(events)[0]).not.toContain('s3cret-pw');
      expect(ofType(events, EventType.RUN_FINISHED)).toEqual([]);

      await own!.resume();
      const replay = await collect(runner.connect({ threadId }));
      expect(ofType(replay, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Kept']);
      const again = await collect(
        runner.run({ threadId, agent: new ScriptedAgent((input) => [runStarted(input), runFinished(input)]), input: inputFor(threadId) }),
      );
      expect(errorsOf(again)).toEqual([]);
    } finally {
      await runner.close();
    }
  }, 90_000);
});
