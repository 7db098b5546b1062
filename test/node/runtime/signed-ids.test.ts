import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import fc from 'fast-check';
import { Observable, firstValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normalizeInterrupts } from '../../../src/runtime';
import { signId, verifyId } from '../../../src/runtime/signed-ids';

// The browser is untrusted: every id normalizeInterrupts() gives it is signed, and an answer whose
// id was altered, cut, made up, issued for another thread or signed with another secret never
// reaches the agent. A legacy-only agent (on_interrupt CUSTOM events, forwardedProps.command
// resumes) is the one whose ids carry the most: the whole event the agent gets back.
const SECRET = 'a-test-secret-of-at-least-32-characters';
const OTHER_SECRET = 'another-secret-of-at-least-32-characters';

/** A legacy-only agent: raises the given on_interrupt values; a run that carries a command records it. */
class LegacyAgent extends AbstractAgent {
  readonly commands: unknown[] = [];
  constructor(private readonly values: unknown[] = []) {
    super({ agentId: 'legacy' });
  }
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      const command = (input.forwardedProps as { command?: unknown } | undefined)?.command;
      if (command || (input as { resume?: unknown }).resume) this.commands.push(command ?? (input as { resume?: unknown }).resume);
      else for (const value of this.values) subscriber.next({ type: 'CUSTOM', name: 'on_interrupt', value } as BaseEvent);
      subscriber.next({ type: 'RUN_FINISHED', threadId, runId } as BaseEvent);
      subscriber.complete();
    });
  }
}

const input = (threadId: string, runId: string, resume?: unknown[]): RunAgentInput =>
  ({
    threadId,
    runId,
    messages: [],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
    ...(resume ? { resume } : {}),
  }) as RunAgentInput;

const run = (agent: AbstractAgent, runInput: RunAgentInput, secret = SECRET) =>
  firstValueFrom(normalizeInterrupts({ secret, onProblem: () => {} })(runInput, agent).pipe(toArray()));

/** Raises the values on a thread and returns the ids the browser gets. */
async function raise(values: unknown[], threadId = 'thread-1', secret = SECRET): Promise<string[]> {
  const events = await run(new LegacyAgent(values), input(threadId, 'run-1'), secret);
  const finished = events.find((e) => e.type === 'RUN_FINISHED') as { outcome?: { interrupts: { id: string }[] } };
  return finished.outcome!.interrupts.map((i) => i.id);
}

/** Answers one id on a thread (on a fresh agent, as another request): what the run emitted and what the agent got. */
async function answer(id: string, { threadId = 'thread-1', secret = SECRET, payload = { approved: true } as unknown } = {}) {
  const agent = new LegacyAgent();
  const events = await run(agent, input(threadId, 'run-2', [{ interruptId: id, status: 'resolved', payload }]), secret);
  return { events, received: agent.commands };
}

const approval = { reason: 'aidev:tool_approval', message: 'Delete it?', metadata: { toolName: 'delete_branch', args: { name: 'old' } } };

/** The run a refused answer gives: one RUN_ERROR naming the id and the reason; the agent gets nothing. */
function expectRefused(result: Awaited<ReturnType<typeof answer>>, id: string, reason: RegExp) {
  expect(result.received).toEqual([]);
  expect(result.events).toEqual([{ type: 'RUN_ERROR', code: 'interrupt_id_refused', message: expect.stringMatching(reason) }]);
  const message = (result.events[0] as unknown as { message: string }).message;
  expect(message).toContain(JSON.stringify(id.length > 120 ? id.slice(0, 60) : id).slice(0, -1));
}

