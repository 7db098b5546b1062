import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseEvent, RunAgentInput } from '@ag-ui/client';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { onThreadChanged } from '../../../src/controller/thread-changes';
import { PendingInterruptsSource, type PendingInterruptsOptions } from '../../../src/inbox';
import { createInboxHandler, createInterruptRunner, type InterruptRunner, type InterruptRunnerOptions } from '../../../src/runner';
import { serveFetchHandlers, type FetchHandler } from '../../helpers/fetch-handler-server';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../../helpers/scripted-agent';
import { emptyEmbeddedStore } from '../../helpers/embedded-store';

// The inbox's client (PendingInterruptsSource, what usePendingInterrupts reads) against the real
// inbox endpoint over HTTP, on a durable runner. A second runner instance on the same store plays
// another device's server: what it answers reaches this inbox through the endpoint's stream.

const collect = (events: Observable<BaseEvent>) => lastValueFrom(events.pipe(toArray()));
const inputFor = (threadId: string, resume?: unknown): RunAgentInput =>
  ({
    threadId,
    runId: randomUUID(),
    messages: [],
    state: {},
    tools: [],
    context: [],
    forwardedProps: {},
    ...(resume ? { resume } : {}),
  }) as RunAgentInput;

/** A thread's agent: its first run asks `ask-<thread>`, a resume says "Done.". */
const agentFor = (threadId: string) =>
  new ScriptedAgent((input) =>
    (input as { resume?: unknown }).resume
      ? [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)]
      : [runStarted(input), runFinished(input, interruptOutcome({ id: `ask-${threadId}`, reason: 'tool_approval' }))],
  );

/** The safety-net poll, far beyond any test's wait: only the stream can bring a change in time. */
const NEVER_POLLS = 600_000;
const until = (check: () => boolean, timeout = 10_000) => expect.poll(check, { timeout, interval: 10 }).toBe(true);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: PostgresCluster | undefined;
const tempDirs: string[] = [];

const stores = {
  embedded: async (): Promise<InterruptRunnerOptions> => {
    const dir = mkdtempSync(join(tmpdir(), 'cki-inbox-client-'));
    tempDirs.push(dir);
    return { dataDir: await emptyEmbeddedStore(join(dir, 'store')) };
  },
  PostgreSQL: async (): Promise<InterruptRunnerOptions> => {
    cluster ??= await startPostgres();
    return { url: await cluster.createDatabase('inbox_client') };
  },
};

