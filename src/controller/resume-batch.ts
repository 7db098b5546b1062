/** What identifies a resume in a run's input: the interrupt ids it answers, or the legacy command. */
export interface CarriedBatch {
  ids: string[];
  legacy?: { resume: unknown; interruptEvent: unknown };
}

/** Whether a run's input carries the answers of `batch` (its `resume` entries, or the legacy command). */
export function carriesBatch(
  batch: CarriedBatch,
  input: { resume?: Array<{ interruptId?: string }>; forwardedProps?: { command?: unknown } } | undefined,
): boolean {
  if (batch.legacy)
    return sameJson(
      (input?.forwardedProps?.command as { interruptEvent?: unknown } | undefined)?.interruptEvent,
      batch.legacy.interruptEvent,
    );
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
