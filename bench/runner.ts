/**
 * Figures 7 to 8d: the durable runner (`copilotkit-interrupts/runner`) next to CopilotKit's
 * `InMemoryAgentRunner`, in the same run. The agents are scripted AG-UI agents: what is measured is
 * the runner (storing, replaying, claiming answers, settling expiries, telling other instances), not
 * a model.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventType, type AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { InMemoryAgentRunner, type AgentRunner } from '@copilotkit/runtime/v2';
import { lastValueFrom, toArray } from 'rxjs';
import { onThreadChanged } from '../src/controller/thread-changes';
import { PendingInterruptsSource } from '../src/inbox';
import { createInboxHandler, createInterruptRunner, type InterruptRunner, type InterruptRunnerOptions } from '../src/runner';
import { serveFetchHandlers } from '../test/helpers/fetch-handler-server';
import { startPostgres } from '../test/helpers/postgres';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../test/helpers/scripted-agent';
import { median, percentile } from './stats';

type Resume = Array<{ interruptId: string; status: string; payload?: unknown }>;
const resumeOf = (input: RunAgentInput) => (input as { resume?: Resume }).resume;

/**
 * Raises `ask-<runId>` on a new message (expiring at `expiresAt(threadId)` when given); answers a
 * resume with two messages (the thread's turn), noting in `received` when it heard the resume.
 */
function conversationAgent(received?: Map<string, number[]>, threadId?: string, expiresAt?: (threadId: string) => string) {
  return new ScriptedAgent(
    (input) => {
      const resume = resumeOf(input);
      if (resume?.length) {
        received?.get(input.threadId)?.push(performance.now());
        return [
          runStarted(input),
          ...textMessage(`a-${input.runId}`, 'Done.'),
          ...textMessage(`b-${input.runId}`, 'Anything else?'),
          runFinished(input),
        ];
      }
      const expiry = expiresAt ? { expiresAt: expiresAt(input.threadId) } : {};
      return [
        runStarted(input),
        runFinished(input, interruptOutcome({ id: `ask-${input.runId}`, reason: 'acme:ask', message: 'Go on?', ...expiry })),
      ];
    },
    threadId ? { threadId } : {},
  );
}

const input = (threadId: string, extra: Partial<RunAgentInput> & { resume?: Resume } = {}): RunAgentInput =>
  ({ threadId, runId: randomUUID(), messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...extra }) as RunAgentInput;

const drain = (observable: ReturnType<AgentRunner['run']>) => lastValueFrom(observable.pipe(toArray()));

/** One turn: a user message raises an interrupt, then a resume answers it. */
async function turn(runner: AgentRunner, agent: ScriptedAgent, threadId: string, n: number, answerWith: AgentRunner = runner) {
  const message = { id: `u-${threadId}-${n}`, role: 'user' as const, content: `Step ${n}` };
  const raised = await drain(runner.run({ threadId, agent, input: input(threadId, { messages: [message] }) }));
  const finished = raised.find((event) => event.type === EventType.RUN_FINISHED) as
    { outcome?: { interrupts?: Array<{ id: string }> } } | undefined;
  const id = finished?.outcome?.interrupts?.[0]?.id;
  if (!id) throw new Error(`turn ${n} of ${threadId} raised no interrupt`);
  const started = performance.now();
  const answered = await drain(
    answerWith.run({ threadId, agent, input: input(threadId, { resume: [{ interruptId: id, status: 'resolved', payload: n }] }) }),
  );
  return { started, errors: answered.filter((event) => event.type === EventType.RUN_ERROR) };
}

export interface RunnerStore {
  label: string;
  runner: AgentRunner;
  /** Figure 7's target: at most this many times the in-memory runner's replay. */
  maxRatio?: number;
}

export interface ReplayResult {
  label: string;
  /** Connect to the seeded thread until its replay completes, in ms. */
  samples: number[];
  events: number;
  maxRatio?: number;
}

