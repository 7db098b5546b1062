import { isOptionalString, isRecord, stripUndefined } from '../wire/guards';
import { sanitize } from '../wire/sanitize';
import type { InterruptSource, UnwrappedInterrupt } from '../unwrap/types';
import { TERMINAL_STATUSES, type InterruptStatus } from '../session/status';
import type { InterruptHistoryRecord } from './types';
import { LOG } from '../log';

const SOURCES: readonly InterruptSource[] = ['standard', 'mastra', 'legacy', 'raw'];
/** The optional text fields of an interrupt that the cards print. */
const INTERRUPT_TEXTS = ['originalReason', 'toolName', 'toolCallId', 'message', 'expiresAt', 'problem'] as const;
/** How many dropped records one warning names. */
const NAMED_IN_WARNING = 10;

/** A value checked field by field against what the cards read: its copy, or the sentence saying why not. */
type Checked<T> = T | string;

function checkInterrupt(value: unknown): Checked<UnwrappedInterrupt> {
  if (!isRecord(value)) return 'its interrupt is not an object';
  if (typeof value.id !== 'string' || value.id === '') return "its interrupt's id is not text";
  if (typeof value.reason !== 'string') return "its interrupt's reason is not text";
  if (!isRecord(value.metadata)) return "its interrupt's metadata is not an object";
  if (value.source !== undefined && !SOURCES.includes(value.source as InterruptSource)) {
    return "its interrupt's source is unknown";
  }
  for (const field of INTERRUPT_TEXTS) {
    if (!isOptionalString(value[field])) return `its interrupt's ${field} is not text`;
  }
  // Only the fields the cards read are kept, so nothing else stored can reach them.
  const interrupt: UnwrappedInterrupt = {
    id: value.id,
    reason: value.reason,
    metadata: value.metadata,
    payload: value.payload,
    source: (value.source as InterruptSource | undefined) ?? 'raw',
    raw: undefined,
  };
  if (value.responseSchema !== undefined) interrupt.responseSchema = value.responseSchema;
  for (const field of INTERRUPT_TEXTS) {
    if (typeof value[field] === 'string') interrupt[field] = value[field];
  }
  return interrupt;
}

function checkRecord(value: unknown, threadId: string): Checked<InterruptHistoryRecord> {
  if (!isRecord(value)) return 'it is not an object';
  if (value.threadId !== threadId) return 'it belongs to another thread';
  if (typeof value.id !== 'string' || value.id === '') return 'its id is not text';
  if (typeof value.reason !== 'string') return 'its reason is not text';
  if (typeof value.time !== 'number' || !Number.isFinite(value.time)) return 'its time is not a number';
  if (value.anchor !== null && typeof value.anchor !== 'string') return 'its anchor is not text or null';
  if (!TERMINAL_STATUSES.includes(value.status as InterruptStatus)) {
    return 'its status is not resolved, cancelled, dismissed or expired';
  }
  if (!isOptionalString(value.error)) return 'its error is not text';
  if (!isOptionalString(value.agentId)) return 'its agent id is not text';
  if (value.elsewhere !== undefined && value.elsewhere !== true) return 'its elsewhere mark is not true';
  const interrupt = checkInterrupt(value.interrupt);
  if (typeof interrupt === 'string') return interrupt;
  return stripUndefined({
    threadId,
    id: value.id,
    reason: value.reason,
    interrupt,
    status: value.status as InterruptStatus,
    time: value.time,
    anchor: value.anchor,
    result: value.result,
    error: value.error,
    elsewhere: value.elsewhere as true | undefined,
    agentId: value.agentId,
  });
}

/** A name for a dropped record in a warning: its id when it has a readable one, else its position. */
function nameOf(value: unknown, index: number): string {
  const id = isRecord(value) ? value.id : undefined;
  return typeof id === 'string' ? `#${index} (id ${JSON.stringify(id.slice(0, 60))})` : `#${index}`;
}

/**
 * Records from a stored string. Storage is outside our control (other versions, other tabs,
 * hand edits), so every record is checked field by field against what the cards read, and copied
 * through the unwrap sanitiser (unsafe keys, depth, size). A record that fails is dropped; one the
 * sanitiser had to trim is kept without what it left out. One console warning names both and why.
 * At most `max` records (the newest) are read.
 */
export function parseRecords(text: string | null | undefined, threadId: string, max = Number.POSITIVE_INFINITY): InterruptHistoryRecord[] {
  if (text == null || text === '') return [];
  const ignore = (why: string) => {
    console.warn(`${LOG} Ignoring stored interrupt history for thread "${threadId}": ${why}.`);
    return [];
  };
  if (typeof text !== 'string') return ignore('it is not text');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ignore('it is not valid JSON');
  }
  if (!Array.isArray(parsed)) return ignore('expected an array');
  // The limit applies before any checking, so a huge stored list costs no more than a full one.
  const start = Math.max(0, parsed.length - max);
  const records: InterruptHistoryRecord[] = [];
  const notes: string[] = [];
  for (let i = start; i < parsed.length; i++) {
    // The sanitiser's copy is safe whatever it had to leave out (an answer with a key named
    // `constructor`, say): a record that still has what the cards read is kept, and said so.
    const { value, problems } = sanitize(parsed[i]);
    const checked = checkRecord(value, threadId);
    if (typeof checked === 'string') notes.push(`${nameOf(parsed[i], i)}: dropped, ${checked}`);
    else {
      records.push(checked);
      if (problems.length) notes.push(`${nameOf(parsed[i], i)}: kept, ${problems.join(' ')}`);
    }
  }
  if (notes.length > 0) {
    const named = notes.slice(0, NAMED_IN_WARNING).join('; ');
    const more = notes.length > NAMED_IN_WARNING ? `; and ${notes.length - NAMED_IN_WARNING} more` : '';
    console.warn(`${LOG} ${notes.length} stored interrupt record(s) for thread "${threadId}" were malformed: ${named}${more}.`);
  }
  return records;
}
