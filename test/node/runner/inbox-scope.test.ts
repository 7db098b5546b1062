import { randomUUID } from 'node:crypto';
import { EventType, type RunAgentInput } from '@ag-ui/client';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  createInboxHandler,
  createInterruptRunner,
  type Approvers,
  type ApproversPolicy,
  type Authorize,
  type InboxResponse,
  type InterruptRunner,
  type InterruptRunnerOptions,
  type Person,
} from '../../../src/runner';
import { openEmbedded, openPostgres } from '../../../src/runner/database';
import { ensureSchema, MIGRATIONS } from '../../../src/runner/schema';
import { clientAs, eventsOf } from '../../helpers/runtime-client';
import { listenToEventStream } from '../../helpers/event-stream-listener';
import { serveFetchHandlers } from '../../helpers/fetch-handler-server';
import { collect, inputFor, runnerStores } from '../../helpers/runner-stores';
import { serveRuntime } from '../../helpers/runtime-server';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage, type RunScript } from '../../helpers/scripted-agent';

/** The people of these tests, named by a bearer token. */
const PEOPLE: Record<string, Person> = {
  ana: { id: 'ana', name: 'Ana' },
  bob: { id: 'bob', name: 'Bob' },
  carol: { id: 'carol', name: 'Carol', roles: ['finance'] },
  dan: { id: 'dan', name: 'Dan', roles: ['oncall', 'finance'] },
  erin: { id: 'erin', name: 'Erin', roles: ['oncall'] },
};
const NAMES = Object.keys(PEOPLE);
const ROLES = ['finance', 'oncall', 'legal'];
const identify = (request: Request): Person | null => {
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  return token !== undefined ? (PEOPLE[token] ?? null) : null;
};
/** Carol may read the threads whose id says they are shared; no one else reads a thread not theirs. */
const authorize: Authorize = ({ user, threadId, action }) => user.id === 'carol' && action === 'read' && threadId.endsWith('-shared');
/** Each interrupt carries, for these tests, the approvers the policy gives it. */
const policy: ApproversPolicy = ({ interrupt }) => (interrupt.approvers as Approvers | null | undefined) ?? null;

/** An interrupt of a generated thread: its approvers, or null for whoever may answer the thread. */
interface InterruptSpec {
  approvers: { users: string[]; roles: string[]; notTheRequester: boolean } | null;
}
interface ThreadSpec {
  owner: string;
  shared: boolean;
  interrupts: InterruptSpec[];
  /** The owner answers them all afterwards (only when none has approvers). */
  answered: boolean;
}

/** Raises `planned` (ids i-0, i-1, …) on a thread's first run; a resume finishes. */
const raising =
  (planned: readonly InterruptSpec[]): RunScript =>
  (input) => {
    if ((input as { resume?: unknown }).resume)
      return [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)];
    const interrupts = planned.map((spec, index) => ({
      id: `i-${index}`,
      reason: 'tool_approval',
      message: `Request ${index}`,
      ...(spec.approvers ? { approvers: spec.approvers } : {}),
    }));
    return [
      runStarted(input),
      ...textMessage(`ask-${input.runId}`, 'Please approve.'),
      runFinished(input, interrupts.length > 0 ? interruptOutcome(...interrupts) : undefined),
    ];
  };

function runAs(
  runner: InterruptRunner,
  agentId: string,
  token: string,
  threadId: string,
  planned: readonly InterruptSpec[],
  extra: Partial<RunAgentInput> = {},
) {
  const agent = new ScriptedAgent(raising(planned), { agentId }) as ScriptedAgent & { headers: Record<string, string> };
  agent.headers = { authorization: `Bearer ${token}` };
  return collect(runner.run({ threadId, agent, input: inputFor(threadId, extra) }));
}

/** Whether the interrupt waits for `person` by its approvers (four eyes: not for its requester, the owner here). */
function assigned(spec: InterruptSpec, owner: string, person: Person): boolean {
  const { approvers } = spec;
  if (!approvers) return false;
  if (approvers.notTheRequester && owner === person.id) return false;
  return approvers.users.includes(person.id) || approvers.roles.some((role) => person.roles?.includes(role) === true);
}

/** The reference inbox: open interrupts of the threads `person` owns or may read, and open ones assigned to them. */
function expectedInbox(threads: ReadonlyMap<string, ThreadSpec>, person: Person, withAuthorize: boolean): string[] {
  const rows: string[] = [];
  for (const [threadId, thread] of threads) {
    if (thread.answered) continue;
    const reads = thread.owner === person.id || (withAuthorize && person.id === 'carol' && thread.shared);
    thread.interrupts.forEach((spec, index) => {
      if (reads || assigned(spec, thread.owner, person)) rows.push(`${threadId}/i-${index}`);
    });
  }
  return rows.sort();
}

