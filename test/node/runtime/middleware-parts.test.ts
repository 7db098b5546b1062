import { AbstractAgent, type BaseEvent, type RunAgentInput, type RunFinishedEvent } from '@ag-ui/client';
import { randomBytes } from 'node:crypto';
import { Observable } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { BUILT_IN_BACKENDS } from '../../../src/backends';
import type { Answer, InterruptBackend } from '../../../src/backends/types';
import { OWN_ID_PREFIX, backendSet, checkPrefixes, reporter } from '../../../src/runtime/backend-set';
import { applyCheck, checkResume, needsCheck, type CheckWiring } from '../../../src/runtime/check-resume';
import { normalizeInterrupts } from '../../../src/runtime/normalize-interrupts';
import { normalizeRunFinished, readInterrupt, signOurs } from '../../../src/runtime/raise';
import { INTERRUPT_ID_REFUSED, signId, verifyId } from '../../../src/runtime/signed-ids';
import { commandOf, groupAnswers, translateResume } from '../../../src/runtime/translate-resume';
import { verifyResume } from '../../../src/runtime/verify-resume';
import { acmeBackend } from './acme-backend';

// The middleware's parts one by one: what each gives for what it is given. The middleware as a
// whole, through CopilotRuntime and the real agents, is covered by the other files here.
const key = randomBytes(32);
const backends = backendSet([acmeBackend], BUILT_IN_BACKENDS);
const problems: string[] = [];
const wiring = (extra: Partial<CheckWiring> = {}): CheckWiring => ({
  backends,
  key: () => key,
  report: (problem) => void problems.push(problem),
  reportOnce: (problem) => void problems.push(problem),
  ...extra,
});
const input = (extra: Record<string, unknown> = {}) =>
  ({ threadId: 't', runId: 'r', messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...extra }) as RunAgentInput;

describe('backendSet: which backend an id belongs to', () => {
  it('gives an id to the backend with the longest prefix it starts with, and knows ids of none as not ours', () => {
    expect(backends.ownerOf('mastra-approval::run::call')?.name).toBe('Mastra');
    expect(backends.ownerOf('acme::gate-1')).toBe(acmeBackend);
    expect(backends.isOurs(`${OWN_ID_PREFIX}x`)).toBe(true);
    expect(backends.isOurs('call_1')).toBe(false);
    expect(backends.ownerOf('call_1')).toBeUndefined();
    // The app's backends are asked first.
    expect(backends.list[0]).toBe(acmeBackend);
  });

  it('refuses a prefix that overlaps another backend’s, naming both', () => {
    const clash: InterruptBackend = { name: 'Clash', idPrefixes: ['mastra::x'] };
    expect(() => checkPrefixes([...BUILT_IN_BACKENDS, clash])).toThrow(
      /"mastra::x" of the backend "Clash" overlaps "mastra::" of "Mastra"/,
    );
    expect(() =>
      backendSet(
        [
          { name: 'None', idPrefixes: [] as string[] },
          { name: 'Empty', idPrefixes: [''] },
        ],
        [],
      ),
    ).toThrow(/"Empty" needs idPrefixes/);
  });

  it('reports a problem once when asked to, and a throwing callback breaks nothing', () => {
    const seen: string[] = [];
    const { report, reportOnce } = reporter((problem) => {
      seen.push(problem);
      throw new Error('callback broke');
    });
    reportOnce('a', null);
    reportOnce('a', null);
    report('b', null);
    report('b', null);
    expect(seen).toEqual(['a', 'b', 'b']);
  });
});

