import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createInterruptRunner,
  type InterruptEvent,
  type InterruptRunner,
  type InterruptRunnerOptions,
  type ThreadChange,
} from '../../../src/runner';
import { openEmbedded, openPostgres } from '../../../src/runner/database';
import { ensureSchema, MIGRATIONS, SCHEMA_VERSION } from '../../../src/runner/schema';
import { startCommitCuttingProxy, type CommitCuttingProxy } from '../../helpers/commit-cutting-proxy';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres';
import { createGate, interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../../helpers/scripted-agent';
import { emptyEmbeddedStore } from '../../helpers/embedded-store';

const collect = (events: Observable<BaseEvent>) => lastValueFrom(events.pipe(toArray()));

/** A scripted agent whose `abortRun` ends the run, as a real agent's does. */
class StoppableAgent extends ScriptedAgent {
  override abortRun() {
    void this.detachActiveRun();
  }
}
const types = (events: BaseEvent[]) => events.map((event) => event.type);
const ofType = (events: BaseEvent[], type: EventType) => events.filter((event) => event.type === type) as Array<Record<string, unknown>>;
const errorsOf = (events: BaseEvent[]) => ofType(events, EventType.RUN_ERROR).map((event) => event.message as string);

function inputFor(threadId: string, extra: Partial<RunAgentInput> & { resume?: unknown } = {}): RunAgentInput {
  return { threadId, runId: randomUUID(), messages: [], state: {}, tools: [], context: [], forwardedProps: {}, ...extra } as RunAgentInput;
}

/** Raises one interrupt (expiring at `expiresAt`) on a thread's first run; a resume says "Done.". */
const expiring = (id: string, expiresAt: () => string | undefined) =>
  new ScriptedAgent((input) =>
    (input as { resume?: unknown }).resume
      ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)]
      : [runStarted(input), runFinished(input, interruptOutcome({ id, reason: 'tool_approval', expiresAt: expiresAt() }))],
  );

/** Like {@link expiring}, but only its first run asks: a later message gets "Hi.". */
const asksOnce = (id: string, expiresAt: string) =>
  new ScriptedAgent((input, runIndex) =>
    (input as { resume?: unknown }).resume
      ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)]
      : runIndex > 0
        ? [runStarted(input), ...textMessage(`hi-${input.runId}`, 'Hi.'), runFinished(input)]
        : [runStarted(input), runFinished(input, interruptOutcome({ id, reason: 'tool_approval', expiresAt }))],
  );

const soon = (ms: number) => () => new Date(Date.now() + ms).toISOString();
const resumesOf = (agent: ScriptedAgent) =>
  agent.runs.flatMap((run) => ((run as { resume?: unknown }).resume === undefined ? [] : [(run as { resume?: unknown }).resume]));
const until = (check: () => boolean | Promise<boolean>, timeout = 20_000) => expect.poll(check, { timeout, interval: 25 }).toBe(true);
/** Several sweeps of a sweeper checking every 50 ms: long enough for a second settle to show. */
const severalSweeps = () => new Promise((resolve) => setTimeout(resolve, 600));

let cluster: PostgresCluster;
let databases = 0;
const tempDirs: string[] = [];

beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const stores = {
  embedded: async (): Promise<InterruptRunnerOptions> => {
    const dir = mkdtempSync(join(tmpdir(), 'cki-live-'));
    tempDirs.push(dir);
    return { dataDir: await emptyEmbeddedStore(join(dir, 'store')) };
  },
  PostgreSQL: async (): Promise<InterruptRunnerOptions> => ({ url: await cluster.createDatabase(`live_${++databases}`) }),
};

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('live threads on the %s store', (kind) => {
  const opened: InterruptRunner[] = [];
  const open = (options: InterruptRunnerOptions) => {
    const runner = createInterruptRunner(options);
    opened.push(runner);
    return runner;
  };

  // One store for the tests of a kind (threads apart by id); the upgrade test takes a fresh one.
  let shared: InterruptRunnerOptions;
  // Holds the shared store open for the tests of this kind: the embedded store is opened once (its
  // first open is the slow part), not by each test's first runner.
  let keeper: InterruptRunner | undefined;
  beforeAll(async () => {
    shared = await stores[kind]();
    keeper = createInterruptRunner({ ...shared, expiry: false });
    await keeper.ready();
  }, 90_000);
  afterAll(async () => {
    await keeper?.close();
  });

  afterEach(async () => {
    for (const runner of opened.splice(0)) await runner.close();
  });

  it('given a run held by another instance and no polling to speak of, a connect should follow it to its end by notification', async () => {
    const options = shared;
    const holder = open({ ...options, expiry: false });
    // The safety net at a minute: only notifications can bring the run's events within the test.
    const joiner = open({ ...options, expiry: false, pollIntervalMs: 60_000 });
    await Promise.all([holder.ready(), joiner.ready()]);
    const threadId = `join-${randomUUID()}`;
    const gate = createGate();
    const agent = new ScriptedAgent((input) => [
      runStarted(input),
      ...textMessage('before', 'Working on it.'),
      () => gate.wait(),
      ...textMessage('after', 'Done now.'),
      runFinished(input),
    ]);
    const running = collect(holder.run({ threadId, agent, input: inputFor(threadId) }));
    await until(() => joiner.isRunning({ threadId }));
    const joined = collect(joiner.connect({ threadId }));
    gate.open();
    await running;
    const events = await joined;
    expect(types(events)).toContain(EventType.RUN_FINISHED);
    const texts = events
      .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
      .map((event) => (event as { delta?: string }).delta);
    expect(texts.join(' ')).toContain('Done now.');
  });

  it('given an interrupt expiring with nobody connected, the agent that raised it should hear cancelled once and the row say expired', async () => {
    const options = shared;
    // The agent the runner ran is the one it resumes (a copy, remembering the interrupt it raised).
    const runner = open({ ...options, expiry: { checkEveryMs: 50 } });
    await runner.ready();
    const threadId = `expire-${randomUUID()}`;
    const agent = expiring('i-expire', soon(400));
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'open', cancelReason: null })]);

    await until(() => resumesOf(agent).length > 0);
    expect(resumesOf(agent)).toEqual([[{ interruptId: 'i-expire', status: 'cancelled' }]]);
    await until(async () => (await runner.listInterrupts({ threadId }))[0]?.status === 'cancelled');
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'cancelled', cancelReason: 'expired' })]);
    // The agent's own answer to it is in the thread, for a device that comes back.
    const replay = await collect(runner.connect({ threadId }));
    expect(
      replay.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT).map((event) => (event as { delta?: string }).delta),
    ).toContain('Done.');
    await severalSweeps();
    expect(resumesOf(agent)).toHaveLength(1);
  });

  it('given the agent last ran another thread, the expiry should resume the thread that raised the interrupt, with its own transcript', async () => {
    const runner = open({ ...shared, expiry: { checkEveryMs: 50 } });
    await runner.ready();
    const [raising, other] = [`expire-a-${randomUUID()}`, `expire-b-${randomUUID()}`];
    const expiresAt = soon(500)();
    const agent = asksOnce('i-away', expiresAt);
    agent.threadId = raising;
    await collect(runner.run({ threadId: raising, agent, input: inputFor(raising) }));
    agent.threadId = other;
    agent.setMessages([{ id: `m-${randomUUID()}`, role: 'user', content: 'On the other thread' }]);
    await collect(runner.run({ threadId: other, agent, input: inputFor(other) }));

    await until(() => resumesOf(agent).length > 0);
    const resumed = agent.runs.find((run) => (run as { resume?: unknown }).resume !== undefined)!;
    expect(resumed.threadId).toBe(raising);
    expect(resumed.messages.map((message) => message.content)).not.toContain('On the other thread');
    await until(async () => (await runner.listInterrupts({ threadId: raising }))[0]?.cancelReason === 'expired');
  });

  it('given an interrupt the server settled as expired, a second server settle of it (a lease taken over mid-settle) should be refused: the agent runs no more and the row stays expired', async () => {
    const runner = open({ ...shared, expiry: { checkEveryMs: 50 } });
    await runner.ready();
    const threadId = `settled-twice-${randomUUID()}`;
    const agent = expiring('i-twice', soon(300));
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    await until(async () => (await runner.listInterrupts({ threadId }))[0]?.status === 'cancelled');
    await until(async () => !(await runner.isRunning({ threadId })));

    // The settle a second lease holder makes from what it read while the first was settling.
    const settler = runner as unknown as {
      settleExpired(
        deadline: { threadId: string; agentId: string; interruptIds: string[]; settleAt: number },
        options: object,
      ): Promise<string>;
    };
    const outcome = await settler.settleExpired(
      { threadId, agentId: 'default', interruptIds: ['i-twice'], settleAt: Date.now() },
      { agent: () => agent },
    );
    expect(outcome).toBe('answered');
    expect(agent.runs).toHaveLength(2); // the run that asked, and the one resume
    expect(resumesOf(agent)).toEqual([[{ interruptId: 'i-twice', status: 'cancelled' }]]);
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'cancelled', cancelReason: 'expired' })]);
  });

  it('given an interrupt the server settled as expired, a device that saw it expire and chats on should get its run, the agent hearing the message and not a second cancel', async () => {
    const runner = open({ ...shared, expiry: { checkEveryMs: 50 } });
    await runner.ready();
    const threadId = `expired-then-chat-${randomUUID()}`;
    const expiresAt = soon(300)();
    const agent = asksOnce('i-late', expiresAt);
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    await until(async () => (await runner.listInterrupts({ threadId }))[0]?.cancelReason === 'expired');
    await until(async () => !(await runner.isRunning({ threadId })));

    // The device's own expiry: the next chat message carries `cancelled` for the card.
    const message = { id: `m-${randomUUID()}`, role: 'user' as const, content: 'Hello again' };
    const events = await collect(
      runner.run({
        threadId,
        agent,
        input: inputFor(threadId, { messages: [message], resume: [{ interruptId: 'i-late', status: 'cancelled' }] }),
      }),
    );
    expect(errorsOf(events)).toEqual([]);
    expect(types(events)).toContain(EventType.RUN_FINISHED);
    const last = agent.runs.at(-1) as RunAgentInput & { resume?: unknown };
    expect(last.resume).toBeUndefined();
    expect(
      events.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT).map((event) => (event as { delta?: string }).delta),
    ).toEqual(['Hi.']);
    expect(resumesOf(agent)).toEqual([[{ interruptId: 'i-late', status: 'cancelled' }]]);
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'cancelled', cancelReason: 'expired' })]);

    // A resolve of it is still refused: the answer that stands is the expiry.
    const late = await collect(
      runner.run({
        threadId,
        agent,
        input: inputFor(threadId, { resume: [{ interruptId: 'i-late', status: 'resolved', payload: 'yes' }] }),
      }),
    );
    expect(ofType(late, EventType.RUN_ERROR)[0]).toMatchObject({ code: 'interrupt_already_answered' });
  });

  it('given an interrupt answered by a person before it expires, the server should not cancel it', async () => {
    const options = shared;
    const runner = open({ ...options, expiry: { checkEveryMs: 50 } });
    await runner.ready();
    const threadId = `answered-${randomUUID()}`;
    // 1.5 s to answer it in (on a loaded machine the raise and the answer took more than 300 ms).
    let deadline = 0;
    const agent = expiring('i-answered', () => new Date((deadline = Date.now() + 1_500)).toISOString());
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    await collect(
      runner.run({
        threadId,
        agent,
        input: inputFor(threadId, { resume: [{ interruptId: 'i-answered', status: 'resolved', payload: 'yes' }] }),
      }),
    );
    // Its deadline passes, and the sweeper looks several times after it.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));
    await severalSweeps();
    expect(resumesOf(agent)).toEqual([[{ interruptId: 'i-answered', status: 'resolved', payload: 'yes' }]]);
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'resolved', cancelReason: null })]);
  });

  it('given an answer that asks again with a later expiresAt, the server should cancel it once, at the later time only', async () => {
    const runner = open({ ...shared, expiry: { checkEveryMs: 50 } });
    await runner.ready();
    const threadId = `asked-again-${randomUUID()}`;
    const raise = (input: RunAgentInput, expiresAt: string) => [
      runStarted(input),
      runFinished(input, interruptOutcome({ id: 'i-again', reason: 'tool_approval', expiresAt })),
    ];
    // The first expires 1 s after it is raised (room for the answer on a loaded machine), the second 3 s after the answer.
    let firstExpiry = 0;
    const agent = new ScriptedAgent((input, runIndex) => {
      if (runIndex === 0) {
        firstExpiry = Date.now() + 1_000;
        return raise(input, new Date(firstExpiry).toISOString());
      }
      if (runIndex === 1) return raise(input, soon(3_000)());
      return [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)];
    });
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    const answer = [{ interruptId: 'i-again', status: 'resolved' as const, payload: 'yes' }];
    expect(errorsOf(await collect(runner.run({ threadId, agent, input: inputFor(threadId, { resume: answer }) })))).toEqual([]);

    // Past the first expiresAt (and a few sweeps): the request it belonged to was answered, and the one open now runs later.
    await until(() => Date.now() > firstExpiry);
    await severalSweeps();
    expect(resumesOf(agent)).toEqual([answer]);
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'open' })]);

    await until(() => resumesOf(agent).length === 2);
    expect(resumesOf(agent)[1]).toEqual([{ interruptId: 'i-again', status: 'cancelled' }]);
    await until(async () => (await runner.listInterrupts({ threadId }))[0]?.cancelReason === 'expired');
    await severalSweeps();
    expect(resumesOf(agent)).toHaveLength(2);
  });

  it('given expiry turned off, an expired interrupt should stay open for a person to find', async () => {
    const options = shared;
    const threadId = `off-${randomUUID()}`;
    const agent = expiring('i-off', soon(100));
    const runner = open({ ...options, expiry: false });
    await runner.ready();
    await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    await severalSweeps();
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'open' })]);
    expect(resumesOf(agent)).toHaveLength(0);
  });

  it('given a schema-2 database with threads, the runner should upgrade it in place to the live schema and replay every thread as before', async () => {
    const options = await stores[kind]();
    const dump = readFileSync(new URL('../../fixtures/runner-v1/v1.sql', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    const expected = JSON.parse(readFileSync(new URL('../../fixtures/runner-v1/v1-expected.json', import.meta.url), 'utf8')) as {
      threads: Record<string, BaseEvent[]>;
    };
    // The released v1 rows, upgraded by the version-2 runner's migrations only.
    if (options.url) {
      const client = new pg.Client({ connectionString: options.url });
      await client.connect();
      await client.query(dump).finally(() => client.end());
    } else {
      const raw = await PGlite.create(options.dataDir!);
      await raw.exec(dump).finally(() => raw.close());
    }
    const v2 = options.url ? await openPostgres(options.url, 1) : await openEmbedded(options.dataDir!);
    try {
      await ensureSchema(v2, MIGRATIONS.slice(0, 2));
      expect(await v2.query(`SELECT value FROM cki_meta WHERE key = 'schema_version'`)).toEqual([{ value: '2' }]);
    } finally {
      await v2.close();
    }

    const runner = open({ ...options, expiry: false });
    await runner.ready();
    for (const [threadId, events] of Object.entries(expected.threads)) expect(await collect(runner.connect({ threadId }))).toEqual(events);
    // An upgraded thread's next change is numbered and heard.
    const heard: ThreadChange[] = [];
    runner.subscribeChanges((change) => heard.push(change));
    const graph = new ScriptedAgent(() => [], { agentId: 'langgraph' });
    await collect(
      runner.run({
        threadId: 'v1-open',
        agent: graph,
        input: inputFor('v1-open', { resume: [{ interruptId: 'lg-1', status: 'cancelled' }] }),
      }),
    );
    await until(() => heard.some((change) => change.threadId === 'v1-open' && change.seq > 0));
  }, 90_000);

  it('given a schema-4 database with owned threads, the runner should add the interrupt events in place, keep every row, and tell the next change with its people', async () => {
    const options = await stores[kind]();
    const dump = readFileSync(new URL('../../fixtures/runner-v1/v1.sql', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    const expected = JSON.parse(readFileSync(new URL('../../fixtures/runner-v1/v1-expected.json', import.meta.url), 'utf8')) as {
      threads: Record<string, BaseEvent[]>;
    };
    if (options.url) {
      const client = new pg.Client({ connectionString: options.url });
      await client.connect();
      await client.query(dump).finally(() => client.end());
    } else {
      const raw = await PGlite.create(options.dataDir!);
      await raw.exec(dump).finally(() => raw.close());
    }
    // The released rows upgraded by the version-4 runner's migrations, one thread owned as a v4 runner writes it.
    const snapshot = `SELECT (SELECT json_agg(t ORDER BY thread_key)::text FROM cki_threads t) AS threads,
                             (SELECT json_agg(to_jsonb(i) - 'approver_ids' - 'approver_roles' - 'four_eyes_id' ORDER BY thread_key, interrupt_hash)::text
                                FROM cki_interrupts i) AS interrupts,
                             (SELECT count(*)::int FROM cki_events) AS events`;
    const v4 = options.url ? await openPostgres(options.url, 1) : await openEmbedded(options.dataDir!);
    let before: unknown[];
    try {
      await ensureSchema(v4, MIGRATIONS.slice(0, 4));
      await v4.query(`UPDATE cki_threads SET owner_id = '"ana"', owner_name = '"Ana"' WHERE thread_key = '"v1-open"'`);
      await v4.query(`UPDATE cki_interrupts SET owner_id = '"ana"' WHERE thread_key = '"v1-open"'`);
      expect(await v4.query(`SELECT value FROM cki_meta WHERE key = 'schema_version'`)).toEqual([{ value: '4' }]);
      before = await v4.query(snapshot);
    } finally {
      await v4.close();
    }

    const told: InterruptEvent[] = [];
    const runner = open({ ...options, expiry: false, onInterruptEvent: (event) => void told.push(event) });
    await runner.ready();
    for (const [threadId, events] of Object.entries(expected.threads)) expect(await collect(runner.connect({ threadId }))).toEqual(events);
    const upgraded = options.url ? await openPostgres(options.url, 1) : await openEmbedded(options.dataDir!);
    try {
      expect(await upgraded.query(snapshot)).toEqual(before);
      expect(await upgraded.query(`SELECT value FROM cki_meta WHERE key = 'schema_version'`)).toEqual([{ value: String(SCHEMA_VERSION) }]);
      // Nothing that happened before the upgrade is told.
      expect(await upgraded.query(`SELECT count(*)::int AS n FROM cki_interrupt_events`)).toEqual([{ n: 0 }]);
    } finally {
      await upgraded.close();
    }
    const graph = new ScriptedAgent(() => [], { agentId: 'langgraph' });
    await collect(
      runner.run({
        threadId: 'v1-open',
        agent: graph,
        input: inputFor('v1-open', { resume: [{ interruptId: 'lg-1', status: 'resolved', payload: 'yes' }] }),
      }),
    );
    await until(() => told.length === 1);
    expect(told[0]).toMatchObject({
      type: 'answered',
      interrupt: { interruptId: 'lg-1', status: 'resolved', response: 'yes', ownerId: 'ana' },
      thread: { id: 'v1-open', agentId: 'langgraph', owner: { id: 'ana', name: 'Ana' } },
    });
  }, 90_000);
});

/** A runner instance in its own process (test/helpers/expiry-instance.ts), which a test can kill. */
function startInstance(url: string) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../helpers/expiry-instance.ts')], {
    env: { ...process.env, CKI_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    output: () => output,
    resumes: () => output.split('\n').filter((line) => line.startsWith('RESUMED ')),
    ready: () => until(() => output.includes('READY'), 60_000),
    kill: async (signal: NodeJS.Signals = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** The backend pid holding the expiry lease (the runner's session advisory lock), or undefined. */
async function leaseHolder(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND ((classid::bigint << 32) | objid::bigint) = 7231962052`,
    );
    return rows[0]?.pid;
  } finally {
    await client.end();
  }
}

describe('live threads on PostgreSQL: several instances and faults', () => {
  const opened: InterruptRunner[] = [];
  const children: Array<ReturnType<typeof startInstance>> = [];
  const proxies: CommitCuttingProxy[] = [];
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => child.kill()));
    for (const proxy of proxies.splice(0)) await proxy.close();
    for (const runner of opened.splice(0)) await runner.close();
  });
  const open = (options: InterruptRunnerOptions) => {
    const runner = createInterruptRunner(options);
    opened.push(runner);
    return runner;
  };

  /**
   * An instance on the database of `url` through a proxy that can cut its connections or take the
   * server away (closed after the test). A new instance prepares each statement on its connections
   * first, so a cut finds the statement's text.
   */
  const proxiedInstance = async (url: string) => {
    const proxy = await startCommitCuttingProxy(url);
    proxies.push(proxy);
    const runner = open({ url: proxy.url, expiry: false });
    await runner.ready();
    return { proxy, runner };
  };

  /** Two instances on a new database: `direct`, and `proxied` (see `proxiedInstance`). */
  const twoInstances = async (direct: Partial<InterruptRunnerOptions> = {}) => {
    const url = await cluster.createDatabase(`live_${++databases}`);
    const [{ proxy, runner: proxied }, directRunner] = await Promise.all([
      proxiedInstance(url),
      (async () => {
        const runner = open({ url, expiry: false, ...direct });
        await runner.ready();
        return runner;
      })(),
    ]);
    return { url, proxy, direct: directRunner, proxied };
  };

  it('given a notification for an unknown thread, no listener should hear of it and the next real change should still arrive', async () => {
    const url = await cluster.createDatabase(`live_${++databases}`);
    const runner = open({ url, expiry: false });
    await runner.ready();
    const heard: ThreadChange[] = [];
    runner.subscribeChanges((change) => heard.push(change));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SELECT pg_notify('cki_thread_changes', $1)`, [JSON.stringify({ thread: 'nobody-knows', seq: 1e9 })]);
      await client.query(`SELECT pg_notify('cki_thread_changes', $1)`, ['not json']);
    } finally {
      await client.end();
    }
    const threadId = `real-${randomUUID()}`;
    await collect(runner.run({ threadId, agent: expiring('i-1', () => undefined), input: inputFor(threadId) }));
    await until(() => heard.some((change) => change.threadId === threadId));
    expect(heard.filter((change) => change.threadId !== threadId)).toEqual([]);
  });

  it('given the instance loses its connection, it should reconnect, listen again and catch up the changes made meanwhile', async () => {
    const url = await cluster.createDatabase(`live_${++databases}`);
    const writer = open({ url, expiry: false });
    const listener = open({ url, expiry: false });
    await Promise.all([writer.ready(), listener.ready()]);
    const heard: ThreadChange[] = [];
    listener.subscribeChanges((change) => heard.push(change));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Both instances' listening connections end (as a failover does); runs go on meanwhile.
      await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`);
    } finally {
      await client.end();
    }
    const threads = [0, 1, 2].map((n) => `gap-${n}-${randomUUID()}`);
    for (const threadId of threads)
      await collect(writer.run({ threadId, agent: expiring('i-1', () => undefined), input: inputFor(threadId) }));
    await until(() => threads.every((threadId) => heard.some((change) => change.threadId === threadId)));
  });

  // A commit lost with its connection: its reply (the server wrote it), or the COMMIT itself (nothing was written).
  const faults = {
    'the reply to a commit lost with its connection (the server wrote it)': (proxy: CommitCuttingProxy) => proxy.cutNextCommitReply(),
    'a commit lost with its connection before the server got it (nothing was written)': (proxy: CommitCuttingProxy) =>
      proxy.loseNextCommit(),
  };

  describe.each(Object.keys(faults) as Array<keyof typeof faults>)('given %s', (fault) => {
    const strike = faults[fault];
    let proxy: CommitCuttingProxy;
    afterEach(async () => {
      await proxy?.close();
    });
    const throughProxy = async (url?: string) => {
      proxy = await startCommitCuttingProxy(url ?? (await cluster.createDatabase(`live_${++databases}`)));
      const runner = open({ url: proxy.url, expiry: false });
      await runner.ready();
      return runner;
    };

    it("when it was a resume's, the agent should hear the answer once and the run should go on as if nothing happened", async () => {
      const runner = await throughProxy();
      const agent = expiring('i-cut', () => undefined);
      const threadId = `cut-resume-${randomUUID()}`;
      await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
      const struck = strike(proxy);
      const answer = [{ interruptId: 'i-cut', status: 'resolved' as const, payload: 'yes' }];
      const answered = await collect(runner.run({ threadId, agent, input: inputFor(threadId, { resume: answer }) }));
      await struck;
      expect(errorsOf(answered)).toEqual([]);
      expect(resumesOf(agent)).toEqual([answer]);
      expect(ofType(answered, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Done.']);
      expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'resolved' })]);
    });

    it("when it was a batch of a run's events, the run should go on and the thread should hold each event once", async () => {
      const runner = await throughProxy();
      let struck: Promise<void> | undefined;
      const agent = new ScriptedAgent((input) => [
        runStarted(input),
        () => {
          struck = strike(proxy);
        },
        ...textMessage(`m-${input.runId}`, 'Streaming.'),
        // The run goes on only once the batch holding the message was sent and the fault struck.
        () => struck,
        runFinished(input),
      ]);
      const threadId = `cut-events-${randomUUID()}`;
      const ran = await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
      expect(errorsOf(ran)).toEqual([]);
      expect(types(ran).at(-1)).toBe(EventType.RUN_FINISHED);
      const replayed = await collect(open({ url: proxy.url, expiry: false }).connect({ threadId }));
      expect(ofType(replayed, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Streaming.']);
      expect(ofType(replayed, EventType.RUN_FINISHED)).toHaveLength(1);
    });

    it("when it was a run's end, the client should hear the run finish with its interrupt, and the thread should hold it once", async () => {
      const runner = await throughProxy();
      let struck: Promise<void> | undefined;
      const agent = new ScriptedAgent((input) => [
        runStarted(input),
        ...textMessage(`m-${input.runId}`, 'Asking.'),
        () => {
          struck = strike(proxy);
        },
        runFinished(input, interruptOutcome({ id: 'i-end', reason: 'tool_approval' })),
      ]);
      const threadId = `cut-end-${randomUUID()}`;
      const raised = await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
      await struck;
      expect(errorsOf(raised)).toEqual([]);
      expect(types(raised).at(-1)).toBe(EventType.RUN_FINISHED);
      expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ interruptId: 'i-end', status: 'open' })]);
      // Another instance replays the run once: the message once, the run finished once.
      const replayed = await collect(open({ url: proxy.url, expiry: false }).connect({ threadId }));
      expect(ofType(replayed, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Asking.']);
      expect(ofType(replayed, EventType.RUN_FINISHED)).toHaveLength(1);
    });

    it('when it was the end of a run another instance took the thread from meanwhile, the run should be saved as it is without the fault: the interrupt its client heard should be open', async () => {
      const url = await cluster.createDatabase(`live_${++databases}`);
      const runner = await throughProxy(url);
      // Another instance that finds every run it did not start stale: it takes the thread over at once.
      const other = open({ url, expiry: false, staleAfterMs: 1 });
      await other.ready();
      const gate = createGate();
      const reached = createGate();
      const threadId = `lost-end-${randomUUID()}`;
      const agent = new ScriptedAgent((input) => [
        runStarted(input),
        ...textMessage(`m-${input.runId}`, 'Asking.'),
        () => {
          reached.open();
          return gate.wait();
        },
        runFinished(input, interruptOutcome({ id: 'i-kept', reason: 'tool_approval' })),
      ]);
      const running = collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
      await reached.wait();
      const meanwhile = new ScriptedAgent((input) => [
        runStarted(input),
        ...textMessage(`o-${input.runId}`, 'Meanwhile.'),
        runFinished(input),
      ]);
      expect(errorsOf(await collect(other.run({ threadId, agent: meanwhile, input: inputFor(threadId) })))).toEqual([]);
      const struck = strike(proxy);
      gate.open();
      const raised = await running;
      await struck;
      expect(errorsOf(raised)).toEqual([]);
      expect(ofType(raised, EventType.RUN_FINISHED)).toEqual([
        expect.objectContaining({ outcome: expect.objectContaining({ interrupts: [expect.objectContaining({ id: 'i-kept' })] }) }),
      ]);
      expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ interruptId: 'i-kept', status: 'open' })]);
    });
  });

  // A connection cut at a statement of a resume (a restart or failover of the server): the
  // transaction it was in is rolled back, and the store is reached again on a new connection.
  // `midRun`: the agent goes on only once the cut struck (a batch's statement is also the run's end's first).
  const statements = {
    "the claim's first": { text: 'INSERT INTO cki_threads (thread_key', midRun: false },
    "the thread's history read's": { text: 'WITH ORDINALITY AS u(thread_key, except_pks, n)', midRun: false },
    "an event batch's": { text: 'inserted AS (INSERT INTO cki_events', midRun: true },
    "the run's end's": { text: 'ended AS (UPDATE cki_runs r SET status', midRun: false },
  };

  describe.each(Object.keys(statements) as Array<keyof typeof statements>)(
    'given the connection to PostgreSQL cut at %s statement of a resume on another instance',
    (statement) => {
      it('the agent should hear the answer once, its client the run finish, and the thread should hold the run once', async () => {
        const { proxy, direct: raiser, proxied: resumer } = await twoInstances();
        const { text, midRun } = statements[statement];
        const struck: { cut?: Promise<void> } = {};
        const agent = new ScriptedAgent((input) =>
          (input as { resume?: unknown }).resume
            ? [
                runStarted(input),
                ...textMessage(`a-${input.runId}`, 'Approved.'),
                // Long enough for the first events to be written as a batch of their own.
                () => (midRun ? struck.cut : new Promise((resolve) => setTimeout(resolve, 100))),
                ...textMessage(`b-${input.runId}`, 'Done.'),
                runFinished(input),
              ]
            : [runStarted(input), runFinished(input, interruptOutcome({ id: 'i-cut', reason: 'tool_approval' }))],
        );
        const threadId = `cut-at-${randomUUID()}`;
        await collect(raiser.run({ threadId, agent, input: inputFor(threadId) }));
        struck.cut = proxy.cutAtStatement(text);
        const answer = [{ interruptId: 'i-cut', status: 'resolved' as const, payload: 'yes' }];
        const answered = await collect(resumer.run({ threadId, agent, input: inputFor(threadId, { resume: answer }) }));
        await struck.cut;
        expect(errorsOf(answered)).toEqual([]);
        expect(types(answered).at(-1)).toBe(EventType.RUN_FINISHED);
        expect(resumesOf(agent)).toEqual([answer]);
        const replayed = await collect(raiser.connect({ threadId }));
        expect(ofType(replayed, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Approved.', 'Done.']);
        expect(ofType(replayed, EventType.RUN_FINISHED)).toHaveLength(2);
        expect(await raiser.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'resolved' })]);
      });
    },
  );

  // A stop asked through another instance, whose UPDATE loses its connection before or after the server carried it out.
  const stopFaults: Record<
    string,
    {
      strike: (proxy: CommitCuttingProxy) => Promise<void>;
      holder?: Partial<InterruptRunnerOptions>;
      meanwhile?: (proxy: CommitCuttingProxy) => Promise<void>;
      /** Stop whatever run holds the thread (no `runId`). */
      anyRun?: true;
    }
  > = {
    'never reaches the server': { strike: (proxy) => proxy.cutAtStatement('SET stop_requested = true') },
    'is carried out, and its reply is lost': { strike: (proxy) => proxy.cutReplyTo('SET stop_requested = true') },
    // The holder beats every 50 ms: it hears the stop, and ends and saves the run, before the stopper reads whether it landed.
    'is carried out, its reply is lost, and the stopper cannot reach the server until the holder has stopped the run': {
      strike: (proxy) => proxy.cutReplyTo('SET stop_requested = true'),
      holder: { staleAfterMs: 150 },
      meanwhile: (proxy) => proxy.outage(500),
    },
    'names no run, is carried out, its reply is lost, and the stopper cannot reach the server until the holder has stopped the run': {
      strike: (proxy) => proxy.cutReplyTo('SET stop_requested = true'),
      holder: { staleAfterMs: 150 },
      meanwhile: (proxy) => proxy.outage(500),
      anyRun: true,
    },
  };

  describe.each(Object.keys(stopFaults))('given a stop through another instance whose request %s with its connection', (fault) => {
    it('stop should answer true, and the run should stop', async () => {
      const { strike, holder: options, meanwhile, anyRun } = stopFaults[fault]!;
      const { proxy, direct: holder, proxied: stopper } = await twoInstances(options);
      const gate = createGate();
      const agent = new StoppableAgent((input) => [
        runStarted(input),
        ...textMessage(`m-${input.runId}`, 'Working'),
        () => gate.wait(),
        runFinished(input),
      ]);
      const threadId = `stop-cut-${randomUUID()}`;
      const input = inputFor(threadId);
      const running = collect(holder.run({ threadId, agent, input }));
      await until(() => stopper.isRunning({ threadId }));
      const struck = strike(proxy);
      const answer = stopper.stop(anyRun ? { threadId } : { threadId, runId: input.runId });
      await struck;
      await meanwhile?.(proxy);
      const events = await running;
      gate.open();
      expect(ofType(events, EventType.RUN_FINISHED)).toHaveLength(1);
      expect(await answer).toBe(true);
      expect(await holder.isRunning({ threadId })).toBe(false);
    });
  });

  /** Says "Before.", opens `reached` and waits for `hold`; then says "After." and finishes raising `i-mid`. */
  const pausingAgent = (reached: { open: () => void }, hold: () => Promise<unknown>) =>
    new StoppableAgent((input) => [
      runStarted(input),
      ...textMessage(`a-${input.runId}`, 'Before.'),
      () => {
        reached.open();
        return hold();
      },
      ...textMessage(`b-${input.runId}`, 'After.'),
      runFinished(input, interruptOutcome({ id: 'i-mid', reason: 'tool_approval' })),
    ]);

  it('given PostgreSQL away when the runner is closed with a run in progress, close should end without waiting for the store to come back', async () => {
    const { proxy, runner } = await proxiedInstance(await cluster.createDatabase(`live_${++databases}`));
    const reached = createGate();
    const threadId = `close-away-${randomUUID()}`;
    const agent = pausingAgent(reached, () => new Promise(() => {}));
    const running = collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
    await reached.wait();
    const back = proxy.outage(5_000).then(() => 'the store came back');
    const closed = runner.close().then(() => 'closed');
    expect(await Promise.race([closed, back])).toBe('closed');
    // The run's end could not be saved: its client is told so, as for any store lost.
    expect(errorsOf(await running)).toEqual([expect.stringMatching(/lost the thread store .* while saving the run; it was not saved/)]);
  });

  it("given the runner closing while a run's end is committed, the reply lost and the store then away, its client should be told whether it was saved is unknown, and it was saved", async () => {
    const url = await cluster.createDatabase(`live_${++databases}`);
    const { proxy, runner } = await proxiedInstance(url);
    const reached = createGate();
    const threadId = `unknown-end-${randomUUID()}`;
    const running = collect(runner.run({ threadId, agent: pausingAgent(reached, () => new Promise(() => {})), input: inputFor(threadId) }));
    await reached.wait();
    // Closing stops the run; its end's COMMIT is written, its reply lost, and the store is away for the check.
    const struck = proxy.cutNextCommitReply({ awayMs: 1_000 });
    await runner.close();
    await struck;
    expect(errorsOf(await running)).toEqual([expect.stringMatching(/while saving the run; whether it was saved is unknown/)]);
    const replayed = await collect(open({ url, expiry: false }).connect({ threadId }));
    expect(ofType(replayed, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Before.']);
  });

  it('given PostgreSQL unreachable for a while in the middle of a run (a restart), the run should wait for it and be saved whole', async () => {
    const url = await cluster.createDatabase(`live_${++databases}`);
    const { proxy, runner } = await proxiedInstance(url);
    const reached = createGate();
    const gate = createGate();
    const threadId = `restart-${randomUUID()}`;
    const running = collect(runner.run({ threadId, agent: pausingAgent(reached, gate.wait), input: inputFor(threadId) }));
    await reached.wait();
    // The run goes on while the server is away: its events are kept until it is back.
    const away = proxy.outage(1_500);
    gate.open();
    await away;
    const ran = await running;
    expect(errorsOf(ran)).toEqual([]);
    expect(types(ran).at(-1)).toBe(EventType.RUN_FINISHED);
    const replayed = await collect(open({ url, expiry: false }).connect({ threadId }));
    expect(ofType(replayed, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta)).toEqual(['Before.', 'After.']);
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ interruptId: 'i-mid', status: 'open' })]);
  });

  it('given two instances on one PostgreSQL with expiry on, an expired interrupt should be settled once', async () => {
    const url = await cluster.createDatabase(`live_${++databases}`);
    const agent = expiring('i-twice', soon(500));
    const a = open({ url, expiry: { agent: () => agent, checkEveryMs: 50 } });
    const b = open({ url, expiry: { agent: () => agent, checkEveryMs: 50 } });
    await Promise.all([a.ready(), b.ready()]);
    const threadId = `two-${randomUUID()}`;
    await collect(b.run({ threadId, agent, input: inputFor(threadId) }));
    await until(() => resumesOf(agent).length > 0);
    await severalSweeps();
    expect(resumesOf(agent)).toEqual([[{ interruptId: 'i-twice', status: 'cancelled' }]]);
    expect(await a.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'cancelled', cancelReason: 'expired' })]);
  });

  it('given the instance holding the expiry lease is killed, another should take it over and settle the interrupt once', async () => {
    const url = await cluster.createDatabase(`live_${++databases}`);
    const first = startInstance(url);
    children.push(first);
    await first.ready();
    await until(async () => (await leaseHolder(url)) !== undefined);
    const heldBy = await leaseHolder(url);

    // Its deadline is well after the kill, even on a loaded machine: the first instance must die
    // holding the lease with the interrupt still open, not while it settles it.
    const agent = expiring('i-killed', soon(4_000));
    const second = open({ url, expiry: { agent: () => agent, checkEveryMs: 50 } });
    await second.ready();
    const threadId = `killed-${randomUUID()}`;
    await collect(second.run({ threadId, agent, input: inputFor(threadId) }));
    // Killed while it holds the lease and the interrupt is still open: its session (and lock) ends with it.
    await first.kill('SIGKILL');
    await until(async () => {
      const holder = await leaseHolder(url);
      return holder !== undefined && holder !== heldBy;
    });
    await until(() => resumesOf(agent).length > 0);
    await severalSweeps();
    expect(resumesOf(agent)).toEqual([[{ interruptId: 'i-killed', status: 'cancelled' }]]);
    expect(first.resumes()).toEqual([]);
    expect(await second.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'cancelled', cancelReason: 'expired' })]);
  }, 90_000);
});
