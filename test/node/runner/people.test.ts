import { randomUUID } from 'node:crypto';
import { EventType, HttpAgent, type BaseEvent, type Message, type RunAgentInput } from '@ag-ui/client';
import { CopilotRuntime, createCopilotRuntimeHandler } from '@copilotkit/runtime/v2';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInboxHandler,
  createInterruptRunner,
  type Authorize,
  type InboxResponse,
  type InterruptRunner,
  type InterruptRunnerOptions,
  type Person,
} from '../../../src/runner';
import { serveFetchHandlers } from '../../helpers/fetch-handler-server';
import { collect, inputFor, runnerStores } from '../../helpers/runner-stores';
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

/** A scripted agent whose `abortRun` ends the run, as a real agent's does. */
class StoppableAgent extends ScriptedAgent {
  override abortRun() {
    void this.detachActiveRun();
  }
}

const ofType = (events: BaseEvent[], type: EventType) => events.filter((event) => event.type === type) as Array<Record<string, unknown>>;
const userMessage = (id: string, content: string): Message => ({ id, role: 'user', content }) as Message;

/** Raises an approval on a thread's first run; a resume says "Done." and finishes. */
const raising: RunScript = (input) =>
  (input as { resume?: unknown }).resume
    ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)]
    : [
        runStarted(input),
        ...textMessage(`ask-${input.runId}`, 'Transfer 200 EUR?'),
        runFinished(input, interruptOutcome({ id: 'i-transfer', reason: 'tool_approval', message: 'Transfer 200 EUR?' })),
      ];

/** The people of these tests: a bearer token names them (`Bearer <token>`); anything else is no one. */
const PEOPLE: Record<string, Person> = {
  ana: { id: 'ana', name: 'Ana' },
  bob: { id: 'bob', name: 'Bob' },
  auditor: { id: 'carol', name: 'Carol', roles: ['auditor'] },
  approver: { id: 'dan', name: 'Dan', roles: ['approver'] },
};
const identify = (request: Request): Person | null => {
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  return token !== undefined ? (PEOPLE[token] ?? null) : null;
};
/** Auditors may read any thread, approvers may read and answer; no one else may do anything on a thread not theirs. */
const authorize: Authorize = ({ user, action }) =>
  (user.roles ?? []).includes('approver') ? action !== 'run' : (user.roles ?? []).includes('auditor') && action === 'read';

/** A run as CopilotKit's runtime hands it over: the agent carries the request's forwarded headers. */
function runAs(
  runner: InterruptRunner,
  token: string | undefined,
  threadId: string,
  extra: Partial<RunAgentInput> & { resume?: unknown } = {},
) {
  const agent = new ScriptedAgent(raising) as ScriptedAgent & { headers: Record<string, string> };
  agent.headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return { agent, events: collect(runner.run({ threadId, agent, input: inputFor(threadId, extra) })) };
}
const connectAs = (runner: InterruptRunner, token: string | undefined, threadId: string) =>
  collect(
    runner.connect({ threadId, agentId: 'default', ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }) }),
  );
const approve = (threadId: string) => ({
  resume: [{ interruptId: 'i-transfer', status: 'resolved' as const, payload: { approved: true, threadId } }],
});

const { stores, cleanup } = runnerStores('people');

