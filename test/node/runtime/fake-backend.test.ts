import { AbstractAgent, HttpAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { CopilotRuntime } from '@copilotkit/runtime/v2';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeInterrupts, withNormalizedInterrupts, INTERRUPT_ID_REFUSED } from '../../../src/runtime';
import { isToolApprovalInterrupt, unwrapInterrupt } from '../../../src/unwrap';
import { serveRuntime, type ServedRuntime } from '../../helpers/runtime-server';
import { acmeBackend } from './acme-backend';

// Adding a backend is one module (./acme-backend.ts) passed to the middleware: through
// CopilotRuntime over HTTP, its raise becomes a standard approval card's data, signed like any
// built-in backend's, and the card's answer reaches the agent in the form the agent reads.
const SECRET = 'a-secret-for-the-acme-backend-test-0123456789';

/** What the agent received as AG-UI's `resume`, run by run. */
const received: unknown[] = [];

class GateAgent extends AbstractAgent {
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      const resume = (input as { resume?: unknown }).resume;
      if (resume) {
        received.push(resume);
        subscriber.next({ type: 'RUN_FINISHED', threadId, runId } as BaseEvent);
      } else {
        const gate = { id: 'gate-1', reason: 'acme:gate', metadata: { acme: { action: 'deploy', params: { env: 'prod' } } } };
        subscriber.next({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts: [gate] } } as BaseEvent);
      }
      subscriber.complete();
    });
  }

  override clone(): GateAgent {
    return new GateAgent();
  }
}

let served: ServedRuntime | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  received.length = 0;
});

async function start(): Promise<string> {
  const agent = withNormalizedInterrupts(new GateAgent(), normalizeInterrupts({ secret: SECRET, backends: [acmeBackend] }));
  served = await serveRuntime(new CopilotRuntime({ agents: { default: agent } as never }));
  return `${served.url}/agent/default/run`;
}

async function run(agent: HttpAgent, params: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

function chat(url: string, threadId: string) {
  const agent = new HttpAgent({ url, threadId, agentId: 'default' });
  agent.addMessage({ id: `u-${threadId}`, role: 'user', content: 'Ship it' });
  return agent;
}

const interruptsOf = (events: BaseEvent[]) =>
  ((events.find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts?: unknown[] } })?.outcome?.interrupts ?? []) as {
    id: string;
  }[];

describe('a backend of your own, passed to normalizeInterrupts({ backends })', () => {
  it('given the agent raises its gate, the browser gets a signed approval card that reads the tool and arguments', async () => {
    const url = await start();
    const [interrupt] = interruptsOf(await run(chat(url, 'thread-card')));

    // Signed for the thread like a built-in backend's id: `acme::gate-1.<fingerprint>.<signature>`.
    expect(interrupt.id).toMatch(/^acme::gate-1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const card = unwrapInterrupt(interrupt);
    expect(card.problem).toBeUndefined();
    expect(isToolApprovalInterrupt(card)).toBe(true);
    expect(card).toMatchObject({
      reason: 'aidev:tool_approval',
      message: 'Allow deploy?',
      metadata: { toolName: 'deploy', args: { env: 'prod' } },
    });
  });

  it.each([
    ['approved', { status: 'resolved', payload: { approved: true } }, { verdict: 'go' }],
    [
      'rejected with a reason',
      { status: 'resolved', payload: { approved: false, reason: 'Not on a Friday' } },
      { verdict: 'stop', note: 'Not on a Friday' },
    ],
    ['dismissed', { status: 'cancelled' }, { verdict: 'stop' }],
  ])('given the card %s, the agent reads its own verdict under its own id', async (_what, answer, verdict) => {
    const url = await start();
    const agent = chat(url, 'thread-answer');
    const [interrupt] = interruptsOf(await run(agent));

    await run(agent, { resume: [{ interruptId: interrupt.id, ...answer }] });

    expect(received).toEqual([[{ interruptId: 'gate-1', status: 'resolved', payload: verdict }]]);
  });

  it('given an answer under an unsigned id of the backend, the run ends refused and the agent receives nothing', async () => {
    const url = await start();
    await run(chat(url, 'thread-forged'));

    // A client of its own (the browser's would only answer the signed id it was given).
    const events = await run(chat(url, 'thread-forged'), {
      resume: [{ interruptId: 'acme::gate-1', status: 'resolved', payload: { approved: true } }],
    });

    expect(events.find((e) => e.type === 'RUN_ERROR')).toMatchObject({ code: INTERRUPT_ID_REFUSED });
    expect(received).toEqual([]);
  });

  it('given a backend whose id prefix overlaps another backend’s, normalizeInterrupts throws at startup naming both', () => {
    for (const idPrefixes of [['langgraph::'], ['langgraph::acme::'], ['own::'], ['mastra']]) {
      expect(() => normalizeInterrupts({ secret: SECRET, backends: [{ ...acmeBackend, idPrefixes }] })).toThrow(
        /the id prefix .* of the backend "Acme deploy gate" overlaps .* of "(LangGraph|Mastra|normalizeInterrupts)"/,
      );
    }
    expect(() => normalizeInterrupts({ secret: SECRET, backends: [{ ...acmeBackend, idPrefixes: [''] }] })).toThrow(/needs idPrefixes/);
  });
});
