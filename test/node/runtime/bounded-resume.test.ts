import { AbstractAgent, HttpAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { MastraAgent } from '@ag-ui/mastra';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { LibSQLStore } from '@mastra/libsql';
import fc from 'fast-check';
import { Observable } from 'rxjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, type ScriptedTurn } from '../../../demo/server/scripted-model';
import { INTERRUPT_ID_REFUSED, RESUME_TOO_LARGE, normalizeInterrupts, withNormalizedInterrupts } from '../../../src/runtime';
import { createInterruptRunner } from '../../../src/runner';
import { serveRuntime, type ServedRuntime } from '../../helpers/runtime-server';
import { acmeBackend } from './acme-backend';
import { emptyEmbeddedStore } from '../../helpers/embedded-store';

process.env.MASTRA_TELEMETRY_DISABLED = 'true';

// A resume costs the server work in proportion to what it can answer: through a real
// CopilotRuntime, one that names an interrupt twice, holds too many entries or bytes, or an entry
// whose id is not text is refused before any agent sees it, with a code the browser can read.
const SECRET = 'a-secret-for-the-bounded-resume-test-0123456789';
const received: unknown[] = [];
const executed: unknown[] = [];

/** An agent that raises one gate (read by the test's own backend) and records every resume it gets. */
class GateAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      const resume = (input as { resume?: unknown }).resume;
      if (resume) received.push(resume);
      const gate = { id: 'gate-1', reason: 'acme:gate', metadata: { acme: { action: 'deploy', params: {} } } };
      const outcome = resume ? {} : { outcome: { type: 'interrupt', interrupts: [gate] } };
      subscriber.next({ type: 'RUN_FINISHED', threadId, runId, ...outcome } as BaseEvent);
      subscriber.complete();
    });
  }
  override clone(): GateAgent {
    return new GateAgent();
  }
}

function mastraAgent(): AbstractAgent {
  const decide = (prompt: unknown): ScriptedTurn => {
    const messages = prompt as { role: string }[];
    return messages.at(-1)?.role === 'tool'
      ? { kind: 'text', text: 'Done.' }
      : { kind: 'tool', toolName: 'delete_branch', input: { name: 'old-feature' } };
  };
  const deleteBranch = createTool({
    id: 'delete_branch',
    description: 'Deletes a git branch',
    inputSchema: z.object({ name: z.string() }),
    requireApproval: true,
    execute: async (args) => {
      executed.push(args);
      return 'Deleted.';
    },
  });
  const model = createScriptedModel(decide as never) as never;
  const mastra = new Mastra({
    agents: {
      tools: new Agent({ id: 'tools', name: 'tools', instructions: 'Use the tools.', model, tools: { delete_branch: deleteBranch } }),
    },
    storage: new LibSQLStore({ id: 'bounded-resume-test', url: ':memory:' }),
    logger: false,
  });
  const middleware = normalizeInterrupts({ secret: SECRET, onProblem: () => {} });
  return withNormalizedInterrupts(MastraAgent.getLocalAgents({ mastra, resourceId: 'bounded' }).tools, middleware) as AbstractAgent;
}

let served: ServedRuntime;
let agents: Record<'gate' | 'mastra', AbstractAgent>;
beforeAll(async () => {
  const gate = withNormalizedInterrupts(
    new GateAgent(),
    normalizeInterrupts({ secret: SECRET, backends: [acmeBackend], onProblem: () => {} }),
  );
  agents = { gate, mastra: mastraAgent() };
  served = await serveRuntime(new CopilotRuntime({ agents: agents as never }));
});
afterAll(() => served?.close());
beforeEach(() => {
  received.length = 0;
  executed.length = 0;
});

let threads = 0;
/**
 * A thread whose agent raised its card: the signed id it was given, and the agent to answer with:
 * over HTTP through the runtime, or (`inProcess`) the registered agent itself, as a runner that
 * reads no request body would run it (CopilotRuntime's own check of the body refuses an id that
 * is not text with HTTP 400 before any agent runs).
 */
async function raised(agentId: 'gate' | 'mastra', inProcess = false) {
  const threadId = `bounded-${++threads}`;
  const agent = inProcess
    ? Object.assign(agents[agentId].clone() as AbstractAgent, { threadId })
    : new HttpAgent({ url: `${served.url}/agent/${agentId}/run`, threadId, agentId });
  agent.addMessage({ id: `u-${threads}`, role: 'user', content: 'delete the branch' });
  const finished = (await events(agent)).find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts?: { id: string }[] } };
  const id = finished.outcome?.interrupts?.[0]?.id;
  if (!id) throw new Error('the agent raised no card');
  return { agent, id };
}
async function events(agent: AbstractAgent, params: Record<string, unknown> = {}): Promise<BaseEvent[]> {
  const seen: BaseEvent[] = [];
  await agent.runAgent(params as never, { onEvent: ({ event }) => void seen.push(event) }).catch(() => {});
  return seen;
}
const errorCode = (seen: BaseEvent[]) => (seen.find((e) => e.type === 'RUN_ERROR') as { code?: string } | undefined)?.code;

