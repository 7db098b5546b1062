import type { InterruptHistoryRecord } from '../src/history';

/** One entry of AG-UI `RunAgentInput.resume`. */
export interface ResumeEntry {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
}

/**
 * Everything needed to send one resume again: the answers of every interrupt it addresses and the
 * run it continues. Kept after a failure so Retry sends the very same answer.
 */
export interface ResumeBatch {
  ids: string[];
  runId?: string;
  /** Standard interrupts: the `resume` array. */
  resume?: ResumeEntry[];
  /** Legacy `on_interrupt`: CopilotKit's `forwardedProps.command`. */
  legacy?: { resume: unknown; interruptEvent: unknown };
  /** Set by RUN_ERROR; the batch fails when its run finalizes. */
  failure?: string;
  /**
   * The input of the run carrying this resume, once it has been initialized. Only that run's events
   * settle the batch; a send that comes back without it sent nothing (see `InterruptController`),
   * and the card must not wait for a run that never comes.
   */
  run?: object;
}

/** Whether a run's input carries the answers of `batch` (its `resume` entries, or the legacy command). */
export function carriesBatch(
  batch: Pick<ResumeBatch, 'ids' | 'legacy'>,
  input: { resume?: Array<{ interruptId?: string }>; forwardedProps?: { command?: unknown } } | undefined,
): boolean {
  if (batch.legacy) return sameJson((input?.forwardedProps?.command as { interruptEvent?: unknown } | undefined)?.interruptEvent, batch.legacy.interruptEvent);
  return !!input?.resume?.some((entry) => !!entry.interruptId && batch.ids.includes(entry.interruptId));
}

// The run input is a structured clone of what was sent, so compare by content.
function sameJson(a: unknown, b: unknown): boolean {
  try {
    return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** The resume entry for an answered record. */
export function toResumeEntry(record: Pick<InterruptHistoryRecord, 'id' | 'status' | 'result'>): ResumeEntry {
  return record.status === 'cancelled'
    ? { interruptId: record.id, status: 'cancelled' }
    : { interruptId: record.id, status: 'resolved', payload: record.result };
}
