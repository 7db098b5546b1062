/**
 * The readers of interrupt shapes that both halves share, used by the browser's `unwrapInterrupt`
 * and by the backends of the server's `normalizeInterrupts()` (src/backends): texts, JSON values,
 * and the "payload carries its own reason" lift. What is one backend's (its ids, its values)
 * lives in that backend's module.
 */
import { isRecord, stripUndefined } from './guards';
import { decodeJson, preview } from './json';

type Json = Record<string, unknown>;

export const nonEmptyText = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** "<what> should be <expected>, but it is <what the value is>." */
export const mismatch = (what: string, expected: string, value: unknown) =>
  `${what} should be ${expected}, but it is ${describeType(value)}.`;

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value === '') return 'empty';
  if (typeof value === 'string') return `the text ${preview(value)}`;
  if (typeof value === 'undefined') return 'missing';
  return `a ${typeof value}`;
}

// ---------------------------------------------------------------------------------------------
// Payloads

/** A JSON string decoded (also double-encoded); any other value as is; `ok: false` for text that is not JSON. */
export function decodeValue(value: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof value !== 'string') return { ok: true, value };
  if (!/^[[{"]/.test(value.trim())) return { ok: false };
  const decoded = decodeJson(value);
  return decoded.ok ? { ok: true, value: decoded.value } : { ok: false };
}

/** An object, or a JSON string of one (a schema sent as text); otherwise undefined. */
export function objectOrJson(value: unknown): Json | undefined {
  if (isRecord(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const decoded = decodeValue(value);
  return decoded.ok && isRecord(decoded.value) ? decoded.value : undefined;
}

/** What a payload that names its own reason means: render that reason with these fields. */
export interface LiftedFields {
  reason: string;
  metadata: Json;
  message?: string;
  expiresAt?: string;
}

/**
 * A Mastra suspend payload or a LangGraph interrupt value that carries `{reason, metadata?,
 * message?, expiresAt?}` means that reason. Undefined when it names none.
 */
export function liftedFields(payload: unknown): LiftedFields | undefined {
  if (!isRecord(payload)) return undefined;
  const reason = nonEmptyText(payload.reason);
  if (!reason) return undefined;
  return stripUndefined({
    reason,
    metadata: isRecord(payload.metadata) ? payload.metadata : {},
    message: nonEmptyText(payload.message),
    expiresAt: nonEmptyText(payload.expiresAt),
  });
}

/** The business payload of a transport interrupt: Mastra's suspend payload or LangGraph's value. */
export function transportPayload(metadata: unknown): { transport: 'mastra' | 'langgraph'; payload: unknown } | undefined {
  if (!isRecord(metadata)) return undefined;
  if (isRecord(metadata.mastra)) return { transport: 'mastra', payload: metadata.mastra.suspendPayload };
  if (isRecord(metadata.langgraph)) return { transport: 'langgraph', payload: metadata.langgraph.raw };
  return undefined;
}

/**
 * A standard interrupt whose transport payload (Mastra `metadata.mastra.suspendPayload`,
 * LangGraph `metadata.langgraph.raw`) names its own reason, rewritten to that reason: `metadata`
 * becomes the payload's metadata plus the untouched transport key, `message` and `expiresAt` come
 * from the payload. Any other interrupt is returned as is (the same object).
 */
export function liftInterrupt<T extends Json>(interrupt: T): T {
  const found = transportPayload(interrupt.metadata);
  if (!found) return interrupt;
  const lifted = liftedFields(found.payload);
  const transportMetadata = (interrupt.metadata as Json)[found.transport];
  if (!lifted) return interrupt;
  const metadataIsLifted =
    lifted.reason === interrupt.reason && Object.keys(lifted.metadata).every((key) => key in (interrupt.metadata as Json));
  if (metadataIsLifted) return interrupt;
  const out: Json = { ...interrupt, reason: lifted.reason, metadata: { ...lifted.metadata, [found.transport]: transportMetadata } };
  if (lifted.message) out.message = lifted.message;
  if (lifted.expiresAt) out.expiresAt = lifted.expiresAt;
  return out as T;
}
