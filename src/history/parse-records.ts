import { isRecord } from '../unwrap/guards';
import { TERMINAL_RECORD_STATUSES, type InterruptHistoryRecord } from './types';
import { LOG } from '../log';

function isHistoryRecord(value: unknown, threadId: string): value is InterruptHistoryRecord {
  if (!isRecord(value)) return false;
  const { interrupt } = value;
  return (
    value.threadId === threadId &&
    typeof value.id === 'string' &&
    typeof value.reason === 'string' &&
    typeof value.time === 'number' &&
    (value.anchor === null || typeof value.anchor === 'string') &&
    TERMINAL_RECORD_STATUSES.includes(value.status as never) &&
    isRecord(interrupt) &&
    typeof interrupt.id === 'string' &&
    typeof interrupt.reason === 'string' &&
    isRecord(interrupt.metadata)
  );
}

/**
 * Records from a stored string. Storage is outside our control (other versions, other tabs,
 * hand edits), so anything that is not a well-formed record of this thread is dropped with a
 * console warning rather than trusted.
 */
export function parseRecords(text: string | null | undefined, threadId: string): InterruptHistoryRecord[] {
  if (text == null || text === '') return [];
  const ignore = (why: string) => {
    console.warn(`${LOG} Ignoring stored interrupt history for thread "${threadId}": ${why}.`);
    return [];
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ignore('it is not valid JSON');
  }
  if (!Array.isArray(parsed)) return ignore('expected an array');
  const records = parsed.filter((item) => isHistoryRecord(item, threadId));
  if (records.length < parsed.length) {
    console.warn(
      `${LOG} Dropped ${parsed.length - records.length} malformed stored interrupt record(s) for thread "${threadId}".`,
    );
  }
  return records;
}
