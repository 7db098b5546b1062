import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import type { BaseEvent, RunAgentInput } from '@ag-ui/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInboxHandler, createInterruptRunner, type InboxInterrupt, type InterruptRunner } from '../../../src/runner';
import pg from 'pg';
import { mastraQuestionInterrupt, mastraScheduleInterrupt } from '../../fixtures/interrupts';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage, type RunScript } from '../../helpers/scripted-agent';

const collect = (events: Observable<BaseEvent>) => lastValueFrom(events.pipe(toArray()));

function inputFor(threadId: string, extra: Partial<RunAgentInput> & { resume?: unknown } = {}): RunAgentInput {
  return { threadId, runId: randomUUID(), messages: [], state: {}, tools: [], context: [], forwardedProps: {}, ...extra } as RunAgentInput;
}

/** Raises `interrupts` on the first run of a thread; a resume ends the thread with "Done.". */
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

const approval = (id: string, title: string) => ({
  id,
  reason: 'aidev:tool_approval',
  toolCallId: `call-${id}`,
  message: `Approve ${title}?`,
  expiresAt: '2030-01-01T00:00:00.000Z',
  metadata: {
    ticket: { title, sn: id, url: 'https://tickets.example/1', status: 'pending', approvers: ['ops'], submit_time: '2026-01-01' },
  },
});

const question = (id: string, header: string) => ({
  id,
  reason: 'aidev:user_question',
  toolCallId: `call-${id}`,
  metadata: { questions: [{ header, question: 'Which one?', options: [{ label: 'A' }, { label: 'B' }] }] },
});

let cluster: PostgresCluster;
let runner: InterruptRunner;
let databaseUrl: string;

beforeAll(async () => {
  cluster = await startPostgres();
  databaseUrl = await cluster.createDatabase('inbox');
  runner = createInterruptRunner({ url: databaseUrl, pollIntervalMs: 20 });
  await runner.ready();
}, 60_000);

afterAll(async () => {
  await runner?.close();
  await cluster?.stop();
});

const get = async (handler: (request: Request) => Promise<Response>, query = '', init?: RequestInit) => {
  const response = await handler(new Request(`http://app.test/api/inbox${query}`, init));
  return { status: response.status, body: (await response.json()) as { interrupts?: InboxInterrupt[]; error?: string } };
};

const raise = async (threadId: string, ...interrupts: unknown[]) => {
  const agent = new ScriptedAgent(raising(...interrupts));
  await collect(runner.run({ threadId, agent, input: inputFor(threadId) }));
  return agent;
};

const answer = (threadId: string, agent: ScriptedAgent, resume: unknown[]) =>
  collect(runner.run({ threadId, agent, input: inputFor(threadId, { resume } as Partial<RunAgentInput>) }));

