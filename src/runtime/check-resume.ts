/**
 * The checking half of the middleware: before the run, each backend checks its answers against
 * what the agent holds now (LangGraph: the thread's open interrupts), and may refuse or readdress them.
 */
import type { AbstractAgent, RunAgentInput } from '@ag-ui/client';
import type { Answer, InterruptBackend, Refusal, Report, ResumeContext } from '../backends/types';
import { errorMessage } from '../error-message';
import { idOf, safely, type BackendSet, type Reporter } from './backend-set';
import { readInterrupt, signOurs, type RaiseWiring } from './raise';
import type { SignedEntry } from './verify-resume';

/** A resume after the backends' checks: the input to run, or why it is refused. */
export type Checked = { input: RunAgentInput } | { refused: Refusal };
/** What one backend's check returns. */
export type CheckResult = Awaited<ReturnType<NonNullable<InterruptBackend['checkResume']>>>;

/** What checking needs of the middleware. */
export interface CheckWiring extends RaiseWiring, Reporter {}

/**
 * Whether any backend has a check for an answer of this resume. When none has, the run starts at
 * once, without waiting for {@link checkResume}: a chat message or a Mastra answer is not delayed.
 */
export function needsCheck(input: RunAgentInput, backends: BackendSet): boolean {
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume)) return false;
  return resume.some((item) => {
    const id = idOf(item);
    return id !== undefined && backends.ownerOf(id)?.checkResume !== undefined;
  });
}

/**
 * Each backend's check of its answers before the run (see {@link InterruptBackend.checkResume}),
 * in the order of the list, each on the entries as the one before left them. A backend that throws
 * or rejects is reported and its answers go on unchecked; the first refusal ends the chain.
 */
export async function checkResume(
  input: RunAgentInput,
  agent: AbstractAgent,
  fingerprints: ReadonlyMap<string, SignedEntry>,
  wiring: CheckWiring,
): Promise<Checked> {
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume)) return { input };
  const context = resumeContext(input, agent, fingerprints, wiring);
  let entries: unknown[] = resume;
  for (const backend of wiring.backends.list) {
    if (!backend.checkResume) continue;
    const mine = entries.filter((item) => {
      const id = idOf(item);
      return id !== undefined && wiring.backends.ownerOf(id) === backend;
    }) as Answer[];
    if (mine.length === 0) continue;
    let result: CheckResult;
    try {
      result = await backend.checkResume(mine, context);
    } catch (error) {
      wiring.report(`The ${backend.name} backend could not check the answers; they go on unchecked (${errorMessage(error)}).`, mine);
      continue;
    }
    const next = applyCheck(backend, mine, entries, result, wiring.report);
    if (!Array.isArray(next)) return next;
    entries = next;
  }
  return entries === resume ? { input } : { input: { ...input, resume: entries } as RunAgentInput };
}

/**
 * The entries after one backend's check: as they were (no result, or a result with another number
 * of answers, reported), each of its answers replaced by the one the check gave back, or the refusal.
 */
export function applyCheck(
  backend: InterruptBackend,
  mine: readonly Answer[],
  entries: unknown[],
  result: CheckResult,
  report: Report,
): unknown[] | { refused: Refusal } {
  if (!result) return entries;
  if ('refused' in result) return result;
  if (result.answers.length !== mine.length) {
    report(`The ${backend.name} backend's check returned another number of answers; they go on as they were.`, result.answers);
    return entries;
  }
  const readdressed = new Map<unknown, Answer>(mine.map((answer, i) => [answer, result.answers[i]]));
  return entries.map((item) => readdressed.get(item) ?? item);
}

/** What the backends' checks of one resume may ask (see {@link ResumeContext}). */
export function resumeContext(
  input: RunAgentInput,
  agent: AbstractAgent,
  fingerprints: ReadonlyMap<string, SignedEntry>,
  wiring: CheckWiring,
): ResumeContext {
  const made = new Map<string, unknown>();
  const { report } = wiring;
  return {
    input,
    agent,
    report,
    reportOnce: wiring.reportOnce,
    shown: (id) => fingerprints.get(id),
    read: (interrupt) =>
      safely(
        () =>
          readInterrupt(interrupt, { runId: input.runId, report }, wiring.backends).map((card) => signOurs(card, input.threadId, wiring)),
        [],
        report,
        'refusal',
      ),
    once: <T>(name: string, make: () => T): T => {
      if (!made.has(name)) made.set(name, make());
      return made.get(name) as T;
    },
  };
}
