import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent, type Message, type RunAgentInput } from '@ag-ui/client';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInterruptRunner,
  type ApproversPolicy,
  type InterruptRunner,
  type InterruptRunnerOptions,
  type Person,
} from '../../../src/runner';
import { INTERRUPT_PEOPLE_KEY, type InterruptPeople } from '../../../src/protocol';
import { clientAs, eventsOf } from '../../helpers/runtime-client';
import { collect, inputFor, runnerStores } from '../../helpers/runner-stores';
import { serveRuntime } from '../../helpers/runtime-server';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage, type RunScript } from '../../helpers/scripted-agent';

const errorsOf = (events: BaseEvent[]) => events.filter((event) => event.type === EventType.RUN_ERROR) as Array<Record<string, unknown>>;
const userMessage = (id: string, content: string): Message => ({ id, role: 'user', content }) as Message;

/** Asks to deploy on a thread's first run (a tool approval naming its tool); a resume says "Deployed." and finishes. */
const deploying: RunScript = (input) =>
  (input as { resume?: unknown }).resume
    ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Deployed.'), runFinished(input)]
    : [
        runStarted(input),
        ...textMessage(`ask-${input.runId}`, 'Deploy to production?'),
        runFinished(input, interruptOutcome({ id: 'i-deploy', reason: 'tool_approval', message: 'Deploy?', toolName: 'deploy' })),
      ];

/** The people of these tests, named by a bearer token. */
const PEOPLE: Record<string, Person> = {
  ana: { id: 'ana', name: 'Ana' },
  bob: { id: 'bob', name: 'Bob' },
  dan: { id: 'dan', name: 'Dan', roles: ['oncall'] },
  erin: { id: 'erin', name: 'Erin', roles: ['oncall'] },
};
const identify = (request: Request): Person | null => {
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  return token !== undefined ? (PEOPLE[token] ?? null) : null;
};

function runAs(runner: InterruptRunner, token: string, threadId: string, extra: Partial<RunAgentInput> & { resume?: unknown } = {}) {
  const agent = new ScriptedAgent(deploying) as ScriptedAgent & { headers: Record<string, string> };
  agent.headers = { authorization: `Bearer ${token}` };
  return { agent, events: collect(runner.run({ threadId, agent, input: inputFor(threadId, extra) })) };
}
const connectAs = (runner: InterruptRunner, token: string, threadId: string) =>
  collect(runner.connect({ threadId, agentId: 'default', headers: { authorization: `Bearer ${token}` } }));
const approve = { resume: [{ interruptId: 'i-deploy', status: 'resolved' as const, payload: { approved: true } }] };

/** What the stream tells its viewer of the deploy interrupt (on the RUN_FINISHED that raised it). */
function peopleIn(events: BaseEvent[]): InterruptPeople | undefined {
  for (const event of events) {
    const outcome = (event as { outcome?: { interrupts?: Array<{ id: string; metadata?: Record<string, unknown> }> } }).outcome;
    const interrupt = outcome?.interrupts?.find((candidate) => candidate.id === 'i-deploy');
    if (interrupt) return interrupt.metadata?.[INTERRUPT_PEOPLE_KEY] as InterruptPeople | undefined;
  }
  return undefined;
}

/** Runs `work` with console.error captured: what the operator was told. */
async function logged<T>(work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    return { result: await work(), lines };
  } finally {
    console.error = original;
  }
}

const { stores, cleanup } = runnerStores('approvers');

afterAll(cleanup, 60_000);

