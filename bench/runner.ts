/**
 * Figures 7 and 8: the durable runner (`copilotkit-interrupts/runner`) next to CopilotKit's
 * `InMemoryAgentRunner`, in the same run. The agents are scripted AG-UI agents: what is measured is
 * the runner (storing, replaying, claiming answers), not a model.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { InMemoryAgentRunner, type AgentRunner } from '@copilotkit/runtime/v2';
import { lastValueFrom, toArray } from 'rxjs';
import { createInterruptRunner, type InterruptRunner } from '../src/runner';
import { startPostgres, type PostgresCluster } from '../test/helpers/postgres';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../test/helpers/scripted-agent';
import { median, percentile } from './stats';

type Resume = Array<{ interruptId: string; status: string; payload?: unknown }>;
const resumeOf = (input: RunAgentInput) => (input as { resume?: Resume }).resume;

/** Raises `ask-<runId>` on a new message; answers a resume with two messages (the thread's turn). */
function conversationAgent(received?: Map<string, number[]>, threadId?: string) {
  return new ScriptedAgent(
    (input) => {
      const resume = resumeOf(input);
      if (resume?.length) {
        if (threadId) received?.get(threadId)?.push(performance.now());
        return [
          runStarted(input),
          ...textMessage(`a-${input.runId}`, 'Done.'),
          ...textMessage(`b-${input.runId}`, 'Anything else?'),
          runFinished(input),
        ];
      }
      return [runStarted(input), runFinished(input, interruptOutcome({ id: `ask-${input.runId}`, reason: 'acme:ask', message: 'Go on?' }))];
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
  open(): AgentRunner;
  close(): Promise<void>;
}

export interface ReplayResult {
  label: string;
  /** Connect to the seeded thread until its replay completes, in ms. */
  samples: number[];
  events: number;
}

/** Figure 7: replay of a thread of 300 messages and 100 answered interrupts, per store. */
export async function measureReplay(stores: RunnerStore[], repetitions = 7): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  for (const store of stores) {
    const runner = store.open();
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
    results.push({ label: store.label, samples, events });
    await store.close();
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

/** The stores figure 7 and 8 compare: CopilotKit's in-memory runner, the embedded store, PostgreSQL. */
export async function runnerStores(): Promise<{ stores: RunnerStore[]; postgres: PostgresCluster; dispose(): Promise<void> }> {
  const postgres = await startPostgres();
  const dirs: string[] = [];
  const opened: InterruptRunner[] = [];
  const stores: RunnerStore[] = [
    // Its default keeps 100 runs per thread; the seeded thread has 200, so the cap is raised to hold them all.
    { label: 'InMemoryAgentRunner', open: () => new InMemoryAgentRunner({ maxRunsPerThread: 1000 }), close: async () => {} },
    {
      label: 'embedded (PGlite)',
      open: () => {
        const dir = mkdtempSync(join(tmpdir(), 'cki-bench-'));
        dirs.push(dir);
        const runner = createInterruptRunner({ dataDir: dir });
        opened.push(runner);
        return runner;
      },
      close: async () => {
        await opened.pop()?.close();
      },
    },
    {
      label: 'PostgreSQL',
      open: () => {
        const runner = createInterruptRunner({ url: postgres.url });
        opened.push(runner);
        return runner;
      },
      close: async () => {
        await opened.pop()?.close();
      },
    },
  ];
  return {
    stores,
    postgres,
    dispose: async () => {
      await Promise.all(opened.map((runner) => runner.close()));
      await postgres.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const p = (values: number[], q: number) => (values.length ? percentile(values, q) : NaN);
export const mid = (values: number[]) => (values.length ? median(values) : NaN);
export type { BaseEvent };