/** Figure 7: replay of a thread of 300 messages and 100 answered interrupts, per store. */
export async function measureReplay(stores: RunnerStore[], repetitions = 7): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  for (const { label, runner, maxRatio } of stores) {
    const agent = conversationAgent();
    const threadId = `replay-${randomUUID()}`;
    for (let n = 0; n < 100; n++) await turn(runner, agent, threadId, n);
    const samples: number[] = [];
    let events = 0;
    for (let i = 0; i < repetitions; i++) {
      const start = performance.now();
      const replayed = await lastValueFrom(runner.connect({ threadId }).pipe(toArray()));
      samples.push(performance.now() - start);
      events = replayed.length;
    }
    results.push({ label, samples, events, ...(maxRatio !== undefined ? { maxRatio } : {}) });
  }
  return results;
}

export interface ConcurrencyResult {
  label: string;
  threads: number;
  seconds: number;
  /** From sending the resume to the agent receiving it, per thread, in ms. */
  latencies: number[];
  lost: number;
  duplicated: number;
}

/**
 * Figure 8: `threads` threads raise and answer one interrupt each, all at once; with `second`, the
 * answer goes through another instance than the one that raised it.
 */
export async function measureConcurrent(label: string, first: AgentRunner, second: AgentRunner, threads = 200): Promise<ConcurrencyResult> {
  const received = new Map<string, number[]>();
  const ids = Array.from({ length: threads }, () => `load-${randomUUID()}`);
  for (const id of ids) received.set(id, []);
  const start = performance.now();
  // One agent per thread, as CopilotRuntime clones the registered agent for every request.
  const sent = await Promise.all(ids.map((id) => turn(first, conversationAgent(received, id), id, 0, second)));
  const seconds = (performance.now() - start) / 1000;
  const latencies = ids.flatMap((id, i) => (received.get(id)!.length ? [received.get(id)![0]! - sent[i]!.started] : []));
  return {
    label,
    threads,
    seconds,
    latencies,
    lost: ids.filter((id) => received.get(id)!.length === 0).length,
    duplicated: ids.filter((id) => received.get(id)!.length > 1).length,
  };
}

/** One side of figure 8b: where a thread's interrupt is raised, and where it is answered. */
export interface RunnerSide {
  label: string;
  raise: AgentRunner;
  answer: AgentRunner;
}

/**
 * Figure 8b: one thread per side, one turn at a time, the sides taking turns (so that other work on
 * the machine slows both alike); from sending the resume to the agent receiving it, in ms. The
 * first `warmup` turns of each side are dropped. `missed` counts turns whose resume did not reach
 * the agent exactly once.
 */
export async function measureOneThread(sides: RunnerSide[], turns = 40, warmup = 5) {
  const received = new Map<string, number[]>();
  const threads = sides.map(() => `one-${randomUUID()}`);
  for (const id of threads) received.set(id, []);
  const agents = threads.map((id) => conversationAgent(received, id));
  const results = sides.map((side) => ({ label: side.label, latencies: [] as number[], missed: 0 }));
  for (let n = 0; n < warmup + turns; n++) {
    for (const [i, side] of sides.entries()) {
      const heard = received.get(threads[i]!)!;
      const before = heard.length;
      const { started } = await turn(side.raise, agents[i]!, threads[i]!, n, side.answer);
      if (heard.length !== before + 1) results[i]!.missed++;
      else if (n >= warmup) results[i]!.latencies.push(heard[before]! - started);
    }
  }
  return results;
}

export interface ExpiryResult {
  /** From each interrupt's `expiresAt` to its agent hearing `cancelled`, in ms (wall clock). */
  latencies: number[];
  /** Interrupts whose agent never heard `cancelled`, or heard something else. */
  lost: number;
  /** Interrupts whose agent heard it more than once. */
  duplicated: number;
  /** How long raising them all took (ms): under `leadMs`, or the first expired before it was stored. */
  raisedMs: number;
  leadMs: number;
}

/**
 * Figure 8c: `threads` threads each raise an interrupt that expires `leadMs` to `leadMs + spreadMs`
 * from now, through `runners` in turn, and nobody answers. Each runner was made with
 * `expiry: { agent: expiryAgent }` (`makeRunners` receives it): the instance that holds the expiry
 * lease resumes the thread's agent with `cancelled`. Waits until every agent heard, or `leadMs +
 * spreadMs + 10 s`.
 */