describe('createInboxHandler on a runner backed by PostgreSQL', () => {
  it('given a thread that raises interrupts, GET should list them open with reason, title, message and expiry, and drop them once answered', async () => {
    const handler = createInboxHandler({ runner });
    const threadId = `inbox-${randomUUID()}`;
    const agent = await raise(threadId, approval('i-deploy', 'Deploy to production'), question('i-pick', 'Pick a region'));

    const listed = (await get(handler)).body.interrupts!.filter((row) => row.threadId === threadId);
    expect(listed).toEqual([
      expect.objectContaining({
        interruptId: 'i-deploy',
        reason: 'aidev:tool_approval',
        title: 'Deploy to production',
        message: 'Approve Deploy to production?',
        expiresAt: '2030-01-01T00:00:00.000Z',
        status: 'open',
        answeredAt: null,
      }),
      expect.objectContaining({
        interruptId: 'i-pick',
        reason: 'aidev:user_question',
        title: 'Pick a region',
        message: null,
        expiresAt: null,
      }),
    ]);
    expect(Number.isNaN(Date.parse(listed[0]!.raisedAt))).toBe(false);

    await answer(threadId, agent, [
      { interruptId: 'i-deploy', status: 'resolved', payload: { approved: true } },
      { interruptId: 'i-pick', status: 'cancelled' },
    ]);
    const after = await get(handler);
    expect(after.status).toBe(200);
    expect(after.body.interrupts!.some((row) => row.threadId === threadId)).toBe(false);

    const resolved = await get(handler, `?status=resolved&threadId=${encodeURIComponent(threadId)}`);
    expect(resolved.body.interrupts!.map((row) => [row.interruptId, row.status])).toEqual([['i-deploy', 'resolved']]);
    const all = await get(handler, `?status=all&threadId=${encodeURIComponent(threadId)}`);
    expect(all.body.interrupts!.map((row) => row.status).sort()).toEqual(['cancelled', 'resolved']);
  });

  it('given Mastra suspends, GET should list the reason the cards read (lifted from the suspend payload) and a title from it', async () => {
    const handler = createInboxHandler({ runner });
    const threadId = `mastra-${randomUUID()}`;
    await raise(threadId, mastraScheduleInterrupt, mastraQuestionInterrupt);
    const listed = (await get(handler, `?threadId=${encodeURIComponent(threadId)}`)).body.interrupts!;
    expect(listed.map(({ interruptId, reason, title, message }) => ({ interruptId, reason, title, message }))).toEqual([
      { interruptId: mastraScheduleInterrupt.id, reason: 'mastra:tool_suspend', title: 'Intro with sales', message: null },
      { interruptId: mastraQuestionInterrupt.id, reason: 'aidev:user_question', title: 'Implementation', message: 'A few questions first' },
    ]);
  });

  it('given the stored RUN_FINISHED of a run no longer parses, its interrupts should still be listed with their title (the row holds the interrupt)', async () => {
    const handler = createInboxHandler({ runner });
    const threadId = `broken-${randomUUID()}`;
    await raise(threadId, approval('i-broken', 'Lost title'));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const updated = await client.query(
        `UPDATE cki_events SET payload = '{"type":"RUN_FINISHED", broken' WHERE strpos(payload, '"RUN_FINISHED"') > 0
           AND run_pk IN (SELECT run_pk FROM cki_runs WHERE thread_key = $1)`,
        [JSON.stringify(threadId)],
      );
      expect(updated.rowCount).toBe(1);
    } finally {
      await client.end();
    }
    const listed = (await get(handler, `?threadId=${encodeURIComponent(threadId)}`)).body.interrupts!;
    expect(listed).toEqual([
      expect.objectContaining({ interruptId: 'i-broken', reason: 'aidev:tool_approval', title: 'Lost title', status: 'open' }),
    ]);
  });

  it('given a filter and resolveUser, GET should list only the threads the requesting user may see, and refuse an unknown user', async () => {
    const owners = new Map<string, string>();
    const mine = `alice-${randomUUID()}`;
    const theirs = `bob-${randomUUID()}`;
    owners.set(mine, 'alice').set(theirs, 'bob');
    await raise(mine, approval('i-a', 'Alice pays'));
    await raise(theirs, approval('i-b', 'Bob pays'));
    const handler = createInboxHandler({
      runner,
      resolveUser: (request) => request.headers.get('x-user'),
      filter: (interrupt, user) => owners.get(interrupt.threadId) === user,
    });

    const alice = await get(handler, '', { headers: { 'x-user': 'alice' } });
    expect(alice.body.interrupts!.map((row) => row.threadId)).toEqual([mine]);
    const bob = await get(handler, '', { headers: { 'x-user': 'bob' } });
    expect(bob.body.interrupts!.map((row) => row.threadId)).toEqual([theirs]);
    const stranger = await get(handler);
    expect(stranger.status).toBe(401);
    expect(stranger.body.error).toMatch(/sign in/);
    expect(stranger.body.interrupts).toBeUndefined();
  });

  it('given a filter that throws, GET should answer 500 and list nothing rather than every thread', async () => {
    await raise(`leak-${randomUUID()}`, approval('i-leak', 'Secret'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const handler = createInboxHandler({
        runner,
        filter: () => {
          throw new Error('directory down');
        },
      });
      const { status, body } = await get(handler);
      expect(status).toBe(500);
      expect(body.interrupts).toBeUndefined();
      expect(error).toHaveBeenCalledWith(expect.stringContaining('directory down'));
    } finally {
      error.mockRestore();
    }
  });

  it('given any status other than open, resolved, cancelled, changed or all, GET should answer 400 naming the allowed values', async () => {
    const handler = createInboxHandler({ runner });
    await fc.assert(
      fc.asyncProperty(
        fc.string().filter((value) => !['open', 'resolved', 'cancelled', 'changed', 'all'].includes(value)),
        async (status) => {
          const { status: code, body } = await get(handler, `?status=${encodeURIComponent(status)}`);
          expect(code).toBe(400);
          expect(body.error).toContain('status must be one of open, resolved, cancelled, changed, all');
        },
      ),
      { numRuns: 25 },
    );
  });

  it('given a method other than GET, the handler should answer 405 and list nothing', async () => {
    const handler = createInboxHandler({ runner });
    const response = await handler(new Request('http://app.test/api/inbox', { method: 'POST', body: '{}' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