describe('signed interrupt ids: what the browser sends back is checked', () => {
  it('given an id we issued, when it comes back unchanged on its thread, the agent gets the answer with the event it raised', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.string({ minLength: 1 }), async (value, threadId) => {
        fc.pre(value !== null && JSON.stringify(value).length < 2000);
        const [id] = await raise([value], threadId);
        const { events, received } = await answer(id, { threadId, payload: 'yes' });
        expect(events.some((e) => e.type === 'RUN_ERROR')).toBe(false);
        // As JSON, the form an event travels in (-0 reads back as 0).
        expect(received).toEqual([{ resume: 'yes', interruptEvent: JSON.parse(JSON.stringify(value)) }]);
      }),
      // Keys an object literal treats specially are still the agent's keys.
      { numRuns: 60, examples: [[JSON.parse('{"__proto__":0,"constructor":{"prototype":1}}') as fc.JsonValue, ' ']] },
    );
  });

  it('given any single character of an issued id changed, removed or added, the answer is refused and the agent gets nothing', async () => {
    const [question, approvalId] = await raise(['Which branch?', JSON.stringify(approval)]);
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), char: fc.string({ minLength: 1, maxLength: 1 }) }),
      fc.record({ kind: fc.constant('remove' as const), at: fc.nat(), char: fc.constant('') }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: fc.string({ minLength: 1, maxLength: 1 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(question, approvalId), edit, async (id, { kind, at, char }) => {
        const i = at % (id.length + (kind === 'insert' ? 1 : 0));
        const changed = id.slice(0, i) + (kind === 'remove' ? '' : char) + id.slice(kind === 'insert' ? i : i + 1);
        fc.pre(changed !== id);
        const result = await answer(changed);
        if (!changed.startsWith('legacy::')) {
          // Without our prefix the id is not one of ours: it reaches the agent as the plain answer
          // to an id of its own, with nothing read out of it (no event).
          expect(result.received).toEqual([[{ interruptId: changed, status: 'resolved', payload: { approved: true } }]]);
          return;
        }
        expect(result.received).toEqual([]);
        expect(result.events).toEqual([expect.objectContaining({ type: 'RUN_ERROR', code: 'interrupt_id_refused' })]);
      }),
      { numRuns: 300 },
    );
  });

  it('given a legacy id whose carried event was replaced by one the agent never raised, the agent never sees that event', async () => {
    const [id] = await raise([JSON.stringify(approval)]);
    // legacy::<runId>::<index>::<base64url JSON {e: event}>.<fingerprint>.<signature>
    const [body, fingerprint, signature] = id.split('.');
    const carried = body.slice(body.lastIndexOf('::') + 2);
    const forgedEvent = JSON.stringify({ ...approval, metadata: { toolName: 'delete_branch', args: { name: 'main' } } });
    const forgedCarried = Buffer.from(JSON.stringify({ e: forgedEvent })).toString('base64url');
    expect(forgedCarried).not.toBe(carried);
    const forged = `${body.slice(0, -carried.length)}${forgedCarried}.${fingerprint}.${signature}`;
    expectRefused(await answer(forged), forged, /signature does not match/);
  });

  it('given an id without its signature (made up, or cut), the answer is refused as unsigned', async () => {
    const [id] = await raise(['Which branch?']);
    const unsigned = id.slice(0, id.indexOf('.'));
    expectRefused(await answer(unsigned), unsigned, /no signature/);
    const madeUp = `legacy::run-1::0::${Buffer.from(JSON.stringify({ e: 'Deploy?' })).toString('base64url')}`;
    expectRefused(await answer(madeUp), madeUp, /no signature/);
  });

  it('given an id signed with another secret (another app, or a rotated key), the answer is refused', async () => {
    const [id] = await raise(['Which branch?'], 'thread-1', OTHER_SECRET);
    expectRefused(await answer(id), id, /signed with another secret/);
  });

  it('given an id issued on another thread, the answer is refused on this one', async () => {
    const [id] = await raise([JSON.stringify(approval)], 'thread-of-someone-else');
    expectRefused(await answer(id, { threadId: 'thread-1' }), id, /another thread/);
  });

  it('given one refused id among good answers, none of the answers reaches the agent', async () => {
    const [good, other] = await raise(['Which branch?', 'Which region?']);
    const agent = new LegacyAgent();
    const events = await run(
      agent,
      input('thread-1', 'run-2', [
        { interruptId: good, status: 'resolved', payload: 'main' },
        { interruptId: `${other.slice(0, -1)}A`, status: 'resolved', payload: 'eu' },
      ]),
    );
    expect(agent.commands).toEqual([]);
    expect(events).toEqual([{ type: 'RUN_ERROR', code: 'interrupt_id_refused', message: expect.stringContaining('was refused') }]);
  });

  it('given two server processes with the same secret, an id issued by one is accepted by the other', async () => {
    const [id] = await raise(['Which branch?'], 'thread-1', SECRET);
    const { received } = await answer(id, { secret: SECRET, payload: 'main' });
    expect(received).toEqual([{ resume: 'main', interruptEvent: 'Which branch?' }]);
  });
});

