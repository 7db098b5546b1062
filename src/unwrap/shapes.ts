/**
 * The one reader of every interrupt shape a backend sends, shared by the browser's
 * `unwrapInterrupt` and the server's `normalizeInterrupts()` middleware: id formats, the Mastra
 * `mastra_suspend` wrapper, LangGraph interrupt values, legacy `on_interrupt` values and the
 * "payload carries its own reason" lift. No other file builds these ids or lifts these payloads.
 */
import { isRecord } from './guards';
import { decodeJson } from './json';
import { sanitize } from './sanitize';

type Json = Record<string, unknown>;

/** The reason @ag-ui/mastra gives every tool suspend. */
export const MASTRA_SUSPEND_REASON = 'mastra:tool_suspend';
/** The reason @ag-ui/langgraph gives an interrupt whose value names none. */
export const LANGGRAPH_INTERRUPT_REASON = 'langgraph:interrupt';
/** The reason given to a legacy interrupt whose value names none. */
export const LEGACY_INTERRUPT_REASON = 'legacy:on_interrupt';
/** Prefix of the ids given to legacy interrupts that are neither Mastra's nor LangGraph's. */
export const LEGACY_INTERRUPT_ID_PREFIX = 'legacy::';
/** Prefix of the ids given to LangGraph interrupts; LangGraph's own id follows it. */
export const LANGGRAPH_INTERRUPT_ID_PREFIX = 'langgraph::';
/**
 * Longest legacy event value (as JSON) carried inside an interrupt id. A larger one still gets an
 * interrupt, whose resume then reaches the agent without its `interruptEvent`.
 */
export const MAX_CARRIED_EVENT_LENGTH = 16_384;

export const nonEmptyText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

// ---------------------------------------------------------------------------------------------
// Ids

/** The id @ag-ui/mastra gives a suspend: `<suspending runId>::<toolCallId>`. */
export const mastraInterruptId = (runId: string, toolCallId: string) => `${runId}::${toolCallId}`;

/**
 * Prefix of a Mastra native tool approval's id (`requireApproval`): `mastra-approval::<runId>::<toolCallId>`.
 * It tells the resume that a dismissal must decline the tool call (a plain cancel would leave
 * the Mastra run suspended); the bridge gets the id without it.
 */
export const MASTRA_APPROVAL_ID_PREFIX = 'mastra-approval::';
/** The key that marks a suspend payload made from Mastra's `tool-call-approval` chunk. */
export const MASTRA_APPROVAL_MARK = 'mastraToolApproval';
/** What a dismissed native approval tells the model. */
export const DISMISSED_APPROVAL_REASON = 'The user dismissed the approval request.';

/** The id of a Mastra interrupt: the bridge's, marked when the suspend is a native tool approval. */
export function mastraInterruptIdFor(runId: string, toolCallId: string, suspendPayload: unknown): string {
  const id = mastraInterruptId(runId, toolCallId);
  return isRecord(suspendPayload) && suspendPayload[MASTRA_APPROVAL_MARK] === true ? `${MASTRA_APPROVAL_ID_PREFIX}${id}` : id;
}

/** The id the interrupt builders give when none is passed: `<reason>::<toolCallId>`. */
export const builtInterruptId = (reason: string, toolCallId: string) => `${reason}::${toolCallId}`;

/** `langgraph::<LangGraph's own interrupt id>`: stable, distinct, and tells a resume where it goes. */
export const langGraphInterruptId = (langGraphId: string) => `${LANGGRAPH_INTERRUPT_ID_PREFIX}${langGraphId}`;

/** What a legacy interrupt id carries so that its resume needs no server memory. */
export interface CarriedLegacyEvent {
  /** The id the agent gave the interrupt itself (keys a resume map), if any. */
  agentId?: string;
  /** The `on_interrupt` event value, sent back as `forwardedProps.command.interruptEvent`. */
  event: unknown;
}

/**
 * `legacy::<runId>::<index>::<base64url JSON of {agentId?, event}>`: distinct per run and
 * position, and carrying everything the resume translation needs (server restarts, several
 * processes, any thread or user). When the value is too large to carry, the last part is empty
 * and `problem` says so.
 */
export function legacyInterruptId(runId: string, index: number, carried: CarriedLegacyEvent): { id: string; problem?: string } {
  const base = `${LEGACY_INTERRUPT_ID_PREFIX}${runId}::${index}::`;
  let json: string | undefined;
  try {
    json = JSON.stringify({ ...(carried.agentId ? { a: carried.agentId } : {}), e: carried.event });
  } catch {
    json = undefined;
  }
  if (json === undefined || json.length > MAX_CARRIED_EVENT_LENGTH) {
    return {
      id: base,
      problem: `A legacy interrupt value is too large to carry in its id (the limit is ${MAX_CARRIED_EVENT_LENGTH} characters of JSON); its answer will reach the agent without the interruptEvent.`,
    };
  }
  return { id: `${base}${toBase64Url(json)}` };
}