afterAll(async () => {
  await cluster?.stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('the inbox client on the %s store, over real HTTP', (kind) => {
  /** The instance that serves the inbox, and another on the same store (another device's server). */
  let served: InterruptRunner;
  let other: InterruptRunner;
  let server: Awaited<ReturnType<typeof serveFetchHandlers>>;
  /** Server-side streams open now (the runner's change subscriptions the endpoint holds). */
  let openStreams = 0;
  /** Requests the inbox routes received, by `Accept`. */
  const requests: string[] = [];
  /** Ends every stream open now, as a restart or a proxy's timeout would. */
  const cuts = new Set<AbortController>();
  /** When set, the endpoint cannot tell which interrupts are the user's (its directory is down). */
  let directoryDown = false;
  const sources: Array<() => void> = [];
  let inbox: FetchHandler;

  beforeAll(async () => {
    const options = await stores[kind]();
    served = createInterruptRunner({ ...options, expiry: false });
    other = createInterruptRunner({ ...options, expiry: false });
    await Promise.all([served.ready(), other.ready()]);
    // The served runner, counted: a stream holds one change subscription for as long as it is open.
    const counted = {
      listInterrupts: served.listInterrupts.bind(served),
      subscribeChanges: (listener: Parameters<InterruptRunner['subscribeChanges']>[0]) => {
        openStreams += 1;
        const stop = served.subscribeChanges(listener);
        return () => {
          openStreams -= 1;
          stop();
        };
      },
    };
    inbox = createInboxHandler({ runner: counted });
    const logged =
      (handler: FetchHandler): FetchHandler =>
      (request) => {
        requests.push(request.headers.get('accept') ?? '');
        return handler(request);
      };
    const routes: Record<string, FetchHandler> = {
      '/inbox': logged(inbox),
      // Ends when the test cuts it, not only when the client goes.
      '/cut': logged((request) => {
        const cut = new AbortController();
        cuts.add(cut);
        request.signal.addEventListener('abort', () => cut.abort());
        return inbox(new Request(request, { signal: cut.signal }));
      }),
      // A runner that cannot tell of changes: the endpoint refuses to stream (406).
      '/no-changes': logged(createInboxHandler({ runner: { listInterrupts: (query) => served.listInterrupts(query) } })),
      // An endpoint that ignores `Accept` and always answers JSON.
      '/json-only': logged((request) => inbox(new Request(request.url, { signal: request.signal }))),
      '/filtered': logged(
        createInboxHandler({
          runner: served,
          filter: () => {
            if (directoryDown) throw new Error('directory down');
            return true;
          },
        }),
      ),
    };
    server = await serveFetchHandlers(routes);
  }, 120_000);

  afterEach(() => {
    for (const stop of sources.splice(0)) stop();
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    await server?.close();
    await served?.close();
    await other?.close();
  }, 60_000);

  /** A source subscribed as a mounted hook would be, stopped after the test. */
  const follow = (options: Omit<PendingInterruptsOptions, 'url'> & { path: string }) => {
    const { path, ...rest } = options;
    const source = new PendingInterruptsSource({ url: `${server.origin}${path}`, ...rest });
    const stop = source.subscribe(() => {});
    sources.push(stop);
    return { source, stop, waiting: (threadId: string) => source.getSnapshot().threads.some((t) => t.threadId === threadId) };
  };

  const raiseElsewhere = (threadId: string) => collect(other.run({ threadId, agent: agentFor(threadId), input: inputFor(threadId) }));
  const answerElsewhere = (threadId: string) =>
    collect(
      other.run({
        threadId,
        agent: agentFor(threadId),
        input: inputFor(threadId, [{ interruptId: `ask-${threadId}`, status: 'resolved', payload: { approved: true } }]),
      }),
    );

  it('given an inbox following the stream, an interrupt raised and answered on another instance should show and go at once, and the chat on it hear threadChanged', async () => {
    const warn = vi.spyOn(console, 'warn');
    const threadId = `live-${randomUUID()}`;
    const heard: Array<{ threadId: string; waiting: readonly string[] | undefined }> = [];
    const unlisten = onThreadChanged((changed, waiting) => {
      if (changed === threadId) heard.push({ threadId: changed, waiting });
    });
    const polls = requests.filter((accept) => accept.includes('application/json')).length;
    try {
      const inbox = follow({ path: '/inbox', pollIntervalMs: NEVER_POLLS });
      await until(() => inbox.source.getSnapshot().live);
      expect(inbox.source.getSnapshot()).toMatchObject({ loading: false, error: null });

      await raiseElsewhere(threadId);
      await until(() => inbox.waiting(threadId));
      expect(heard.map((h) => h.waiting)).toEqual([[`ask-${threadId}`]]);

      await answerElsewhere(threadId);
      await until(() => !inbox.waiting(threadId));
      // The same call a poll makes: the thread now waits on nothing, so a chat showing it reads it again.
      await until(() => heard.length === 2);
      expect(heard[1]!.waiting).toEqual([]);
      expect(requests.filter((accept) => accept.includes('application/json')).length).toBe(polls);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      unlisten();
    }
  });

  it('given an endpoint whose runner cannot stream (406) or that answers JSON to a stream request, the client should poll, with no error', async () => {
    const warn = vi.spyOn(console, 'warn');
    for (const path of ['/no-changes', '/json-only']) {
      const threadId = `polled-${randomUUID()}`;
      const inbox = follow({ path, pollIntervalMs: 100 });
      await until(() => inbox.source.getSnapshot().checkedAt !== null);
      await raiseElsewhere(threadId);
      await until(() => inbox.waiting(threadId));
      await answerElsewhere(threadId);
      await until(() => !inbox.waiting(threadId));
      expect(inbox.source.getSnapshot()).toMatchObject({ live: false, error: null });
      inbox.stop();
    }
    expect(warn).not.toHaveBeenCalled();
  });

  it('given the last listener unsubscribes, the client should close the stream (and the server its side) and neither reopen it nor poll', async () => {
    const inbox = follow({ path: '/inbox', pollIntervalMs: 50 });
    await until(() => inbox.source.getSnapshot().live);
    expect(openStreams).toBe(1);
    inbox.stop();
    await until(() => openStreams === 0);
    const sent = requests.length;
    await pause(400);
    expect(requests.length).toBe(sent);
    expect(inbox.source.getSnapshot().live).toBe(false);
  });

  it('given the stream ends (a restart, a proxy), the client should show no error, catch up on the change made meanwhile, and stream again', async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const threadId = `cut-${randomUUID()}`;
    const inbox = follow({ path: '/cut', pollIntervalMs: NEVER_POLLS });
    await until(() => inbox.source.getSnapshot().live);
    const streamsBefore = requests.filter((accept) => accept === 'text/event-stream').length;
    for (const cut of cuts) cut.abort();
    cuts.clear();
    await raiseElsewhere(threadId);
    await until(() => inbox.waiting(threadId));
    // A new stream (after a second's wait), which then brings the next change as it happens.
    await until(
      () => inbox.source.getSnapshot().live && requests.filter((accept) => accept === 'text/event-stream').length > streamsBefore,
    );
    await answerElsewhere(threadId);
    await until(() => !inbox.waiting(threadId));
    expect(inbox.source.getSnapshot().error).toBeNull();
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it('given the endpoint reports a problem on the stream, the snapshot should say so, keep the list, and clear when the stream lists again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const serverError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const kept = `kept-${randomUUID()}`;
    await raiseElsewhere(kept);
    const inbox = follow({ path: '/filtered', pollIntervalMs: NEVER_POLLS });
    await until(() => inbox.waiting(kept) && inbox.source.getSnapshot().live);
    try {
      directoryDown = true;
      await raiseElsewhere(`trigger-${randomUUID()}`);
      await until(() => inbox.source.getSnapshot().error !== null);
      expect(inbox.source.getSnapshot().error).toBe(
        `copilotkit-interrupts inbox: ${server.origin}/filtered reported: could not tell which interrupts are yours.`,
      );
      expect(inbox.waiting(kept)).toBe(true);
      expect(serverError).toHaveBeenCalledWith(expect.stringContaining('directory down'));
    } finally {
      directoryDown = false;
    }
    // The next change lists again on the same stream, and the list it sends ends the problem.
    const next = `next-${randomUUID()}`;
    await raiseElsewhere(next);
    await until(() => inbox.source.getSnapshot().error === null && inbox.waiting(next));
    expect(inbox.waiting(kept)).toBe(true);
    expect(inbox.source.getSnapshot().live).toBe(true);
    expect(warn.mock.calls.filter(([text]) => String(text).includes('/filtered'))).toHaveLength(1);
  });

  it('given the server down, the client should say so and poll, and once it is back the first good poll should open the stream again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const down = await serveFetchHandlers({ '/inbox': inbox });
    await down.close();
    const source = new PendingInterruptsSource({ url: `${down.origin}/inbox`, pollIntervalMs: 100 });
    sources.push(source.subscribe(() => {}));
    await until(() => /could not be reached/.test(source.getSnapshot().error ?? ''));

    const back = await serveFetchHandlers({ '/inbox': inbox }, { port: Number(new URL(down.origin).port) });
    try {
      await until(() => source.getSnapshot().live && source.getSnapshot().error === null);
      const threadId = `back-${randomUUID()}`;
      await raiseElsewhere(threadId);
      await until(() => source.getSnapshot().threads.some((thread) => thread.threadId === threadId));
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      for (const stop of sources.splice(0)) stop();
      await back.close();
    }
  });

  it('given an endpoint nobody listens on, the snapshot should say it could not be reached, warned once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const gone = await serveFetchHandlers({});
    await gone.close();
    const source = new PendingInterruptsSource({ url: `${gone.origin}/inbox`, pollIntervalMs: 100 });
    sources.push(source.subscribe(() => {}));
    await until(() => source.getSnapshot().error !== null);
    expect(source.getSnapshot()).toMatchObject({ loading: false, live: false });
    expect(source.getSnapshot().error).toMatch(new RegExp(`^copilotkit-interrupts inbox: ${gone.origin}/inbox could not be reached \\(`));
    await pause(400);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