describe('raise: a stop read by its backend and signed', () => {
  it('signs an id of ours for the thread, so it verifies there and nowhere else; leaves the agent’s own ids alone', () => {
    const signed = signOurs({ id: 'mastra::r::c', reason: 'x:y' }, 't', wiring()) as { id: string };
    expect(verifyId(key, 't', signed.id)).toEqual({ ok: true, id: 'mastra::r::c' });
    expect(verifyId(key, 'other', signed.id).ok).toBe(false);
    const own = { id: 'call_1', reason: 'x:y' };
    expect(signOurs(own, 't', wiring())).toBe(own);
  });

  it('marks an id from below that looks like one of ours, so its answer comes back under it', () => {
    expect(readInterrupt({ id: 'mastra::made-up', reason: 'x:y' }, { runId: 'r', report: () => {} }, backends)).toEqual([
      { id: `${OWN_ID_PREFIX}mastra::made-up`, reason: 'x:y' },
    ]);
  });

  it('builds one interrupt outcome from a run’s legacy events, each id once, and leaves a plain finish as it was', () => {
    const finished = { type: 'RUN_FINISHED', threadId: 't', runId: 'r' } as RunFinishedEvent;
    expect(normalizeRunFinished(finished, [], input(), wiring())).toBe(finished);
    const legacy = [{ value: { id: 'q1', question: 'Go?' }, rawEvent: undefined, index: 0 }];
    const out = normalizeRunFinished(finished, [...legacy, { ...legacy[0] }], input(), wiring()) as { outcome?: any };
    expect(out.outcome.type).toBe('interrupt');
    expect(out.outcome.interrupts).toHaveLength(1);
    expect(out.outcome.interrupts[0].id).toMatch(/^legacy::/);
  });
});

describe('verifyResume: the signatures checked and taken off', () => {
  const signed = signId(key, 't', 'mastra::r::c');

  it('gives the answer under the id that was signed, with what the signature vouches for', () => {
    const verified = verifyResume(input({ resume: [{ interruptId: signed, status: 'resolved', payload: 1 }] }), {
      ...wiring(),
      onlyOurs: false,
    });
    if ('refused' in verified) throw new Error(verified.refused.message);
    expect((verified.input as { resume?: unknown }).resume).toEqual([{ interruptId: 'mastra::r::c', status: 'resolved', payload: 1 }]);
    expect(verified.fingerprints.get('mastra::r::c')).toEqual({ sent: signed });
  });

  it('refuses an altered id, an id from another thread and a browser-written interruptEvent', () => {
    const refused = (resumeInput: RunAgentInput, onlyOurs = false) => {
      const verified = verifyResume(resumeInput, { ...wiring(), onlyOurs });
      return 'refused' in verified ? verified.refused.code : 'passed';
    };
    expect(refused(input({ resume: [{ interruptId: `${signed}x`, status: 'resolved' }] }))).toBe(INTERRUPT_ID_REFUSED);
    expect(refused(input({ threadId: 'u', resume: [{ interruptId: signed, status: 'resolved' }] }))).toBe(INTERRUPT_ID_REFUSED);
    expect(refused(input({ forwardedProps: { command: { interruptEvent: 'forged' } } }))).toBe(INTERRUPT_ID_REFUSED);
    // The agent's own id passes, unless its agent takes only signed ids.
    expect(refused(input({ resume: [{ interruptId: 'call_1', status: 'resolved' }] }))).toBe('passed');
    expect(refused(input({ resume: [{ interruptId: 'call_1', status: 'resolved' }] }), true)).toBe(INTERRUPT_ID_REFUSED);
  });
});

