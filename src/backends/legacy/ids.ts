/**
 * Legacy `on_interrupt` events of agents that send no interrupt outcome: the `legacy::` id that
 * carries the event value (so the resume needs no server memory) and how a value reads as a
 * standard interrupt.
 */
import { isRecord } from '../../wire/guards';
import { decodeValue, liftedFields, nonEmptyText, objectOrJson } from '../../wire/shapes';
import { MAX_CARRIED_LENGTH, carriedObject, toBase64Url, utf8Json } from '../carry';
import type { Json } from '../types';

/** The reason given to a legacy interrupt whose value names none. */
export const LEGACY_INTERRUPT_REASON = 'legacy:on_interrupt';
/** Prefix of the ids given to legacy interrupts that are neither Mastra's nor LangGraph's. */
export const LEGACY_INTERRUPT_ID_PREFIX = 'legacy::';
/**
 * Longest legacy event value carried inside an interrupt id, in bytes of UTF-8 JSON. A larger one
 * still gets an interrupt, whose resume then reaches the agent without its `interruptEvent` (but
 * with the agent's own interrupt id).
 */
export const MAX_CARRIED_EVENT_LENGTH = MAX_CARRIED_LENGTH;

/** What a legacy interrupt id carries so that its resume needs no server memory. */
export interface CarriedLegacyEvent {
  /** The id the agent gave the interrupt itself (keys a resume map), if any. */
  agentId?: string;
  /** The `on_interrupt` event value, sent back as `forwardedProps.command.interruptEvent`; absent when too large to carry. */
  event?: unknown;
}

/**
 * `legacy::<runId>::<index>::<base64url JSON of {agentId?, event}>`: distinct per run and
 * position, and carrying everything the resume translation needs (server restarts, several
 * processes, any thread or user). When the value is too large to carry, the last part is empty
 * and `problem` says so.
 */
export function legacyInterruptId(runId: string, index: number, carried: CarriedLegacyEvent): { id: string; problem?: string } {
  const base = `${LEGACY_INTERRUPT_ID_PREFIX}${runId}::${index}::`;
  const own = carried.agentId ? { a: carried.agentId } : {};
  const encode = (value: object) => {
    try {
      const bytes = utf8Json(value);
      return bytes.length > MAX_CARRIED_EVENT_LENGTH ? undefined : toBase64Url(bytes);
    } catch {
      return undefined;
    }
  };
  const whole = encode({ ...own, e: carried.event });
  if (whole) return { id: `${base}${whole}` };
  // Without the event, the agent's own id still keys its answer.
  return {
    id: `${base}${(carried.agentId && encode(own)) || ''}`,
    problem: `A legacy interrupt value is too large to carry in its id (the limit is ${MAX_CARRIED_EVENT_LENGTH} bytes of JSON); its answer will reach the agent without the interruptEvent.`,
  };
}

/** A legacy id read back: what it carries, or why it cannot be read (`other` for an id that is not one). Never throws: the id is untrusted input. */
export function parseLegacyId(id: unknown): { kind: 'legacy'; carried?: CarriedLegacyEvent; problem?: string } | { kind: 'other' } {
  if (typeof id !== 'string' || !id.startsWith(LEGACY_INTERRUPT_ID_PREFIX)) return { kind: 'other' };
  const encoded = id.slice(id.lastIndexOf('::') + 2);
  if (encoded === '' || id.lastIndexOf('::') < LEGACY_INTERRUPT_ID_PREFIX.length) return { kind: 'legacy' };
  const carried = carriedObject(encoded);
  if (!carried) return { kind: 'legacy', problem: 'A legacy interrupt id carries an unreadable event; its answer is sent without it.' };
  // Plain data as JSON.parse made it (an own `__proto__` key stays a key): the signature was checked
  // before, so this is the event exactly as the agent raised it.
  const clean = carried;
  const agentId = nonEmptyText(clean.a);
  return { kind: 'legacy', carried: { ...(agentId ? { agentId } : {}), ...('e' in clean ? { event: clean.e } : {}) } };
}

/**
 * The standard interrupt for the value of a legacy `on_interrupt` event that is neither Mastra's
 * nor LangGraph's: `{reason, metadata, message?, ...}` keeps its reason; any other value becomes
 * `legacy:on_interrupt` with the value under `metadata` (a plain sentence as `message`).
 */
export function fromLegacyData(id: string, value: unknown): Json {
  const decoded = decodeValue(value);
  if (!decoded.ok) return { id, reason: LEGACY_INTERRUPT_REASON, message: String(value), metadata: { value } };
  const data = decoded.value;
  if (!isRecord(data)) {
    return typeof data === 'string' && data !== ''
      ? { id, reason: LEGACY_INTERRUPT_REASON, message: data, metadata: { value: data } }
      : { id, reason: LEGACY_INTERRUPT_REASON, metadata: { value: data } };
  }
  const lifted = liftedFields(data);
  const out: Json = { id, reason: lifted?.reason ?? LEGACY_INTERRUPT_REASON, metadata: lifted ? lifted.metadata : data };
  for (const key of ['message', 'toolCallId', 'expiresAt'] as const) {
    const field = nonEmptyText(data[key]);
    if (field) out[key] = field;
  }
  const responseSchema = objectOrJson(data.responseSchema);
  if (responseSchema) out.responseSchema = responseSchema;
  return out;
}