describe('the secret ids are signed with', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    vi.restoreAllMocks();
  });

  it('given production without a secret, creating the middleware does not throw (a build evaluates the route without it); every run then ends with interrupts_secret_missing, naming the option and the environment variable, and the agent never runs', async () => {
    process.env.NODE_ENV = 'production';
    delete process.env.COPILOTKIT_INTERRUPTS_SECRET;
    const problems: string[] = [];
    const middleware = normalizeInterrupts({ onProblem: (problem) => problems.push(problem) });
    for (const runInput of [input('t', 'r1'), input('t', 'r2', [{ interruptId: 'x', status: 'resolved', payload: 1 }])]) {
      const agent = new LegacyAgent(['Go?']);
      const events = await firstValueFrom(middleware(runInput, agent).pipe(toArray()));
      expect(events).toEqual([
        {
          type: 'RUN_ERROR',
          code: 'interrupts_secret_missing',
          message: expect.stringMatching(/normalizeInterrupts\(\{ secret \}\).*COPILOTKIT_INTERRUPTS_SECRET/),
        },
      ]);
      expect(agent.commands).toEqual([]);
    }
    expect(problems).toHaveLength(2);
  });

  it('given production whose secret is set after the middleware was created (a build, then the server), runs sign with it', async () => {
    process.env.NODE_ENV = 'production';
    delete process.env.COPILOTKIT_INTERRUPTS_SECRET;
    const middleware = normalizeInterrupts({ onProblem: () => {} });
    process.env.COPILOTKIT_INTERRUPTS_SECRET = SECRET;
    const events = await firstValueFrom(middleware(input('t', 'r'), new LegacyAgent(['Go?'])).pipe(toArray()));
    const [{ id }] = (events.find((e) => e.type === 'RUN_FINISHED') as any).outcome.interrupts;
    const { received } = await answer(id, { threadId: 't', payload: 'go' });
    expect(received).toEqual([{ resume: 'go', interruptEvent: 'Go?' }]);
  });

  it('given an environment secret shorter than 32 characters, runs end with interrupts_secret_missing saying the length it needs', async () => {
    process.env.NODE_ENV = 'production';
    process.env.COPILOTKIT_INTERRUPTS_SECRET = 'short';
    const middleware = normalizeInterrupts({ onProblem: () => {} });
    const events = await firstValueFrom(middleware(input('t', 'r'), new LegacyAgent(['Go?'])).pipe(toArray()));
    expect(events).toEqual([{ type: 'RUN_ERROR', code: 'interrupts_secret_missing', message: expect.stringContaining('at least 32') }]);
  });

  it('given production with the environment variable, the middleware signs with it (an id it issues is accepted with the same secret passed as the option)', async () => {
    process.env.NODE_ENV = 'production';
    process.env.COPILOTKIT_INTERRUPTS_SECRET = SECRET;
    const events = await firstValueFrom(
      normalizeInterrupts({ onProblem: () => {} })(input('t', 'r'), new LegacyAgent(['Go?'])).pipe(toArray()),
    );
    const [{ id }] = (events.find((e) => e.type === 'RUN_FINISHED') as any).outcome.interrupts;
    const { received } = await answer(id, { threadId: 't', payload: 'go' });
    expect(received).toEqual([{ resume: 'go', interruptEvent: 'Go?' }]);
  });

  it('given a secret shorter than 32 characters, creating the middleware fails with the length it needs', () => {
    expect(() => normalizeInterrupts({ secret: 'short' })).toThrow(/at least 32/);
  });

  it('given development without a secret, a random one is used for the process, with one warning', async () => {
    process.env.NODE_ENV = 'development';
    delete process.env.COPILOTKIT_INTERRUPTS_SECRET;
    vi.resetModules();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fresh = await import('../../../src/runtime');
    const first = fresh.normalizeInterrupts({ onProblem: () => {} });
    const second = fresh.normalizeInterrupts({ onProblem: () => {} });
    // Both middlewares of the process share it: one issues, the other accepts.
    const raised = await firstValueFrom(first(input('t', 'r'), new LegacyAgent(['Go?'])).pipe(toArray()));
    const [{ id }] = (raised.find((e) => e.type === 'RUN_FINISHED') as any).outcome.interrupts;
    const agent = new LegacyAgent();
    await firstValueFrom(second(input('t', 'r2', [{ interruptId: id, status: 'resolved', payload: 'go' }]), agent).pipe(toArray()));
    expect(agent.commands).toEqual([{ resume: 'go', interruptEvent: 'Go?' }]);
    expect(warn.mock.calls.filter(([text]) => String(text).includes('COPILOTKIT_INTERRUPTS_SECRET'))).toHaveLength(1);
  });
});

describe('an interruptEvent the browser writes itself', () => {
  it('given forwardedProps.command with an interruptEvent, the run is refused and the agent never sees the event', async () => {
    const agent = new LegacyAgent();
    const forged = JSON.stringify(approval);
    const events = await run(agent, {
      ...input('thread-1', 'run-2'),
      forwardedProps: { command: { resume: true, interruptEvent: forged } },
    });
    expect(agent.commands).toEqual([]);
    expect(events).toEqual([
      { type: 'RUN_ERROR', code: 'interrupt_id_refused', message: expect.stringContaining('forwardedProps.command') },
    ]);
  });

  it('given forwardedProps.command with only a resume (a client that speaks the legacy way), it reaches the agent as sent', async () => {
    const agent = new LegacyAgent();
    await run(agent, { ...input('thread-1', 'run-2'), forwardedProps: { command: { resume: 'ok' } } });
    expect(agent.commands).toEqual([{ resume: 'ok' }]);
  });
});

describe('signed ids of any content', () => {
  const key = Buffer.from(SECRET);
  const fingerprint = fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), { nil: undefined });

  it('given any id, thread and fingerprint, the signed id reads back as exactly what was signed', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fingerprint, (id, threadId, print) => {
        expect(verifyId(key, threadId, signId(key, threadId, id, print))).toEqual({
          ok: true,
          id,
          ...(print ? { fingerprint: print } : {}),
        });
      }),
      { numRuns: 500 },
    );
  });

  it('given any single character of a signed id changed, it is refused, whatever the id held', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fingerprint,
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 1 }),
        (id, threadId, print, at, char) => {
          const signed = signId(key, threadId, id, print);
          const i = at % signed.length;
          const changed = signed.slice(0, i) + char + signed.slice(i + 1);
          fc.pre(changed !== signed);
          expect(verifyId(key, threadId, changed).ok).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