const interruptSpec: fc.Arbitrary<InterruptSpec> = fc.record({
  approvers: fc.option(
    fc.record({
      users: fc.subarray(NAMES, { maxLength: 2 }),
      roles: fc.subarray(ROLES, { maxLength: 2 }),
      notTheRequester: fc.boolean(),
    }),
    { freq: 2 },
  ),
});
const threadSpec: fc.Arbitrary<ThreadSpec> = fc
  .record({
    owner: fc.constantFrom(...NAMES),
    shared: fc.boolean(),
    interrupts: fc.array(interruptSpec, { maxLength: 3 }),
    answered: fc.boolean(),
  })
  .map((thread) => ({
    ...thread,
    answered: thread.answered && thread.interrupts.length > 0 && thread.interrupts.every((spec) => !spec.approvers),
  }));

/** Waits until `check` holds (a stream's events arrive on their own time). */
async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Opens the inbox as EventSource does, as the person of `token`, and collects its events as they come. */
const listen = (url: string, token: string) => listenToEventStream(url, { authorization: `Bearer ${token}` });

const { stores, cleanup } = runnerStores('inbox_scope');

afterAll(cleanup, 60_000);

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('the inbox of each person on the %s store', (kind) => {
  let options: InterruptRunnerOptions;
  let owned: InterruptRunner;
  let shared: InterruptRunner;
  const opened: InterruptRunner[] = [];
  const open = (extra: InterruptRunnerOptions) => {
    const runner = createInterruptRunner({ ...options, expiry: false, ...extra });
    opened.push(runner);
    return runner;
  };

  beforeAll(async () => {
    options = await stores[kind]();
    owned = open({ identify, approvers: policy });
    shared = open({ identify, approvers: policy, authorize });
    await Promise.all([owned.ready(), shared.ready()]);
  }, 60_000);

  afterAll(async () => {
    for (const runner of opened) await runner.close();
  });

  it('given random threads, owners, approvers and viewers, each inbox should list exactly their threads and what is assigned to them', async () => {
    const inboxes = { owned: createInboxHandler({ runner: owned }), shared: createInboxHandler({ runner: shared }) };
    // Approvers that name no one are told to the operator; not what this test is about.
    const original = console.error;
    console.error = () => {};
    onTestFinished(() => {
      console.error = original;
    });
    await fc.assert(
      fc.asyncProperty(fc.array(threadSpec, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 3 }), async (specs, pageSize) => {
        // One agent id per case: the listings below ask for its threads only.
        const agentId = `agent-${randomUUID()}`;
        const threads = new Map<string, ThreadSpec>();
        for (const [index, spec] of specs.entries()) {
          const threadId = `t${index}-${randomUUID()}${spec.shared ? '-shared' : ''}`;
          threads.set(threadId, spec);
          expect((await runAs(owned, agentId, spec.owner, threadId, spec.interrupts)).map((event) => event.type)).not.toContain(
            EventType.RUN_ERROR,
          );
          if (spec.answered) {
            const resume = spec.interrupts.map((_, position) => ({ interruptId: `i-${position}`, status: 'resolved', payload: 'ok' }));
            expect((await runAs(owned, agentId, spec.owner, threadId, [], { resume } as never)).map((event) => event.type)).not.toContain(
              EventType.RUN_ERROR,
            );
          }
        }
        for (const name of NAMES) {
          const person = PEOPLE[name]!;
          for (const [which, inbox] of Object.entries(inboxes)) {
            const response = await inbox(
              new Request(`http://app.test/api/inbox?agentId=${encodeURIComponent(agentId)}`, {
                headers: { authorization: `Bearer ${name}` },
              }),
            );
            expect(response.status).toBe(200);
            const listed = ((await response.json()) as InboxResponse).interrupts.map((row) => `${row.threadId}/${row.interruptId}`);
            expect(listed.sort()).toEqual(expectedInbox(threads, person, which === 'shared'));
          }
          // Paged, the listing is the same rows in the same order.
          const whole = await shared.listInterruptsFor(person, { agentId, status: 'open' });
          const paged: typeof whole = [];
          let cursor: string | undefined;
          for (;;) {
            const page = await shared.listInterruptsFor(person, {
              agentId,
              status: 'open',
              limit: pageSize,
              ...(cursor ? { cursor } : {}),
            });
            paged.push(...page);
            if (page.length < pageSize) break;
            cursor = page[page.length - 1]!.cursor;
          }
          expect(paged.map((row) => row.cursor)).toEqual(whole.map((row) => row.cursor));
          // assignedTo lists what waits for them by their approvers, four eyes applied, whatever the thread.
          const byApprovers = await owned.listInterrupts({ agentId, assignedTo: person });
          const expected = [...threads].flatMap(([threadId, thread]) =>
            thread.interrupts.flatMap((spec, index) => (assigned(spec, thread.owner, person) ? [`${threadId}/i-${index}`] : [])),
          );
          expect(byApprovers.map((row) => `${row.threadId}/${row.interruptId}`).sort()).toEqual(expected.sort());
        }
      }),
      { numRuns: 40 },
    );
  }, 240_000);

  it("given a deploy assigned to Dan on Ana's thread, Dan's inbox should list it and he should read and answer the thread; Bob should learn nothing", async () => {
    const agentId = 'default';
    const threadId = `deploy-${randomUUID()}`;
    const deploy = [{ approvers: { users: ['dan'], roles: [], notTheRequester: false } }, { approvers: null }];
    await runAs(owned, agentId, 'ana', threadId, deploy);
    const agent = new ScriptedAgent(raising([]));
    const served = await serveRuntime(new CopilotRuntime({ agents: { default: agent }, runner: owned }));
    const inbox = await serveFetchHandlers({ '/api/inbox': createInboxHandler({ runner: owned }) });
    try {
      const list = async (token: string, query = '') => {
        const response = await fetch(`${inbox.origin}/api/inbox${query}`, { headers: { authorization: `Bearer ${token}` } });
        return { status: response.status, body: (await response.json()) as InboxResponse };
      };
      const mine = (rows: InboxResponse['interrupts']) => rows.filter((row) => row.threadId === threadId).map((row) => row.interruptId);
      // Ana sees both requests of her thread; Dan only the one assigned to him; Bob nothing.
      expect(mine((await list('ana')).body.interrupts)).toEqual(['i-0', 'i-1']);
      expect(mine((await list('dan')).body.interrupts)).toEqual(['i-0']);
      expect(mine((await list('bob')).body.interrupts)).toEqual([]);
      // Asked by thread id, Bob is answered as for a thread that does not exist.
      const forBob = await list('bob', `?threadId=${encodeURIComponent(threadId)}`);
      const nowhere = await list('bob', `?threadId=${encodeURIComponent(`nowhere-${randomUUID()}`)}`);
      expect(forBob).toEqual({ status: 200, body: { interrupts: [] } });
      expect(nowhere).toEqual(forBob);

      const as = (token: string, path: 'run' | 'connect') => clientAs(served.url, threadId, token, path);
      const seen = eventsOf;
      // Dan reads the thread he was asked to approve on, and answers his request.
      const danReads = as('dan', 'connect');
      await seen(danReads);
      expect(danReads.messages.map((message) => message.content)).toContain('Please approve.');
      const danAnswers = await seen(as('dan', 'run'), {
        resume: [{ interruptId: 'i-0', status: 'resolved', payload: { approved: true } }],
      });
      expect(danAnswers.filter((event) => event.type === EventType.RUN_ERROR)).toEqual([]);
      expect(mine((await list('dan')).body.interrupts)).toEqual([]);
      expect(mine((await list('dan', '?status=resolved')).body.interrupts)).toEqual(['i-0']);
      expect((await owned.listInterrupts({ threadId, answeredById: 'dan' })).map((row) => row.interruptId)).toEqual(['i-0']);
      // Bob: not one event of the thread.
      const bobSees = await seen(as('bob', 'connect'));
      expect(bobSees.filter((event) => event.type !== EventType.RUN_ERROR)).toEqual([]);
      expect(mine((await list('bob', '?status=all')).body.interrupts)).toEqual([]);
      // The threads listed as Dan's to approve, by id and by role.
      expect((await owned.listThreads({ assignedTo: { id: 'dan' } })).map((thread) => thread.id)).toContain(threadId);
      expect((await owned.listThreads({ assignedTo: { id: 'bob', roles: ['legal'] } })).map((thread) => thread.id)).not.toContain(threadId);
      expect((await owned.listThreads({ answeredById: 'dan' })).map((thread) => thread.id)).toContain(threadId);
      expect((await owned.listThreads({ answeredById: 'ana' })).map((thread) => thread.id)).not.toContain(threadId);
    } finally {
      await inbox.close();
      await served.close();
    }
  });

  it('given the inbox stream asked for a thread, only people who may read it should hear of its changes, its owner from its first run', async () => {
    const inbox = await serveFetchHandlers({ '/api/inbox': createInboxHandler({ runner: owned }) });
    const threadId = `watched-${randomUUID()}`;
    const streams = Object.fromEntries(
      await Promise.all(
        ['ana', 'bob', 'dan'].map(
          async (token) => [token, await listen(`${inbox.origin}/api/inbox?threadId=${encodeURIComponent(threadId)}`, token)] as const,
        ),
      ),
    );
    try {
      // Opened before the thread has run: Ana's first run makes it hers, and she hears of it.
      await until(() => Object.values(streams).every((stream) => stream.events.some((event) => event.event === 'inbox')));
      await runAs(owned, 'default', 'ana', threadId, [{ approvers: { users: ['dan'], roles: [], notTheRequester: false } }]);
      await until(() => streams.ana!.events.some((event) => event.event === 'thread'));
      await until(() => streams.dan!.events.some((event) => event.event === 'thread'));
      // Dan answers: Ana and Dan hear it; Bob has heard nothing of the thread, not even that it changed.
      const heard = streams.ana!.events.filter((event) => event.event === 'thread').length;
      await runAs(owned, 'default', 'dan', threadId, [], { resume: [{ interruptId: 'i-0', status: 'resolved', payload: 'ok' }] } as never);
      await until(() => streams.ana!.events.filter((event) => event.event === 'thread').length > heard);
      expect(streams.bob!.events.filter((event) => event.event === 'thread')).toEqual([]);
      expect(streams.bob!.events.filter((event) => event.event === 'inbox').map((event) => event.data)).toEqual([{ interrupts: [] }]);
    } finally {
      for (const stream of Object.values(streams)) await stream.close();
      await inbox.close();
    }
  });

  it('given a bad assignedTo, the listings should refuse it as a bad query', async () => {
    for (const bad of [{}, { id: '' }, { id: 42 }, { roles: 'finance' }, { roles: [1] }, 'dan'] as unknown[]) {
      await expect(owned.listInterrupts({ assignedTo: bad as never })).rejects.toMatchObject({ code: 'bad_query' });
      await expect(owned.listThreads({ assignedTo: bad as never })).rejects.toMatchObject({ code: 'bad_query' });
    }
    // Ids and roles of any content are matched exactly, never spliced.
    expect(await owned.listInterrupts({ assignedTo: { id: "dan' OR '1'='1", roles: ['\u0000', '"'] } })).toEqual([]);
  });

  it('given a schema-5 store with an assigned interrupt, the upgrade should let its approver find it', async () => {
    const fresh = await stores[kind]();
    const v5 = fresh.url ? await openPostgres(fresh.url, 1) : await openEmbedded(fresh.dataDir!);
    const assignment = {
      anyone: false,
      users: [{ id: 'dan', name: 'Dan' }],
      roles: ['legal'],
      notTheRequester: true,
      requester: { id: 'ana', name: 'Ana' },
    };
    // As a version-5 runner wrote it: the assignment only inside the interrupt's JSON (here with a NUL jsonb refuses).
    const interrupt = JSON.stringify({
      id: 'i-old',
      reason: 'tool_approval',
      message: 'Old\u0000request',
      'copilotkit-interrupts:assignment': assignment,
    });
    try {
      await ensureSchema(v5, MIGRATIONS.slice(0, 5));
      await v5.query(
        `INSERT INTO cki_threads (thread_key, agent_id, created_at, updated_at, owner_id, owner_name) VALUES ('"old"', 'default', 1, 1, '"ana"', '"Ana"')`,
      );
      await v5.query(
        `INSERT INTO cki_interrupts (thread_key, interrupt_hash, interrupt_key, reason, raised_at, status, agent_id, interrupt, position, owner_id)
         VALUES ('"old"', 'h-old', '"i-old"', '"tool_approval"', 1, 'open', 'default', $1, 0, '"ana"')`,
        [interrupt],
      );
    } finally {
      await v5.close();
    }
    const upgraded = createInterruptRunner({ ...fresh, expiry: false, identify, approvers: policy });
    opened.push(upgraded);
    await upgraded.ready();
    expect((await upgraded.listInterruptsFor(PEOPLE.dan!)).map((row) => row.interruptId)).toEqual(['i-old']);
    expect((await upgraded.listInterrupts({ assignedTo: { roles: ['legal'] } })).map((row) => row.interruptId)).toEqual(['i-old']);
    // Four eyes: Ana, who raised it, is not its approver even by name.
    expect(await upgraded.listInterrupts({ assignedTo: { id: 'ana', roles: ['legal'] } })).toEqual([]);
    expect(await upgraded.listInterruptsFor(PEOPLE.bob!)).toEqual([]);
    expect((await upgraded.listInterrupts({ threadId: 'old' }))[0]).toMatchObject({
      message: 'Old\u0000request',
      approvers: { users: [{ id: 'dan' }] },
    });
  });
});