afterAll(cleanup, 60_000);

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('people in the durable runner on the %s store', (kind) => {
  let options: InterruptRunnerOptions;
  let owned: InterruptRunner;
  let shared: InterruptRunner;
  const opened: InterruptRunner[] = [];
  const open = (extra: InterruptRunnerOptions) => {
    const runner = createInterruptRunner({ ...options, ...extra });
    opened.push(runner);
    return runner;
  };

  beforeAll(async () => {
    options = await stores[kind]();
    owned = open({ identify });
    shared = open({ identify, authorize });
    await Promise.all([owned.ready(), shared.ready()]);
  }, 60_000);

  afterAll(async () => {
    for (const runner of opened) await runner.close();
  });

  it("given identify alone, another person should reach none of a thread's events, runs or answers, and the owner all of them", async () => {
    const threadId = `owned-${randomUUID()}`;
    expect(ofType(await runAs(owned, 'ana', threadId).events, EventType.RUN_FINISHED)).toHaveLength(1);

    // Bob knows the id: a connect replays not one event, a run starts no agent run, an answer closes nothing.
    const replay = await connectAs(owned, 'bob', threadId);
    expect(replay).toEqual([expect.objectContaining({ type: EventType.RUN_ERROR, code: 'forbidden' })]);
    const bobRun = runAs(owned, 'bob', threadId);
    expect(await bobRun.events).toEqual([expect.objectContaining({ type: EventType.RUN_ERROR, code: 'forbidden' })]);
    expect(bobRun.agent.runs).toHaveLength(0);
    const bobAnswer = runAs(owned, 'bob', threadId, approve(threadId));
    expect((await bobAnswer.events).map((event) => event.type)).toEqual([EventType.RUN_ERROR]);
    expect(bobAnswer.agent.runs).toHaveLength(0);
    expect(await owned.listInterrupts({ threadId })).toEqual([
      expect.objectContaining({ status: 'open', ownerId: 'ana', answeredBy: null }),
    ]);

    // No one at all is refused as such.
    expect(await connectAs(owned, undefined, threadId)).toEqual([expect.objectContaining({ code: 'unauthenticated' })]);

    // Ana replays her thread and answers; the row says she did, and when.
    expect(ofType(await connectAs(owned, 'ana', threadId), EventType.RUN_FINISHED)).toHaveLength(1);
    expect(ofType(await runAs(owned, 'ana', threadId, approve(threadId)).events, EventType.RUN_ERROR)).toEqual([]);
    const [row] = await owned.listInterrupts({ threadId });
    expect(row).toMatchObject({ status: 'resolved', ownerId: 'ana', answeredBy: { id: 'ana', name: 'Ana' } });
    expect(Date.parse(row!.answeredAt!)).toBeGreaterThanOrEqual(Date.parse(row!.raisedAt));
    expect((await owned.listThreads()).find((thread) => thread.id === threadId)).toMatchObject({ createdById: 'ana' });
  });

  it('given authorize, it should widen access exactly as it says, and a policy that throws should refuse', async () => {
    const threadId = `shared-${randomUUID()}`;
    await runAs(shared, 'ana', threadId).events;
    // The auditor may read but not run or answer; Bob may do nothing.
    expect(ofType(await connectAs(shared, 'auditor', threadId), EventType.RUN_FINISHED)).toHaveLength(1);
    expect(await runAs(shared, 'auditor', threadId, approve(threadId)).events).toEqual([expect.objectContaining({ code: 'forbidden' })]);
    expect(await connectAs(shared, 'bob', threadId)).toEqual([expect.objectContaining({ code: 'forbidden' })]);
    // The approver may answer, and is recorded as the one who did.
    expect(ofType(await runAs(shared, 'approver', threadId, approve(threadId)).events, EventType.RUN_ERROR)).toEqual([]);
    expect(await shared.listInterrupts({ threadId })).toEqual([
      expect.objectContaining({ status: 'resolved', ownerId: 'ana', answeredBy: { id: 'dan', name: 'Dan' } }),
    ]);
    expect((await shared.listInterrupts({ answeredById: 'dan' })).map((row) => row.threadId)).toEqual([threadId]);

    const throwing = open({
      identify,
      authorize: () => {
        throw new Error('policy service down');
      },
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      expect(await connectAs(throwing, 'auditor', threadId)).toEqual([expect.objectContaining({ code: 'forbidden' })]);
      const run = runAs(throwing, 'approver', threadId, approve(threadId));
      expect(await run.events).toEqual([expect.objectContaining({ code: 'forbidden' })]);
      expect(run.agent.runs).toHaveLength(0);
    } finally {
      console.error = original;
    }
    expect(errors.length).toBeGreaterThan(0); // the operator hears why
  });

  it('given identities of any content, ids should be stored and compared exactly, and ones too long refused with nothing stored', async () => {
    const people = new Map<string, Person>();
    const byHeader = open({
      identify: (request) => people.get(request.headers.get('x-person') ?? '') ?? null,
    });
    const asPerson = (person: Person, threadId: string, extra: Partial<RunAgentInput> & { resume?: unknown } = {}) => {
      const key = randomUUID();
      people.set(key, person);
      const agent = new ScriptedAgent(raising) as ScriptedAgent & { headers: Record<string, string> };
      agent.headers = { 'x-person': key };
      return { agent, events: collect(byHeader.run({ threadId, agent, input: inputFor(threadId, extra) })) };
    };
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        async (id, name) => {
          const threadId = `hostile-${randomUUID()}`;
          await asPerson({ id, name }, threadId).events;
          // Someone whose id differs by one character is someone else.
          const other = asPerson({ id: `${id}\u0000`, name }, threadId, approve(threadId));
          expect(await other.events).toEqual([expect.objectContaining({ code: 'forbidden' })]);
          expect(ofType(await asPerson({ id, name }, threadId, approve(threadId)).events, EventType.RUN_ERROR)).toEqual([]);
          const [row] = await byHeader.listInterrupts({ threadId });
          expect(row).toMatchObject({ ownerId: id, answeredBy: { id, name } });
          expect((await byHeader.listInterrupts({ ownerId: id, threadId })).length).toBe(1);
        },
      ),
      { numRuns: 12 },
    );

    const threadId = `huge-${randomUUID()}`;
    const huge = asPerson({ id: 'x'.repeat(1024 * 1024) }, threadId);
    expect(await huge.events).toEqual([expect.objectContaining({ type: EventType.RUN_ERROR, code: 'bad_identity' })]);
    expect(huge.agent.runs).toHaveLength(0);
    expect(await byHeader.listThreads({ ownerId: 'x' })).toEqual([]);
    expect(await byHeader.getThreadEvents(threadId)).toEqual([]);
    for (const bad of [{ id: '' }, { id: 42 }, 'ana', { id: 'ok', roles: 'admin' }] as unknown[]) {
      expect(await asPerson(bad as Person, threadId).events).toEqual([expect.objectContaining({ code: 'bad_identity' })]);
    }
    const failing = open({
      identify: () => {
        throw new Error('session store down');
      },
    });
    const original = console.error;
    console.error = () => {};
    try {
      expect(await runAs(failing, 'ana', threadId).events).toEqual([expect.objectContaining({ code: 'identify_failed' })]);
    } finally {
      console.error = original;
    }
  });

  it('given a runner without identify, threads should have no owner and everyone should reach them as before', async () => {
    const open_ = open({});
    const threadId = `single-${randomUUID()}`;
    await runAs(open_, undefined, threadId).events;
    expect(ofType(await runAs(open_, 'anyone', threadId, approve(threadId)).events, EventType.RUN_ERROR)).toEqual([]);
    expect(await open_.listInterrupts({ threadId })).toEqual([
      expect.objectContaining({ status: 'resolved', ownerId: null, answeredBy: null }),
    ]);
    // A thread started before identify was set has no owner: only authorize lets anyone in.
    expect(await connectAs(owned, 'ana', threadId)).toEqual([expect.objectContaining({ code: 'forbidden' })]);
    expect(ofType(await connectAs(shared, 'auditor', threadId), EventType.RUN_FINISHED).length).toBeGreaterThan(0);
  });

  it('given CopilotRuntime over HTTP, the inbox and the thread should show each person only what they may read', async () => {
    const agent = new ScriptedAgent(raising);
    const served = await serveRuntime(new CopilotRuntime({ agents: { default: agent }, runner: owned }));
    const inbox = await serveFetchHandlers({ '/api/inbox': createInboxHandler({ runner: owned }) });
    try {
      const threadId = `http-${randomUUID()}`;
      const ana = new HttpAgent({
        url: `${served.url}/agent/default/run`,
        threadId,
        agentId: 'default',
        headers: { authorization: 'Bearer ana' },
      });
      ana.addMessage(userMessage('u-http', 'Pay the invoice'));
      await ana.runAgent();

      // Bob connects with the id: one refusal, not one message of Ana's.
      const bob = new HttpAgent({
        url: `${served.url}/agent/default/connect`,
        threadId,
        agentId: 'default',
        headers: { authorization: 'Bearer bob' },
      });
      const seen: BaseEvent[] = [];
      await bob.runAgent({}, { onEvent: ({ event }) => void seen.push(event) }).catch(() => {});
      expect(seen.filter((event) => event.type !== EventType.RUN_ERROR)).toEqual([]);
      expect(ofType(seen, EventType.RUN_ERROR)[0]).toMatchObject({ code: 'forbidden' });
      expect(bob.messages).toEqual([]);

      const list = async (token?: string) => {
        const response = await fetch(
          `${inbox.origin}/api/inbox?status=all`,
          token ? { headers: { authorization: `Bearer ${token}` } } : {},
        );
        return { status: response.status, body: (await response.json()) as InboxResponse & { code?: string } };
      };
      expect((await list('ana')).body.interrupts.map((row) => row.threadId)).toContain(threadId);
      const forBob = await list('bob');
      expect(forBob.status).toBe(200);
      expect(forBob.body.interrupts.filter((row) => row.threadId === threadId)).toEqual([]);
      expect(await list()).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });

      await ana.runAgent(approve(threadId) as never);
      expect((await owned.listInterrupts({ threadId }))[0]).toMatchObject({ answeredBy: { id: 'ana', name: 'Ana' } });
    } finally {
      await inbox.close();
      await served.close();
    }
  });

  it("given the runtime's route wrapped by runner.route, identify should read the whole request (a cookie) once, and refuse with 401", async () => {
    const byCookie = open({
      identify: (request) => {
        const name = /(?:^|; )session=([a-z]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
        return name ? (PEOPLE[name] ?? null) : null;
      },
    });
    const handler = byCookie.route(
      createCopilotRuntimeHandler({
        runtime: new CopilotRuntime({ agents: { default: new ScriptedAgent(raising) }, runner: byCookie }),
        basePath: '/api/copilotkit',
      }),
    );
    const served = await serveFetchHandlers({
      '/api/copilotkit/agent/default/run': handler,
      '/api/copilotkit/agent/default/connect': handler,
    });
    try {
      const threadId = `cookie-${randomUUID()}`;
      const as = (session: string | undefined, path: 'run' | 'connect') =>
        new HttpAgent({
          url: `${served.origin}/api/copilotkit/agent/default/${path}`,
          threadId,
          agentId: 'default',
          headers: session ? { cookie: `session=${session}` } : {},
        });
      const ana = as('ana', 'run');
      ana.addMessage(userMessage('u-cookie', 'Deploy'));
      await ana.runAgent();
      expect((await byCookie.listInterrupts({ threadId }))[0]).toMatchObject({ ownerId: 'ana' });

      const seen: BaseEvent[] = [];
      await as('bob', 'connect')
        .runAgent({}, { onEvent: ({ event }) => void seen.push(event) })
        .catch(() => {});
      expect(seen.map((event) => event.type)).toEqual([EventType.RUN_ERROR]);

      const anonymous = await fetch(`${served.origin}/api/copilotkit/agent/default/connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(inputFor(threadId)),
      });
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ code: 'unauthenticated' });

      // App code behind the same route reads and stops threads as the person asking.
      const app = byCookie.route(async (request) => {
        const { action, threadId: id } = (await request.json()) as { action: 'events' | 'stop'; threadId: string };
        try {
          if (action === 'stop') return Response.json({ stopped: await byCookie.stop({ threadId: id }) });
          return Response.json({ events: await byCookie.getThreadEvents(id) });
        } catch (error) {
          return Response.json({ code: (error as { code?: string }).code }, { status: 403 });
        }
      });
      const call = async (session: string, body: unknown) => {
        const response = await app(
          new Request('http://app.test/threads', { method: 'POST', headers: { cookie: `session=${session}` }, body: JSON.stringify(body) }),
        );
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      expect(await call('bob', { action: 'events', threadId })).toEqual({ status: 403, body: { code: 'forbidden' } });
      expect(((await call('ana', { action: 'events', threadId })).body.events as unknown[]).length).toBeGreaterThan(0);

      const gate = createGate();
      const held = `held-${randomUUID()}`;
      const slow = new StoppableAgent((input) => [runStarted(input), () => gate.wait(), runFinished(input)]) as StoppableAgent & {
        headers: Record<string, string>;
      };
      const running = byCookie.route(async () => {
        void collect(byCookie.run({ threadId: held, agent: slow, input: inputFor(held) }));
        return new Response(null, { status: 204 });
      });
      await running(new Request('http://app.test/run', { headers: { cookie: 'session=ana' } }));
      await expect.poll(() => byCookie.isRunning({ threadId: held })).toBe(true);
      expect(await call('bob', { action: 'stop', threadId: held })).toEqual({ status: 200, body: { stopped: false } });
      expect(await byCookie.isRunning({ threadId: held })).toBe(true);
      expect(await call('ana', { action: 'stop', threadId: held })).toEqual({ status: 200, body: { stopped: true } });
      gate.open();
    } finally {
      await served.close();
    }
  });

  it('given a thread list served inside runner.route, each person should be listed only the threads they may read, and CopilotKit should serve no list of its own', async () => {
    const listing = open({
      identify,
      // Carol audits: she may read any thread. Dan only approves what is given to him.
      authorize: ({ user, action }) => (user.roles ?? []).includes('auditor') && action === 'read',
      approvers: ({ threadId }) => (threadId.includes('for-dan') ? { users: [{ id: 'dan', name: 'Dan' }] } : null),
    });
    const runtime = listing.route(
      createCopilotRuntimeHandler({
        runtime: new CopilotRuntime({ agents: { default: new ScriptedAgent(raising) }, runner: listing }),
        basePath: '/api/copilotkit',
      }),
    );
    // The app's own thread list, behind the same route: the runner lists as the person asking.
    const threads = listing.route(async (request) => {
      const url = new URL(request.url);
      const limit = url.searchParams.get('limit');
      const cursor = url.searchParams.get('cursor');
      return Response.json(await listing.listThreads({ ...(limit ? { limit: Number(limit) } : {}), ...(cursor ? { cursor } : {}) }));
    });
    const served = await serveFetchHandlers({
      '/api/copilotkit/agent/default/run': runtime,
      '/api/copilotkit/threads': runtime,
      '/api/threads': threads,
    });
    try {
      const tag = randomUUID();
      const start = async (token: string, threadId: string) => {
        const agent = new HttpAgent({
          url: `${served.origin}/api/copilotkit/agent/default/run`,
          threadId,
          agentId: 'default',
          headers: { authorization: `Bearer ${token}` },
        });
        agent.addMessage(userMessage(`u-${threadId}`, 'Transfer'));
        await agent.runAgent();
      };
      const anas = `ana-${tag}`;
      const forDan = `ana-for-dan-${tag}`;
      const bobs = `bob-${tag}`;
      await start('ana', anas);
      await start('ana', forDan);
      await start('bob', bobs);
      const ours = new Set([anas, forDan, bobs]);
      const listedFor = async (token: string, query = '') => {
        const response = await fetch(`${served.origin}/api/threads${query}`, { headers: { authorization: `Bearer ${token}` } });
        expect(response.status).toBe(200);
        return (await response.json()) as Array<{ id: string; createdById: string; cursor: string }>;
      };
      const ids = async (token: string) => (await listedFor(token)).map((thread) => thread.id).filter((id) => ours.has(id));

      expect((await ids('ana')).sort()).toEqual([anas, forDan].sort());
      expect(await ids('bob')).toEqual([bobs]);
      expect(await ids('approver')).toEqual([forDan]);
      expect((await ids('auditor')).sort()).toEqual([anas, bobs, forDan].sort());
      // Nothing of another person's thread, not even its id, in anyone's list.
      for (const thread of await listedFor('bob')) expect(thread.createdById).toBe('bob');

      // Paged one by one, the auditor's list is the same, each thread once.
      const paged: string[] = [];
      let cursor = '';
      for (let page = 0; page < 50; page++) {
        const [next] = await listedFor('auditor', `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        if (!next) break;
        paged.push(next.id);
        cursor = next.cursor;
      }
      expect(paged.filter((id) => ours.has(id)).sort()).toEqual([anas, bobs, forDan].sort());
      expect(new Set(paged).size).toBe(paged.length);

      // No one recognised: 401 before anything is listed.
      const anonymous = await fetch(`${served.origin}/api/threads`);
      expect(anonymous.status).toBe(401);
      // CopilotKit's own thread endpoint lists nothing with this runner (it needs its Intelligence platform).
      const own = await fetch(`${served.origin}/api/copilotkit/threads?agentId=default`, { headers: { authorization: 'Bearer bob' } });
      expect(own.status).toBe(422);
      expect(JSON.stringify(await own.json())).not.toContain(anas);
      // The app's own server code, outside the route, lists every thread.
      expect(
        (await listing.listThreads())
          .map((thread) => thread.id)
          .filter((id) => ours.has(id))
          .sort(),
      ).toEqual([anas, bobs, forDan].sort());
      expect((await listing.listThreadsFor(PEOPLE.bob!)).map((thread) => thread.id).filter((id) => ours.has(id))).toEqual([bobs]);
      // Without authorize, the database alone finds them: owned, or with a request assigned to them.
      const found = async (person: Person) => (await owned.listThreadsFor(person)).map((thread) => thread.id).filter((id) => ours.has(id));
      expect(await found(PEOPLE.approver!)).toEqual([forDan]);
      expect((await found(PEOPLE.ana!)).sort()).toEqual([anas, forDan].sort());
      expect(await found(PEOPLE.auditor!)).toEqual([]);
    } finally {
      await served.close();
    }
  });
});
