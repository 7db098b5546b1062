import type { BaseResume, InterruptReason } from '../protocol';
import type { InterruptHistoryRecord } from '../history';
import { isRecord } from '../wire/guards';

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
    payload: cancelled ? {} : isRecord(record.result) ? record.result : { value: record.result },
  };
}
