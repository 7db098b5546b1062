import type { BaseResume, InterruptReason } from '../src/protocol';
import type { InterruptHistoryRecord } from '../src/history';

/**
 * The protocol's resume record for an answer (`UserQuestionResume` and its kin): what
 * `onInterruptResume` receives. A cancel carries an empty payload, as `BaseResume` requires one.
 */
export function toResumeRecord(
  record: Pick<InterruptHistoryRecord, 'id' | 'reason' | 'status' | 'result'>,
): BaseResume<InterruptReason, Record<string, unknown>> {
  const cancelled = record.status === 'cancelled';
  return {
    interruptId: record.id,
    reason: record.reason as InterruptReason,
    status: cancelled ? 'cancelled' : 'resolved',
    payload: cancelled ? {} : isObject(record.result) ? record.result : { value: record.result },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
