import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventType, type BaseEvent } from '@ag-ui/client';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  createInterruptRunner,
  RunnerError,
  type Authorize,
  type InterruptEvent,
  type InterruptEventHook,
  type InterruptRunner,
  type InterruptRunnerOptions,
  type Person,
} from '../../../src/runner';
import { openEmbedded, openPostgres, type Database } from '../../../src/runner/database';
import { collect, inputFor, runnerStores } from '../../helpers/runner-stores';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage, type RunScript } from '../../helpers/scripted-agent';

const ofType = (events: BaseEvent[], type: EventType) => events.filter((event) => event.type === type);
const until = (check: () => boolean | Promise<boolean>, timeout = 20_000) => expect.poll(check, { timeout, interval: 25 }).toBe(true);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A thread's first run raises `interrupts`; a resume says "Done."; a resume answering `changes`
 * is refused by the agent as given to a changed request, which it raises as it is now.
 */
const script =
  (interrupts: unknown[], changes?: { from: string; to: unknown }): RunScript =>
  (input) => {
    const resume = (input as { resume?: Array<{ interruptId: string }> }).resume;
    if (!resume) return [runStarted(input), runFinished(input, interruptOutcome(...interrupts))];
    if (changes && resume.some((entry) => entry.interruptId === changes.from)) {
      return [
        runStarted(input),
        { type: EventType.RUN_ERROR, code: 'interrupt_changed', message: 'The request changed.', interrupts: [changes.to] } as BaseEvent,
      ];
    }
    return [runStarted(input), ...textMessage(`done-${input.runId}`, 'Done.'), runFinished(input)];
  };

/** The people of these tests: `Bearer <token>` names them. */
const PEOPLE: Record<string, Person> = { ana: { id: 'ana', name: 'Ana' }, dan: { id: 'dan', name: 'Dan', roles: ['approver'] } };
const identify = (request: Request): Person | null =>
  PEOPLE[/^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''] ?? null;
/** Approvers may read and answer any thread. */
const authorize: Authorize = ({ user, action }) => (user.roles ?? []).includes('approver') && action !== 'run';

/** A run as CopilotKit's runtime hands it over: the agent carries the request's forwarded headers. */
function runAs(runner: InterruptRunner, token: string | undefined, threadId: string, run: RunScript, extra = {}) {
  const agent = new ScriptedAgent(run) as ScriptedAgent & { headers: Record<string, string> };
  agent.headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return collect(runner.run({ threadId, agent, input: inputFor(threadId, extra) }));
}
const answer = (interruptId: string, status: 'resolved' | 'cancelled' = 'resolved', payload: unknown = { approved: true }) => ({
  resume: [{ interruptId, status, ...(status === 'resolved' ? { payload } : {}) }],
});

/** What a hook was told, in order, and by which instance. */
function recorder(label = 'one') {
  const told: Array<InterruptEvent & { by: string }> = [];
  const hook: InterruptEventHook = (event) => void told.push({ ...event, by: label });
  return { told, hook };
}
const summary = (told: InterruptEvent[], threadId: string) =>
  told.filter((event) => event.thread.id === threadId).map((event) => `${event.type} ${event.interrupt.interruptId}`);

/** Fast timings, so that retries show within a test. */
const FAST = { minBackoffMs: 20, maxBackoffMs: 100, checkEveryMs: 50 };

const { stores, cleanup } = runnerStores('events');

/** The same store as the runners see it, for reading the outbox table. */
const openRaw = (options: InterruptRunnerOptions): Promise<Database> =>
  options.url ? openPostgres(options.url, 1) : openEmbedded(options.dataDir!);

afterAll(cleanup, 60_000);