export async function measureExpiry(
  makeRunners: (expiryAgent: (agentId: string, threadId: string) => AbstractAgent | undefined) => Promise<InterruptRunner[]>,
  threads = 20,
  leadMs = 2_000,
  spreadMs = 2_000,
): Promise<ExpiryResult> {
  const received = new Map<string, number[]>();
  const expiresAt = new Map<string, number>();
  const agents = new Map<string, ScriptedAgent>();
  const runners = await makeRunners((_agentId, threadId) => agents.get(threadId));
  // Opened first: an embedded store takes seconds to open, which is no part of an expiry.
  await Promise.all(runners.map((runner) => runner.ready()));
  const now = Date.now();
  const ids = Array.from({ length: threads }, (_, i) => {
    const id = `expiry-${randomUUID()}`;
    received.set(id, []);
    expiresAt.set(id, now + leadMs + Math.round((i * spreadMs) / threads));
    agents.set(
      id,
      conversationAgent(received, id, (threadId) => new Date(expiresAt.get(threadId)!).toISOString()),
    );
    return id;
  });
  await Promise.all(
    ids.map((id, i) =>
      drain(
        runners[i % runners.length]!.run({
          threadId: id,
          agent: agents.get(id)!,
          input: input(id, { messages: [{ id: `u-${id}`, role: 'user', content: 'Go' }] }),
        }),
      ),
    ),
  );
  const raisedMs = Date.now() - now;
  const deadline = now + leadMs + spreadMs + 10_000;
  while (Date.now() < deadline && ids.some((id) => received.get(id)!.length === 0)) await new Promise((resolve) => setTimeout(resolve, 50));
  // A moment more, for a second delivery to show up.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cancelled = (id: string) =>
    agents.get(id)!.runs.filter((run) => resumeOf(run)?.every((entry) => entry.status === 'cancelled')).length === received.get(id)!.length;
  return {
    latencies: ids.flatMap((id) =>
      received
        .get(id)!
        .slice(0, 1)
        .map((at) => performance.timeOrigin + at - expiresAt.get(id)!),
    ),
    lost: ids.filter((id) => received.get(id)!.length === 0 || !cancelled(id)).length,
    duplicated: ids.filter((id) => received.get(id)!.length > 1).length,
    raisedMs,
    leadMs,
  };
}

export interface LiveResult {
  /** From the resume sent through one instance to the inbox client on the other hearing the thread changed, in ms. */
  heard: number[];
  /** ... to that instance's connect replay (what the device reads again) showing the interrupt answered, in ms. */
  reread: number[];
  /** Answers the inbox client never heard of within 5 s. */
  missed: number;
}

/**
 * Figure 8d, the server half of "device B answers -> device A's card turns read-only": device A's
 * inbox client (`PendingInterruptsSource`, what `usePendingInterrupts` reads, following the inbox
 * endpoint's event stream) is connected to instance `served`; device B answers through `other`.
 * Per sample, one thread raises an interrupt (through `other`), the client lists it, the resume is
 * sent through `other`; timed until the client calls `threadChanged` for that thread without the
 * interrupt (what makes a chat showing it read it again), then until `served`'s connect replay of
 * the thread (that read) completes with the answer in it.
 */