/** Where an interrupt id says its resume goes. Never throws; the id is untrusted input. */
export type ParsedInterruptId =
  | { kind: 'langgraph'; langGraphId: string }
  | { kind: 'mastra-approval'; mastraId: string }
  | { kind: 'legacy'; carried?: CarriedLegacyEvent; problem?: string }
  | { kind: 'other' };

export function parseInterruptId(id: unknown): ParsedInterruptId {
  if (typeof id !== 'string') return { kind: 'other' };
  if (id.startsWith(LANGGRAPH_INTERRUPT_ID_PREFIX) && id.length > LANGGRAPH_INTERRUPT_ID_PREFIX.length) {
    return { kind: 'langgraph', langGraphId: id.slice(LANGGRAPH_INTERRUPT_ID_PREFIX.length) };
  }
  if (id.startsWith(MASTRA_APPROVAL_ID_PREFIX) && id.length > MASTRA_APPROVAL_ID_PREFIX.length) {
    return { kind: 'mastra-approval', mastraId: id.slice(MASTRA_APPROVAL_ID_PREFIX.length) };
  }
  if (!id.startsWith(LEGACY_INTERRUPT_ID_PREFIX)) return { kind: 'other' };
  const encoded = id.slice(id.lastIndexOf('::') + 2);
  if (encoded === '' || id.lastIndexOf('::') < LEGACY_INTERRUPT_ID_PREFIX.length) return { kind: 'legacy' };
  const text = fromBase64Url(encoded);
  const decoded = text === undefined ? undefined : decodeJson(text);
  if (!decoded?.ok || !isRecord(decoded.value)) {
    return { kind: 'legacy', problem: 'A legacy interrupt id carries an unreadable event; its answer is sent without it.' };
  }
  // The id came back from a browser: copy it into plain data before it goes anywhere.
  const clean = sanitize(decoded.value).value as Json;
  const agentId = nonEmptyText(clean.a);
  return { kind: 'legacy', carried: { ...(agentId ? { agentId } : {}), event: clean.e } };
}

function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length > MAX_CARRIED_EVENT_LENGTH * 2) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
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
  const out: LiftedFields = { reason, metadata: isRecord(payload.metadata) ? payload.metadata : {} };
  const message = nonEmptyText(payload.message);
  if (message) out.message = message;
  const expiresAt = nonEmptyText(payload.expiresAt);
  if (expiresAt) out.expiresAt = expiresAt;
  return out;
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

// ---------------------------------------------------------------------------------------------
// Interrupts from transport values

/**
 * The standard interrupt @ag-ui/mastra sends for a `{type: 'mastra_suspend', ...}` wrapper (before
 * any lift), or undefined when the wrapper has no tool call id.
 */
export function fromMastraWrapper(wrapper: Json, fallbackRunId?: string): Json | undefined {
  const toolCallId = nonEmptyText(wrapper.toolCallId);
  if (!toolCallId) return undefined;
  const runId = nonEmptyText(wrapper.runId) ?? fallbackRunId;
  if (!runId) return undefined;
  const responseSchema = objectOrJson(wrapper.resumeSchema);
  return {
    id: mastraInterruptIdFor(runId, toolCallId, wrapper.suspendPayload),
    reason: MASTRA_SUSPEND_REASON,
    toolCallId,
    ...(responseSchema ? { responseSchema } : {}),
    metadata: {
      mastra: {
        type: 'mastra_suspend',
        toolName: wrapper.toolName,
        suspendPayload: wrapper.suspendPayload,
        args: wrapper.args,
        resumeSchema: wrapper.resumeSchema,
        runId,
      },
    },
  };
}

/**
 * The standard interrupt for a LangGraph interrupt `{id, value}` — the shape @ag-ui/langgraph
 * sends with `emitInterruptOutcome: true` — with our id, before any lift.
 */
export function fromLangGraphValue(langGraphId: string, value: unknown, extra: Json = {}): Json {
  const data = isRecord(value) ? value : undefined;
  const message = typeof value === 'string' ? value : nonEmptyText(data?.message);
  const toolCallId = nonEmptyText(data?.toolCallId) ?? nonEmptyText(data?.tool_call_id);
  const responseSchema = objectOrJson(data?.responseSchema ?? data?.response_schema);
  const expiresAt = nonEmptyText(data?.expiresAt) ?? nonEmptyText(data?.expires_at);
  return {
    id: langGraphInterruptId(langGraphId),
    reason: nonEmptyText(data?.reason) ?? LANGGRAPH_INTERRUPT_REASON,
    ...(message ? { message } : {}),
    ...(toolCallId ? { toolCallId } : {}),
    ...(responseSchema ? { responseSchema } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    metadata: { langgraph: { ...extra, raw: value } },
  };
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
