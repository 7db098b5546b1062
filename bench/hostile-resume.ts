/**
 * Figure 6b, hostile resumes: `normalizeInterrupts()` on a resume built to make the server slow,
 * the way any user could send one (their own cards' ids are valid): one valid signed id repeated
 * 20,000 times, 201 entries, and a 5 MB answer. The figure is the slowest input's median time from
 * the request to its RUN_ERROR; the bounds of a resume (MAX_RESUME_ENTRIES, MAX_RESUME_BYTES, one
 * answer per id) refuse each before any signature is checked.
 */
import { performance } from 'node:perf_hooks';
import { AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { Observable, firstValueFrom, toArray } from 'rxjs';
import { normalizeInterrupts } from '../src/runtime';
import { median } from './stats';

export interface HostileResumeResult {
  slowest: string;
  slowestMs: number;
  perInput: Record<string, number>;
  /** Each input's RUN_ERROR code: a bound that stopped holding shows as another code or none. */
  codes: Record<string, string | undefined>;
  rounds: number;
}

/** An agent that raises one plain AG-UI interrupt, and counts the runs that got past the middleware. */
class OneCardAgent extends AbstractAgent {
  reached = 0;
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable((subscriber) => {
      const { threadId, runId } = input;
      if ((input as { resume?: unknown }).resume) this.reached++;
      const card = { id: 'deploy', reason: 'tool_approval', message: 'Deploy?' };
      subscriber.next({ type: 'RUN_STARTED', threadId, runId } as BaseEvent);
      subscriber.next({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts: [card] } } as BaseEvent);
      subscriber.complete();
    });
  }
}

const input = (resume?: unknown[]): RunAgentInput =>
  ({
    threadId: 'hostile',
    runId: 'r',
    messages: [],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
    ...(resume ? { resume } : {}),
  }) as RunAgentInput;

export async function measureHostileResumes(rounds = 5): Promise<HostileResumeResult> {
  const middleware = normalizeInterrupts({ secret: 'a-bench-secret-of-at-least-32-characters', onProblem: () => {} });
  const agent = new OneCardAgent();
  const raised = await firstValueFrom(middleware(input(), agent).pipe(toArray()));
  const id = (raised.at(-1) as { outcome?: { interrupts?: { id: string }[] } }).outcome?.interrupts?.[0]?.id;
  if (!id) throw new Error('hostile resumes: the middleware raised no card to take an id from');
  const entry = (interruptId: string, payload: unknown = { approved: true }) => ({ interruptId, status: 'resolved', payload });
  const corpus: Array<[string, unknown[]]> = [
    ['one valid id 20,000 times', Array.from({ length: 20_000 }, () => entry(id))],
    ['201 entries', Array.from({ length: 201 }, (_, i) => entry(`${id}${i}`))],
    ['a 5 MB answer', [entry(id, { text: 'x'.repeat(5 * 1024 * 1024) })]],
  ];
  const perInput: Record<string, number> = {};
  const codes: Record<string, string | undefined> = {};
  for (const [name, resume] of corpus) {
    const times: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      const start = performance.now();
      const events = await firstValueFrom(middleware(input(resume), agent).pipe(toArray()));
      if (round > 0) times.push(performance.now() - start); // round 0 warms up
      codes[name] = (events.find((e) => e.type === 'RUN_ERROR') as { code?: string } | undefined)?.code;
    }
    perInput[name] = median(times);
  }
  if (agent.reached > 0) throw new Error(`hostile resumes: ${agent.reached} reached the agent`);
  const [slowest, slowestMs] = Object.entries(perInput).sort((a, b) => b[1] - a[1])[0];
  return { slowest, slowestMs, perInput, codes, rounds };
}
