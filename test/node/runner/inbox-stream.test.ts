import { randomUUID } from 'node:crypto';
import type { BaseEvent, RunAgentInput } from '@ag-ui/client';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInboxHandler, createInterruptRunner, type InboxInterrupt, type InterruptRunner } from '../../../src/runner';
import { listenToEventStream } from '../../helpers/event-stream-listener';
import { serveFetchHandlers } from '../../helpers/fetch-handler-server';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../../helpers/scripted-agent';

const collect = (events: Observable<BaseEvent>) => lastValueFrom(events.pipe(toArray()));
const inputFor = (threadId: string, extra: { resume?: unknown } = {}): RunAgentInput =>
  ({ threadId, runId: randomUUID(), messages: [], state: {}, tools: [], context: [], forwardedProps: {}, ...extra }) as RunAgentInput;

/** A thread's agent: its first run asks `ask-<thread>`, a resume says "Done.". */
const agentFor = (threadId: string) =>
  new ScriptedAgent((input) =>
    (input as { resume?: unknown }).resume
      ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)]
      : [runStarted(input), runFinished(input, interruptOutcome({ id: `ask-${threadId}`, reason: 'tool_approval' }))],
  );

/** The inbox's stream, with the lists it sent. */
async function listen(url: string) {
  const stream = await listenToEventStream(url);
  const lists = () => stream.events.filter((e) => e.event === 'inbox').map((e) => (e.data as { interrupts: InboxInterrupt[] }).interrupts);
  return { ...stream, lists };
}

const until = (check: () => boolean) => expect.poll(check, { timeout: 15_000, interval: 20 }).toBe(true);

describe('the inbox endpoint as server-sent events, over real HTTP, on PostgreSQL with two instances', () => {
  let cluster: PostgresCluster;
  let served: InterruptRunner;
  let other: InterruptRunner;
  let server: Awaited<ReturnType<typeof serveFetchHandlers>>;

  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase('inbox_stream');
    served = createInterruptRunner({ url, expiry: false });
    other = createInterruptRunner({ url, expiry: false });
    await Promise.all([served.ready(), other.ready()]);
    server = await serveFetchHandlers({
      '/inbox': createInboxHandler({ runner: served }),
      '/polled': createInboxHandler({ runner: { listInterrupts: (query) => served.listInterrupts(query) } }),
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await served?.close();
    await other?.close();
    await cluster?.stop();
  }, 60_000);

  it('given an inbox open as a stream, an interrupt raised and answered on another instance should show and go without a reload', async () => {
    const threadId = `sse-${randomUUID()}`;
    const inbox = await listen(`${server.origin}/inbox?agentId=default`);
    try {
      expect(inbox.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await until(() => inbox.lists().length === 1);
      expect(inbox.lists()[0]!.some((row) => row.threadId === threadId)).toBe(false);

      await collect(other.run({ threadId, agent: agentFor(threadId), input: inputFor(threadId) }));
      await until(() =>
        inbox
          .lists()
          .at(-1)!
          .some((row) => row.threadId === threadId),
      );

      const answered = await collect(
        other.run({
          threadId,
          agent: agentFor(threadId),
          input: inputFor(threadId, { resume: [{ interruptId: `ask-${threadId}`, status: 'resolved' }] }),
        }),
      );
      expect(answered.filter((event) => event.type === 'RUN_ERROR')).toEqual([]);
      await until(
        () =>
          !inbox
            .lists()
            .at(-1)!
            .some((row) => row.threadId === threadId),
      );
    } finally {
      await inbox.close();
    }
  });

  it("given a stream for one thread, each committed change of that thread should arrive as a thread event, and no other thread's", async () => {
    const threadId = `watch-${randomUUID()}`;
    const elsewhere = `else-${randomUUID()}`;
    const watching = await listen(`${server.origin}/inbox?threadId=${encodeURIComponent(threadId)}&status=all`);
    try {
      await until(() => watching.lists().length === 1);
      await collect(other.run({ threadId: elsewhere, agent: agentFor(elsewhere), input: inputFor(elsewhere) }));
      await collect(other.run({ threadId, agent: agentFor(threadId), input: inputFor(threadId) }));
      await until(() =>
        watching
          .lists()
          .at(-1)!
          .some((row) => row.status === 'open'),
      );
      await collect(
        other.run({
          threadId,
          agent: agentFor(threadId),
          input: inputFor(threadId, { resume: [{ interruptId: `ask-${threadId}`, status: 'cancelled' }] }),
        }),
      );
      await until(() =>
        watching
          .lists()
          .at(-1)!
          .some((row) => row.status === 'cancelled'),
      );
      const threadEvents = watching.events.filter((e) => e.event === 'thread').map((e) => e.data as { threadId: string; seq: number });
      expect(threadEvents.length).toBeGreaterThanOrEqual(2);
      expect(threadEvents.every((e) => e.threadId === threadId)).toBe(true);
      expect(threadEvents.map((e) => e.seq)).toEqual([...threadEvents.map((e) => e.seq)].sort((a, b) => a - b));
    } finally {
      await watching.close();
    }
  });

  it('given a runner that cannot tell of changes, a stream request should be refused with 406 so the client polls, and JSON still served', async () => {
    const refused = await fetch(`${server.origin}/polled`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(406);
    expect(((await refused.json()) as { error: string }).error).toMatch(/poll instead/);
    const polled = await fetch(`${server.origin}/polled`);
    expect(polled.status).toBe(200);
    expect(Array.isArray(((await polled.json()) as { interrupts: unknown }).interrupts)).toBe(true);
  });
});