describe.each(Object.keys(stores) as Array<keyof typeof stores>)('interrupt events on the %s store', (kind) => {
  const opened: InterruptRunner[] = [];
  const open = (options: InterruptRunnerOptions) => {
    const runner = createInterruptRunner(options);
    opened.push(runner);
    return runner;
  };
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const runner of opened.splice(0)) await runner.close();
  });

  it('given a hook, each raise, answer, cancel, expiry and change should be told once, with its key, the row as it was and the people', async () => {
    const options = await stores[kind]();
    const { told, hook } = recorder();
    const runner = open({ ...options, identify, authorize, onInterruptEvent: hook, interruptEvents: FAST, expiry: { checkEveryMs: 50 } });
    const approval = { id: 'i-deploy', reason: 'tool_approval', message: 'Deploy v2?' };
    const question = { id: 'i-when', reason: 'user_question', message: 'When?' };

    // Ana raises two; Dan, an approver, approves one; Ana cancels the other.
    const pair = `pair-${randomUUID()}`;
    const run = script([approval, question]);
    await runAs(runner, 'ana', pair, run);
    await runAs(runner, 'dan', pair, run, answer('i-deploy', 'resolved', { approved: true, by: 'dan' }));
    await runAs(runner, 'ana', pair, run, answer('i-when', 'cancelled'));
    // One expires with nobody online; one is answered after its request changed.
    const expiring = `expiring-${randomUUID()}`;
    await runAs(
      runner,
      'ana',
      expiring,
      script([{ id: 'i-late', reason: 'tool_approval', expiresAt: new Date(Date.now() + 200).toISOString() }]),
    );
    const changing = `changing-${randomUUID()}`;
    const changed = script([{ id: 'c-1', reason: 'tool_approval', message: 'Pay 100 EUR?' }], {
      from: 'c-1',
      to: { id: 'c-2', reason: 'tool_approval', message: 'Pay 200 EUR?' },
    });
    await runAs(runner, 'ana', changing, changed);
    await runAs(runner, 'ana', changing, changed, answer('c-1'));
    // A run that leaves a request open and raises it again as it was: no second word of it.
    const again = `again-${randomUUID()}`;
    const asking = script([{ id: 'i-again', reason: 'tool_approval', message: 'Restart the cluster?' }]);
    await runAs(runner, 'ana', again, asking);
    expect(ofType(await runAs(runner, 'ana', again, asking), EventType.RUN_FINISHED)).toEqual([
      expect.objectContaining({ outcome: expect.objectContaining({ type: 'interrupt' }) }),
    ]);

    await until(() => told.length === 11);
    expect(summary(told, again)).toEqual(['raised i-again']);
    expect(summary(told, pair)).toEqual(['raised i-deploy', 'raised i-when', 'answered i-deploy', 'cancelled i-when']);
    expect(summary(told, expiring)).toEqual(['raised i-late', 'expired i-late']);
    expect(summary(told, changing)).toEqual(['raised c-1', 'answered c-1', 'changed c-1', 'raised c-2']);

    // Each event has its own key, was told at the first attempt, and says when.
    expect(new Set(told.map((event) => event.key)).size).toBe(11);
    expect(told.map((event) => event.attempt)).toEqual(told.map(() => 1));
    for (const event of told) expect(Date.parse(event.at)).toBeGreaterThan(Date.now() - 60_000);
    // The row as it was right after the change, and the people the record holds.
    const [raised, , approved, cancelled] = told.filter((event) => event.thread.id === pair);
    expect(raised).toMatchObject({
      interrupt: { threadId: pair, interruptId: 'i-deploy', status: 'open', message: 'Deploy v2?', ownerId: 'ana', answeredBy: null },
      thread: { id: pair, agentId: 'default', owner: { id: 'ana', name: 'Ana' } },
    });
    expect(raised!.interrupt).not.toHaveProperty('cursor');
    expect(approved).toMatchObject({
      interrupt: { status: 'resolved', response: { approved: true, by: 'dan' }, answeredBy: { id: 'dan', name: 'Dan' }, ownerId: 'ana' },
    });
    expect(cancelled).toMatchObject({ interrupt: { status: 'cancelled', cancelReason: null, answeredBy: { id: 'ana', name: 'Ana' } } });
    expect(told.find((event) => event.type === 'expired')).toMatchObject({
      interrupt: { status: 'cancelled', cancelReason: 'expired', answeredBy: null },
    });
    expect(told.find((event) => event.type === 'changed')).toMatchObject({ interrupt: { interruptId: 'c-1', status: 'changed' } });

    // Told once: nothing more comes, and nothing is left to deliver.
    await sleep(400);
    expect(told).toHaveLength(11);
    const raw = await openRaw(options);
    try {
      expect(await raw.query(`SELECT event_key FROM cki_interrupt_events`)).toEqual([]);
    } finally {
      await raw.close();
    }
  }, 90_000);

  it('given no hook, the runner should write no events', async () => {
    const options = await stores[kind]();
    const runner = open(options);
    const threadId = `quiet-${randomUUID()}`;
    const run = script([{ id: 'i', reason: 'tool_approval' }]);
    await runAs(runner, undefined, threadId, run);
    await runAs(runner, undefined, threadId, run, answer('i'));
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ status: 'resolved' })]);
    const raw = await openRaw(options);
    try {
      expect(await raw.query(`SELECT count(*)::int AS n FROM cki_interrupt_events`)).toEqual([{ n: 0 }]);
    } finally {
      await raw.close();
    }
  }, 90_000);

  it('given two instances on one database, each event should be told exactly once, by one of them', async () => {
    const options = await stores[kind]();
    const told: Array<InterruptEvent & { by: string }> = [];
    const hookOf =
      (by: string): InterruptEventHook =>
      async (event) => {
        told.push({ ...event, by });
        await sleep(5); // long enough for the other instance to try the same event
      };
    const one = open({ ...options, onInterruptEvent: hookOf('one'), interruptEvents: FAST });
    const two = open({ ...options, onInterruptEvent: hookOf('two'), interruptEvents: FAST });
    await Promise.all([one.ready(), two.ready()]);
    const threads = Array.from({ length: 8 }, (_, n) => `shared-${n}-${randomUUID()}`);
    const run = script([
      { id: 'i-a', reason: 'tool_approval' },
      { id: 'i-b', reason: 'tool_approval' },
    ]);
    // Raised on one instance, answered on the other.
    await Promise.all(
      threads.map(async (threadId, n) => {
        await runAs(n % 2 ? one : two, undefined, threadId, run);
        await runAs(n % 2 ? two : one, undefined, threadId, run, {
          resume: [
            { interruptId: 'i-a', status: 'resolved', payload: 1 },
            { interruptId: 'i-b', status: 'cancelled' },
          ],
        });
      }),
    );
    await until(() => told.length >= 32);
    await sleep(400);
    expect(told).toHaveLength(32);
    expect(new Set(told.map((event) => event.key)).size).toBe(32);
    // In order per thread: its raises before its answers.
    for (const threadId of threads) {
      expect(summary(told, threadId)).toEqual(['raised i-a', 'raised i-b', 'answered i-a', 'cancelled i-b']);
    }
  }, 90_000);

  it('given a hook that fails twice, the event should be told a third time with the same key, and the run should not notice', async () => {
    const options = await stores[kind]();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const attempts: InterruptEvent[] = [];
    const runner = open({
      ...options,
      interruptEvents: FAST,
      onInterruptEvent: (event) => {
        attempts.push(event);
        if (event.type === 'raised' && event.attempt < 3) throw new Error(`mail server down (${event.attempt})`);
      },
    });
    const threadId = `flaky-${randomUUID()}`;
    const run = script([{ id: 'i-flaky', reason: 'tool_approval' }]);
    const events = await runAs(runner, undefined, threadId, run);
    expect(ofType(events, EventType.RUN_ERROR)).toEqual([]);
    expect(ofType(events, EventType.RUN_FINISHED)).toHaveLength(1);
    // Answered at once: its event waits for the raise to be told first.
    expect(ofType(await runAs(runner, undefined, threadId, run, answer('i-flaky')), EventType.RUN_ERROR)).toEqual([]);

    await until(() => attempts.some((event) => event.type === 'answered'));
    expect(attempts.map((event) => `${event.type} ${event.attempt}`)).toEqual(['raised 1', 'raised 2', 'raised 3', 'answered 1']);
    expect(new Set(attempts.slice(0, 3).map((event) => event.key)).size).toBe(1);
    const logged = errors.mock.calls.map(([line]) => String(line));
    expect(logged.filter((line) => line.includes('onInterruptEvent failed'))).toEqual([
      expect.stringMatching(/raised event .* \(attempt 1\): it threw: mail server down \(1\)\. Trying again in \d+ ms\./),
      expect.stringMatching(/\(attempt 2\): it threw: mail server down \(2\)/),
    ]);
  }, 90_000);

  it('given a hook that always fails, the event should be given up after maxAttempts, logged and kept, and the next of its thread told', async () => {
    const options = await stores[kind]();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const attempts: InterruptEvent[] = [];
    const runner = open({
      ...options,
      interruptEvents: { ...FAST, maxAttempts: 2 },
      onInterruptEvent: (event) => {
        attempts.push(event);
        if (event.type === 'raised') throw new Error('template broken');
      },
    });
    const threadId = `poison-${randomUUID()}`;
    const run = script([{ id: 'i-poison', reason: 'tool_approval' }]);
    await runAs(runner, undefined, threadId, run);
    await runAs(runner, undefined, threadId, run, answer('i-poison'));
    await until(() => attempts.some((event) => event.type === 'answered'));
    expect(attempts.map((event) => `${event.type} ${event.attempt}`)).toEqual(['raised 1', 'raised 2', 'answered 1']);
    expect(errors.mock.calls.map(([line]) => String(line))).toContainEqual(
      expect.stringMatching(
        /failed 2 times for the raised event .* of interrupt "i-poison" .*template broken.*given up and stays in the store/,
      ),
    );
    const raw = await openRaw(options);
    try {
      expect(await raw.query(`SELECT event_type, attempts, last_error FROM cki_interrupt_events`)).toEqual([
        { event_type: 'raised', attempts: 2, last_error: 'it threw: template broken' },
      ]);
    } finally {
      await raw.close();
    }
  }, 90_000);

  it('given a hook that hangs, the run and other threads should go on, and the attempt should time out and be tried again', async () => {
    const options = await stores[kind]();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const attempts: InterruptEvent[] = [];
    const signals: AbortSignal[] = [];
    const hung = `hung-${randomUUID()}`;
    const runner = open({
      ...options,
      interruptEvents: { ...FAST, timeoutMs: 3_000 },
      onInterruptEvent: (event, { signal }) => {
        attempts.push(event);
        signals.push(signal);
        if (event.thread.id === hung && event.attempt === 1) return new Promise(() => {});
      },
    });
    const run = script([{ id: 'i-hang', reason: 'tool_approval' }]);
    const events = await runAs(runner, undefined, hung, run);
    expect(ofType(events, EventType.RUN_FINISHED)).toHaveLength(1);
    await until(() => attempts.length === 1);
    // While the hook hangs: the thread is answered and another thread raises, and that one is told.
    expect(ofType(await runAs(runner, undefined, hung, run, answer('i-hang')), EventType.RUN_ERROR)).toEqual([]);
    const other = `other-${randomUUID()}`;
    await runAs(runner, undefined, other, run);
    await until(() => attempts.some((event) => event.thread.id === other));
    // All of that while the first attempt still hangs.
    expect(signals[0]!.aborted).toBe(false);
    expect(attempts.filter((event) => event.thread.id === hung)).toHaveLength(1);

    await until(() => attempts.filter((event) => event.thread.id === hung).length === 3);
    expect(attempts.filter((event) => event.thread.id === hung).map((event) => `${event.type} ${event.attempt}`)).toEqual([
      'raised 1',
      'raised 2',
      'answered 1',
    ]);
    expect(signals[0]!.aborted).toBe(true);
    expect(String(signals[0]!.reason)).toMatch(/did not settle within 3000 ms/);
  }, 90_000);

  it('given a runner closed while its hook hangs, a runner started again should tell the event, with the same key', async () => {
    const options = await stores[kind]();
    const first: InterruptEvent[] = [];
    const runner = open({
      ...options,
      interruptEvents: FAST,
      onInterruptEvent: (event) => {
        first.push(event);
        return new Promise(() => {});
      },
    });
    const threadId = `closed-${randomUUID()}`;
    await runAs(runner, undefined, threadId, script([{ id: 'i-closed', reason: 'tool_approval' }]));
    await until(() => first.length === 1);
    const closing = Date.now();
    await runner.close();
    expect(Date.now() - closing).toBeLessThan(5_000);

    const { told, hook } = recorder();
    open({ ...options, interruptEvents: FAST, onInterruptEvent: hook });
    await until(() => told.length === 1);
    expect(told[0]).toMatchObject({ key: first[0]!.key, type: 'raised', attempt: 2, interrupt: { interruptId: 'i-closed' } });
  }, 90_000);

  it('given the instance killed after the change and before the delivery, another instance should tell the event once its claim runs out', async () => {
    const options = await stores[kind]();
    const threadId = `killed-${randomUUID()}`;
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../helpers/outbox-instance.ts')], {
      env: {
        ...process.env,
        CKI_THREAD: threadId,
        CKI_TIMEOUT_MS: '2000',
        ...(options.url ? { CKI_URL: options.url } : { CKI_DIR: options.dataDir! }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await until(() => output.includes('HOOK '), 60_000);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const called = JSON.parse(/HOOK (.+)/.exec(output)![1]!) as { key: string; type: string; attempt: number };
    expect(called).toMatchObject({ type: 'raised', attempt: 1 });

    const { told, hook } = recorder();
    const runner = open({ ...options, interruptEvents: FAST, onInterruptEvent: hook });
    // The dead instance's claim lasts its timeout and a margin (2 s + 2 s).
    await until(() => told.length === 1, 15_000);
    expect(told[0]).toMatchObject({ key: called.key, type: 'raised', attempt: 2, thread: { id: threadId } });
    expect(await runner.listInterrupts({ threadId })).toEqual([expect.objectContaining({ interruptId: 'i-crash', status: 'open' })]);
    await sleep(300);
    expect(told).toHaveLength(1);
  }, 90_000);

  it('given an onInterruptEvent that is not a function or timings that are not positive, the runner should refuse to start, saying what to give', () => {
    const refusal = (options: Record<string, unknown>) => {
      try {
        createInterruptRunner({ dataDir: join(tmpdir(), 'never-opened'), ...options } as InterruptRunnerOptions);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refusal({ onInterruptEvent: 'https://hooks.example/mail' })).toMatchObject({
      code: 'bad_option',
      message: expect.stringMatching(/onInterruptEvent must be a function/),
    });
    for (const interruptEvents of [{ timeoutMs: 0 }, { maxAttempts: 1.5 }, { minBackoffMs: Number.NaN }, { checkEveryMs: '50' }, 'fast']) {
      const error = refusal({ onInterruptEvent: () => {}, interruptEvents });
      expect(error).toBeInstanceOf(RunnerError);
      expect(error).toMatchObject({ code: 'bad_option', message: expect.stringMatching(/interruptEvents/) });
    }
  });
});