/** Deploys wait for Dan by name; a thread whose id says so waits for the on-call role, four eyes; one says "nobody". */
const policy: ApproversPolicy = ({ toolName, threadId }) => {
  if (threadId.startsWith('nobody-')) return { users: [] };
  if (threadId.startsWith('four-eyes-')) return { roles: ['oncall'], notTheRequester: true };
  return toolName === 'deploy' ? { users: [{ id: 'dan', name: 'Dan' }] } : null;
};

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('approvers in the durable runner on the %s store', (kind) => {
  let options: InterruptRunnerOptions;
  let runner: InterruptRunner;
  let second: InterruptRunner;
  const opened: InterruptRunner[] = [];
  const open = (extra: InterruptRunnerOptions) => {
    const created = createInterruptRunner({ ...options, ...extra });
    opened.push(created);
    return created;
  };

  beforeAll(async () => {
    options = await stores[kind]();
    runner = open({ identify, approvers: policy });
    second = open({ identify, approvers: policy });
    await Promise.all([runner.ready(), second.ready()]);
  }, 60_000);

  afterAll(async () => {
    for (const created of opened) await created.close();
  });

  it('given a deploy assigned to Dan, only Dan should answer it, and each viewer should be told who it waits for and who answered', async () => {
    const threadId = `deploy-${randomUUID()}`;
    const asked = await runAs(runner, 'ana', threadId).events;
    // Ana, who asked, is told it waits for Dan and that she may not answer.
    expect(peopleIn(asked)).toEqual({ viewerMayAnswer: false, waitingFor: [{ id: 'dan', name: 'Dan' }] });

    // Ana sends the approval anyway (a browser that ignores the read-only card): refused before the agent hears it.
    const anaAnswer = runAs(runner, 'ana', threadId, approve);
    expect(errorsOf(await anaAnswer.events)).toEqual([expect.objectContaining({ code: 'not_an_approver' })]);
    expect(anaAnswer.agent.runs).toHaveLength(0);
    // Bob, who is neither the owner nor named, reaches nothing.
    expect(await connectAs(runner, 'bob', threadId)).toEqual([expect.objectContaining({ code: 'forbidden' })]);
    expect(errorsOf(await runAs(runner, 'bob', threadId, approve).events)).toEqual([expect.objectContaining({ code: 'forbidden' })]);
    const [open_] = await runner.listInterrupts({ threadId });
    expect(open_).toMatchObject({
      status: 'open',
      approvers: { users: [{ id: 'dan', name: 'Dan' }], roles: [], notTheRequester: false, requester: { id: 'ana', name: 'Ana' } },
    });
    // The row's interrupt is the one the run raised: the approvers are kept beside it, not in it.
    expect(Object.keys(open_!.interrupt as object).sort()).toEqual(['id', 'message', 'reason', 'toolName']);

    // Dan does not own the thread, yet may read it (to see what he approves) and answer it.
    expect(peopleIn(await connectAs(runner, 'dan', threadId))).toEqual({
      viewerMayAnswer: true,
      waitingFor: [{ id: 'dan', name: 'Dan' }],
    });
    const danAnswer = runAs(runner, 'dan', threadId, approve);
    expect(errorsOf(await danAnswer.events)).toEqual([]);
    expect(danAnswer.agent.runs).toHaveLength(1);
    const [row] = await runner.listInterrupts({ threadId });
    expect(row).toMatchObject({ status: 'resolved', answeredBy: { id: 'dan', name: 'Dan' } });

    // Ana's replay says Dan answered, and when; Dan's would say it was him.
    const told = peopleIn(await connectAs(runner, 'ana', threadId));
    expect(told).toEqual({
      viewerMayAnswer: false,
      waitingFor: [{ id: 'dan', name: 'Dan' }],
      answeredBy: { id: 'dan', name: 'Dan', at: row!.answeredAt, isViewer: false },
    });
  });

  it('given four eyes, the person whose run raised it should be refused and another with the role should answer', async () => {
    const threadId = `four-eyes-${randomUUID()}`;
    // Dan (on call) asks on his own thread: he may not approve his own request.
    expect(peopleIn(await runAs(runner, 'dan', threadId).events)).toEqual({
      viewerMayAnswer: false,
      waitingFor: [{ role: 'oncall' }],
    });
    const own = runAs(runner, 'dan', threadId, approve);
    expect(errorsOf(await own.events)).toEqual([expect.objectContaining({ code: 'four_eyes' })]);
    expect(own.agent.runs).toHaveLength(0);
    // Bob has no role: not an approver, and the thread is not his.
    expect(errorsOf(await runAs(runner, 'bob', threadId, approve).events)).toEqual([expect.objectContaining({ code: 'forbidden' })]);
    expect(peopleIn(await connectAs(runner, 'erin', threadId))).toMatchObject({ viewerMayAnswer: true });
    expect(errorsOf(await runAs(runner, 'erin', threadId, approve).events)).toEqual([]);
    expect((await runner.listInterrupts({ threadId }))[0]).toMatchObject({ status: 'resolved', answeredBy: { id: 'erin' } });
  });

  it('given two approvers answering at once on two instances, exactly one answer should count', async () => {
    const threadId = `four-eyes-race-${randomUUID()}`;
    await runAs(runner, 'ana', threadId).events;
    const dan = runAs(runner, 'dan', threadId, approve);
    const erin = runAs(second, 'erin', threadId, { resume: [{ interruptId: 'i-deploy', status: 'cancelled' }] });
    const outcomes = await Promise.all([dan.events, erin.events]);
    const refused = outcomes.filter((events) => errorsOf(events).length > 0);
    expect(refused).toHaveLength(1);
    expect(errorsOf(refused[0]!)).toEqual([expect.objectContaining({ code: 'interrupt_already_answered' })]);
    expect(dan.agent.runs.length + erin.agent.runs.length).toBe(1);
    const [row] = await runner.listInterrupts({ threadId });
    expect(row!.answeredBy!.id).toBe(dan.agent.runs.length === 1 ? 'dan' : 'erin');
  });

  it('given approvers that name no one or a policy that throws, no one should answer, and the operator should be told once', async () => {
    const threadId = `nobody-${randomUUID()}`;
    const { result: asked, lines } = await logged(() => runAs(runner, 'ana', threadId).events);
    expect(peopleIn(asked)).toEqual({ viewerMayAnswer: false, waitingFor: [], noOne: true });
    expect(lines.filter((line) => line.includes('named no one'))).toHaveLength(1);
    for (const token of ['ana', 'dan']) {
      const answer = runAs(runner, token, threadId, approve);
      expect(errorsOf(await answer.events)).toEqual([expect.objectContaining({ code: token === 'ana' ? 'not_an_approver' : 'forbidden' })]);
      expect(answer.agent.runs).toHaveLength(0);
    }

    const throwing = open({
      identify,
      approvers: () => {
        throw new Error('directory down');
      },
    });
    const failed = `thrown-${randomUUID()}`;
    const raised = await logged(() => runAs(throwing, 'ana', failed).events);
    expect(raised.lines.filter((line) => line.includes('approvers threw'))).toHaveLength(1);
    const refused = await runAs(throwing, 'ana', failed, approve).events;
    expect(errorsOf(refused)).toEqual([expect.objectContaining({ code: 'not_an_approver' })]);
    expect((await throwing.listInterrupts({ threadId: failed }))[0]).toMatchObject({ status: 'open', approvers: { users: [], roles: [] } });

    // Approvers that are not approvers (a string, ids that are not text) name no one rather than anyone.
    const garbled = open({ identify, approvers: (() => ({ users: [42, ''] })) as unknown as ApproversPolicy });
    const odd = `garbled-${randomUUID()}`;
    await logged(() => runAs(garbled, 'ana', odd).events);
    expect(errorsOf(await runAs(garbled, 'ana', odd, approve).events)).toEqual([expect.objectContaining({ code: 'not_an_approver' })]);
  });

  it('given CopilotRuntime over HTTP, an approval sent by the requester should be refused and the approver recorded', async () => {
    const served = await serveRuntime(new CopilotRuntime({ agents: { default: new ScriptedAgent(deploying) }, runner }));
    try {
      const threadId = `http-${randomUUID()}`;
      const as = (token: string, path: 'run' | 'connect') => clientAs(served.url, threadId, token, path);
      const seen = eventsOf;
      const ana = as('ana', 'run');
      ana.addMessage(userMessage('u-deploy', 'Deploy the release'));
      expect(peopleIn(await seen(ana))).toMatchObject({ viewerMayAnswer: false, waitingFor: [{ id: 'dan', name: 'Dan' }] });

      const anaApproves = await seen(as('ana', 'run'), approve);
      expect(errorsOf(anaApproves)).toEqual([expect.objectContaining({ code: 'not_an_approver' })]);
      expect(peopleIn(await seen(as('dan', 'connect')))).toMatchObject({ viewerMayAnswer: true });
      expect(errorsOf(await seen(as('dan', 'run'), approve))).toEqual([]);
      expect(peopleIn(await seen(as('ana', 'connect')))).toMatchObject({ answeredBy: { id: 'dan', name: 'Dan', isViewer: false } });
      expect((await runner.listInterrupts({ threadId }))[0]).toMatchObject({ status: 'resolved', answeredBy: { id: 'dan' } });
    } finally {
      await served.close();
    }
  });
});