/** Any JSON that is not text: what a hostile client may put where an interrupt id goes. */
const notText = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

describe('a resume refused at once through CopilotRuntime', () => {
  it.each(['gate', 'mastra'] as const)(
    'given entries whose interruptId is not text beside a valid one (%s agent, in process), the run ends refused and nothing runs',
    async (agentId) => {
      const { agent, id } = await raised(agentId, true);
      await fc.assert(
        fc.asyncProperty(fc.array(notText, { minLength: 1, maxLength: 3 }), fc.boolean(), async (ids, validFirst) => {
          const bad = ids.map((interruptId) => ({ interruptId, status: 'resolved', payload: { approved: true } }));
          const valid = { interruptId: id, status: 'resolved', payload: { approved: true } };
          const seen = await events(agent, { resume: validFirst ? [valid, ...bad] : [...bad, valid] });
          expect(errorCode(seen)).toBe(INTERRUPT_ID_REFUSED);
          // An entry with no id at all is refused the same way.
          expect(errorCode(await events(agent, { resume: [valid, { status: 'resolved' }] }))).toBe(INTERRUPT_ID_REFUSED);
        }),
        { numRuns: 8 },
      );
      expect(received).toEqual([]);
      expect(executed).toEqual([]);
    },
  );

  it('given one valid signed id repeated any number of times, the run ends resume_too_large and the agent gets nothing', async () => {
    const { agent, id } = await raised('gate');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 20_000 }), async (copies) => {
        const resume = Array.from({ length: copies }, () => ({ interruptId: id, status: 'resolved', payload: { approved: true } }));
        expect(errorCode(await events(agent, { resume }))).toBe(RESUME_TOO_LARGE);
      }),
      { numRuns: 6, examples: [[2], [20_000]] },
    );
    expect(received).toEqual([]);
  });
});

describe('a resume over the limits, over HTTP through CopilotRuntime', () => {
  let durable: ServedRuntime;
  let store: string;
  beforeAll(async () => {
    store = mkdtempSync(join(tmpdir(), 'cki-bounded-'));
    const runner = createInterruptRunner({ dataDir: await emptyEmbeddedStore(join(store, 'threads')) });
    const gate = withNormalizedInterrupts(
      new GateAgent(),
      normalizeInterrupts({ secret: SECRET, backends: [acmeBackend], onProblem: () => {} }),
    );
    durable = await serveRuntime(new CopilotRuntime({ agents: { gate } as never, runner }));
  });
  afterAll(async () => {
    await durable?.close();
    rmSync(store, { recursive: true, force: true });
  });

  const overLimits = [
    [
      '201 entries',
      (id: string) => Array.from({ length: 201 }, (_, i) => ({ interruptId: `${id}${'-'.repeat(i)}`, status: 'resolved', payload: {} })),
    ],
    ['a 5 MB answer', (id: string) => [{ interruptId: id, status: 'resolved', payload: { text: 'x'.repeat(5 * 1024 * 1024) } }]],
  ] as const;

  it.each(overLimits)(
    'given %s (in-memory runner), the run ends with a RUN_ERROR resume_too_large saying the limit',
    async (_, resumeFor) => {
      const { agent, id } = await raised('gate');
      const seen = await events(agent, { resume: resumeFor(id) });
      expect(seen).toEqual([
        expect.objectContaining({
          type: 'RUN_ERROR',
          code: RESUME_TOO_LARGE,
          message: expect.stringMatching(/more than the (200|1048576)/),
        }),
      ]);
      expect(received).toEqual([]);
    },
  );

  // The durable runner reads the body first: a 5 MB answer still gets the middleware's code. (Over
  // 200 entries it refuses on its own, interrupt_not_open for the first id it does not hold.)
  it('given a 5 MB answer (durable runner), the run ends with a RUN_ERROR resume_too_large saying the limit', async () => {
    const threadId = `bounded-durable-${++threads}`;
    const agent = new HttpAgent({ url: `${durable.url}/agent/gate/run`, threadId, agentId: 'gate' });
    agent.addMessage({ id: `u-${threads}`, role: 'user', content: 'deploy' });
    const finished = (await events(agent)).find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts?: { id: string }[] } };
    const id = finished.outcome!.interrupts![0].id;
    const seen = await events(agent, { resume: overLimits[1][1](id) });
    expect(seen.find((e) => e.type === 'RUN_ERROR')).toEqual(
      expect.objectContaining({ code: RESUME_TOO_LARGE, message: expect.stringMatching(/more than the 1048576/) }),
    );
    expect(received).toEqual([]);
  });
});