export async function measureLive(served: InterruptRunner, other: AgentRunner, samples = 40, warmup = 3): Promise<LiveResult> {
  const server = await serveFetchHandlers({ '/inbox': createInboxHandler({ runner: served }) });
  const source = new PendingInterruptsSource({ url: `${server.origin}/inbox`, pollIntervalMs: 600_000 });
  const listed = new Set<string>();
  const unsubscribe = source.subscribe(() => {
    listed.clear();
    for (const thread of source.getSnapshot().threads) for (const interrupt of thread.interrupts) listed.add(interrupt.interruptId);
  });
  const changes: Array<{ threadId: string; waiting: readonly string[]; at: number }> = [];
  const unlisten = onThreadChanged((threadId, waiting = []) => changes.push({ threadId, waiting, at: performance.now() }));
  const until = async (check: () => boolean, ms = 5_000) => {
    const stop = performance.now() + ms;
    while (!check() && performance.now() < stop) await new Promise((resolve) => setTimeout(resolve, 1));
    return check();
  };
  const result: LiveResult = { heard: [], reread: [], missed: 0 };
  try {
    await until(() => !source.getSnapshot().loading);
    for (let n = 0; n < warmup + samples; n++) {
      const threadId = `live-${randomUUID()}`;
      const agent = conversationAgent(undefined, threadId);
      const raised = await drain(
        other.run({ threadId, agent, input: input(threadId, { messages: [{ id: `u-${threadId}`, role: 'user', content: 'Go' }] }) }),
      );
      const id = (raised.find((event) => event.type === EventType.RUN_FINISHED) as { outcome?: { interrupts?: Array<{ id: string }> } })
        .outcome?.interrupts?.[0]?.id as string;
      if (!(await until(() => listed.has(id)))) throw new Error(`the inbox client never listed ${id}`);
      const started = performance.now();
      const resume = input(threadId, { resume: [{ interruptId: id, status: 'resolved', payload: n }] });
      const answered = drain(other.run({ threadId, agent, input: resume }));
      const change = () => changes.find((c) => c.threadId === threadId && c.at >= started && !c.waiting.includes(id));
      const heard = await until(() => change() !== undefined);
      let reread = NaN;
      if (heard) {
        // The device's read: a connect replay on its own instance (it follows a run still under
        // way to its end), counted when it holds the answered run's reply.
        const replay = await drain(served.connect({ threadId }));
        if (replay.some((event) => (event as { messageId?: string }).messageId === `a-${resume.runId}`))
          reread = performance.now() - started;
      }
      await answered;
      if (n < warmup) continue;
      if (!heard) result.missed++;
      else {
        result.heard.push(change()!.at - started);
        if (!Number.isNaN(reread)) result.reread.push(reread);
      }
    }
  } finally {
    unlisten();
    unsubscribe();
    await server.close();
  }
  return result;
}

/**
 * Runners for the figures, on one PostgreSQL cluster the bench starts (Debian's `postgresql`
 * binaries) and removes, or in embedded stores in temporary folders; `dispose` closes them all.
 */
export async function runnerLab() {
  const postgres = await startPostgres();
  const dirs: string[] = [];
  const opened: InterruptRunner[] = [];
  const keep = (runner: InterruptRunner) => (opened.push(runner), runner);
  const lab = {
    /** `count` instances sharing a fresh database `name` (what a load balancer spreads requests over). */
    async postgres(name: string, count: number, options: InterruptRunnerOptions = {}): Promise<InterruptRunner[]> {
      const url = await postgres.createDatabase(name);
      return Array.from({ length: count }, () => keep(createInterruptRunner({ url, ...options })));
    },
    embedded(options: InterruptRunnerOptions = {}): InterruptRunner {
      const dir = mkdtempSync(join(tmpdir(), 'cki-bench-'));
      dirs.push(dir);
      return keep(createInterruptRunner({ dataDir: dir, ...options }));
    },
    /** Figure 7's stores, in its order: the in-memory runner (the baseline), embedded, PostgreSQL. */
    async replayStores(): Promise<RunnerStore[]> {
      const [postgresRunner] = await lab.postgres('replay', 1);
      return [
        // Its default keeps 100 runs per thread; the seeded thread has 200, so the cap is raised to hold them all.
        { label: 'InMemoryAgentRunner', runner: new InMemoryAgentRunner({ maxRunsPerThread: 1000 }) },
        { label: 'embedded (PGlite)', runner: lab.embedded(), maxRatio: 3 },
        { label: 'PostgreSQL', runner: postgresRunner!, maxRatio: 1.5 },
      ];
    },
    async dispose() {
      await Promise.all(opened.splice(0).map((runner) => runner.close()));
      await postgres.stop();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
  return lab;
}

export const p = (values: number[], q: number) => (values.length ? percentile(values, q) : NaN);
export const mid = (values: number[]) => (values.length ? median(values) : NaN);
export type { BaseEvent };
