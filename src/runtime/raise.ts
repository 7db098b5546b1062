/**
 * The raising half of the middleware: a run's stop read by its backend as standard interrupts,
 * each id of ours signed for the thread.
 */
import type { RunAgentInput, RunFinishedEvent } from '@ag-ui/client';
import type { Json, RaiseContext, RaiseEvent, Report } from '../backends/types';
import { isRecord } from '../wire/guards';
import { liftInterrupt, nonEmptyText } from '../wire/shapes';
import { OWN_ID_PREFIX, type BackendSet } from './backend-set';
import { approvalFingerprint } from '../backends/fingerprint';
import { signId } from './signed-ids';

/** What raising needs of the middleware: its backends, where problems go, and the signing key. */
export interface RaiseWiring {
  backends: BackendSet;
  report: Report;
  /** The key ids are signed with; throws when there is none (see `lazySecret`). */
  key(): Buffer;
}

/**
 * The standard interrupts one interrupt of an outcome reads as: the first backend that reads it
 * owns it. An id from below that already looks like one of ours is marked (`own::`) instead.
 */
export function readInterrupt(interrupt: Json, context: RaiseContext, backends: BackendSet): Json[] {
  const id = nonEmptyText(interrupt.id);
  if (id && backends.isOurs(id)) return [liftInterrupt({ ...interrupt, id: OWN_ID_PREFIX + id })];
  for (const backend of backends.list) {
    const read = backend.fromInterrupt?.(interrupt, context);
    if (read) return read;
  }
  return [interrupt];
}

/** The standard interrupts a run's legacy `on_interrupt` events read as, each id once, in order. */
export function readEvents(events: readonly RaiseEvent[], context: RaiseContext, backends: BackendSet): Json[] {
  const interrupts: Json[] = [];
  const ids = new Set<string>();
  for (const event of events) {
    for (const interrupt of readEvent(event, context, backends)) {
      if (ids.has(interrupt.id as string)) continue;
      ids.add(interrupt.id as string);
      interrupts.push(interrupt);
    }
  }
  return interrupts;
}

/** The standard interrupts one legacy event reads as: the first backend that reads it owns it. */
function readEvent(event: RaiseEvent, context: RaiseContext, backends: BackendSet): Json[] {
  for (const backend of backends.list) {
    const read = backend.fromEvent?.(event, context);
    if (read) return read;
  }
  return [];
}

/** The interrupt with its id signed for this thread, when the id is one of ours (with the approval's fingerprint). */
export function signOurs(interrupt: unknown, threadId: string, wiring: Pick<RaiseWiring, 'backends' | 'key'>): unknown {
  if (!isRecord(interrupt) || typeof interrupt.id !== 'string' || !wiring.backends.isOurs(interrupt.id)) return interrupt;
  return { ...interrupt, id: signId(wiring.key(), threadId ?? '', interrupt.id, approvalFingerprint(interrupt)) };
}

/**
 * The RUN_FINISHED event with every interrupt read by its backend and signed; when the run
 * emitted only legacy `on_interrupt` events, with a standard interrupt outcome built from them.
 * The same event when there is nothing to change.
 */
export function normalizeRunFinished(
  event: RunFinishedEvent,
  legacy: readonly RaiseEvent[],
  input: RunAgentInput,
  wiring: RaiseWiring,
): RunFinishedEvent {
  const context: RaiseContext = { runId: input.runId, report: wiring.report };
  const sign = (interrupt: unknown) => signOurs(interrupt, input.threadId, wiring);
  const outcome = (event as { outcome?: unknown }).outcome;
  if (isRecord(outcome) && outcome.type === 'interrupt' && Array.isArray(outcome.interrupts)) {
    const given = outcome.interrupts as unknown[];
    const interrupts = given.flatMap((interrupt) =>
      (isRecord(interrupt) ? readInterrupt(interrupt, context, wiring.backends) : [interrupt]).map(sign),
    );
    const changed = interrupts.length !== given.length || interrupts.some((interrupt, i) => interrupt !== given[i]);
    return changed ? ({ ...event, outcome: { ...outcome, interrupts } } as RunFinishedEvent) : event;
  }
  if (legacy.length === 0) return event;
  const interrupts = readEvents(legacy, context, wiring.backends);
  if (interrupts.length === 0) return event;
  return { ...event, outcome: { type: 'interrupt', interrupts: interrupts.map(sign) } } as RunFinishedEvent;
}