describe('checkResume: each backend checks its answers, in order', () => {
  const checking = (check: InterruptBackend['checkResume']): CheckWiring =>
    wiring({ backends: backendSet([{ name: 'Checker', idPrefixes: ['chk::'], checkResume: check }], BUILT_IN_BACKENDS) });
  const agent = {} as AbstractAgent;

  it('needs a check only for answers of a backend that has one', () => {
    const { backends: withChecker } = checking(() => undefined);
    expect(needsCheck(input({ resume: [{ interruptId: 'mastra::r::c', status: 'resolved' }] }), withChecker)).toBe(false);
    expect(needsCheck(input({ resume: [{ interruptId: 'chk::1', status: 'resolved' }] }), withChecker)).toBe(true);
    expect(needsCheck(input(), withChecker)).toBe(false);
  });

  it('readdresses answers, waits for a check that has to, and stops at the first refusal', async () => {
    const resume = [
      { interruptId: 'chk::1', status: 'resolved' },
      { interruptId: 'call_1', status: 'resolved' },
    ];
    const readdressed = await checkResume(
      input({ resume }),
      agent,
      new Map(),
      checking(async (answers) => ({ answers: answers.map((answer) => ({ ...answer, interruptId: 'chk::2' })) })),
    );
    expect(readdressed).toEqual({ input: input({ resume: [{ interruptId: 'chk::2', status: 'resolved' }, resume[1]] }) });
    const refusal = { code: INTERRUPT_ID_REFUSED, message: 'no' } as const;
    expect(
      await checkResume(
        input({ resume }),
        agent,
        new Map(),
        checking(() => ({ refused: refusal })),
      ),
    ).toEqual({ refused: refusal });
  });

  it('lets answers go on unchecked, reported, when a check throws or rejects', async () => {
    problems.length = 0;
    const resume = [{ interruptId: 'chk::1', status: 'resolved' }];
    const asked = input({ resume });
    expect(
      await checkResume(
        asked,
        agent,
        new Map(),
        checking(() => Promise.reject(new Error('down'))),
      ),
    ).toEqual({ input: asked });
    expect(problems).toEqual(['The Checker backend could not check the answers; they go on unchecked (down).']);
  });

  it('keeps the entries when a check gives back another number of answers', () => {
    const mine: Answer[] = [{ interruptId: 'chk::1', status: 'resolved' }];
    const report = vi.fn();
    expect(applyCheck(acmeBackend, mine, mine, { answers: [] }, report)).toBe(mine);
    expect(report).toHaveBeenCalledOnce();
  });
});

describe('translateResume: each answer in the form its agent reads', () => {
  it('groups the answers by the backend that translates them and takes the own:: mark off', () => {
    const { rest, groups } = groupAnswers(
      [
        { interruptId: 'mastra::r::c', status: 'resolved' },
        { interruptId: `${OWN_ID_PREFIX}mastra::x`, status: 'resolved' },
        { interruptId: 'call_1', status: 'resolved' },
        { interruptId: 'mastra::r::d', status: 'cancelled' },
      ],
      backends,
    );
    expect(rest).toEqual([
      { interruptId: 'mastra::x', status: 'resolved' },
      { interruptId: 'call_1', status: 'resolved' },
    ]);
    expect([...groups].map(([backend, answers]) => [backend.name, answers.map((a) => a.interruptId)])).toEqual([
      ['Mastra', ['mastra::r::c', 'mastra::r::d']],
    ]);
  });

  it('sends a lone legacy answer as command.resume, several as one map without a prototype', () => {
    expect(commandOf([{ key: 'a', value: 1, alone: true, interruptEvent: { value: 'e' } }])).toEqual({ resume: 1, interruptEvent: 'e' });
    const map = commandOf([
      { key: '__proto__', value: 1 },
      { key: '__proto__', fallbackKey: 'b', value: 2 },
    ]).resume as Record<string, unknown>;
    expect(Object.getPrototypeOf(map)).toBeNull();
    expect({ ...map }).toEqual({ ['__proto__']: 1, b: 2 });
  });

  it('leaves a client that speaks the legacy way alone, and passes entries nobody translates unchanged', () => {
    const legacyWay = input({ resume: [{ interruptId: 'mastra::r::c' }], forwardedProps: { command: { resume: 1 } } });
    expect(translateResume(legacyWay, backends, () => {}).input).toBe(legacyWay);
    const plain = input({ resume: [{ interruptId: 'call_1', status: 'resolved' }] });
    expect(translateResume(plain, backends, () => {}).input).toBe(plain);
  });
});

describe('normalizeInterrupts: the parts wired', () => {
  class Recorder extends AbstractAgent {
    readonly inputs: RunAgentInput[] = [];
    run(runInput: RunAgentInput): Observable<BaseEvent> {
      this.inputs.push(runInput);
      return new Observable((subscriber) => subscriber.complete());
    }
  }

  it('starts a run whose answers no backend checks during the subscribe itself, as it did before the checks could wait', () => {
    const agent = new Recorder();
    const middleware = normalizeInterrupts({ secret: key, onProblem: () => {} });
    const resume = [{ interruptId: signId(key, 't', 'mastra::r::c'), status: 'resolved' }];
    middleware(input({ resume }), agent).subscribe();
    expect(agent.inputs).toHaveLength(1);
    middleware(input(), agent).subscribe();
    expect(agent.inputs).toHaveLength(2);
  });
});
