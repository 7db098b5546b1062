/**
 * The one reader of every interrupt shape a backend sends, shared by the browser's
 * `unwrapInterrupt` and the server's `normalizeInterrupts()` middleware: id formats, the Mastra
 * `mastra_suspend` wrapper, LangGraph interrupt values, legacy `on_interrupt` values and the
 * "payload carries its own reason" lift. No other file builds these ids or lifts these payloads.
 */
import { InterruptReason } from '../protocol/constants';
import { isRecord, stripUndefined } from './guards';
import { decodeJson, preview } from './json';
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
 * Longest legacy event value carried inside an interrupt id, in bytes of UTF-8 JSON (what the id
 * holds, base64url-encoded). A larger one still gets an interrupt, whose resume then reaches the
 * agent without its `interruptEvent` (but with the agent's own interrupt id).
 */
export const MAX_CARRIED_EVENT_LENGTH = 16_384;

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

/** Prefix of the ids given to LangGraph review-config interrupts (agent-inbox's `HumanInterrupt`). */
export const LANGGRAPH_REVIEW_ID_PREFIX = 'langgraph-review::';

/**
 * What a review-config interrupt's answer needs and the graph allows: the action (an `edit`
 * response names it) and the `allow_*` flags of its `config`.
 */
export interface ReviewConfig {
  action: string;
  accept: boolean;
  edit: boolean;
  respond: boolean;
  ignore: boolean;
}

/** The review flags carried in an id, one letter each, in this order. */
const REVIEW_FLAGS = [
  ['accept', 'a'],
  ['edit', 'e'],
  ['respond', 'r'],
  ['ignore', 'i'],
] as const;

/**
 * `langgraph-review::<LangGraph's own id>::<base64url JSON of {a: action, c: flags}>`: everything
 * the resume needs to answer with LangGraph's `HumanResponse`, so the middleware stays stateless.
 */
export function langGraphReviewId(langGraphId: string, review: ReviewConfig): string {
  const flags = REVIEW_FLAGS.filter(([key]) => review[key])
    .map(([, letter]) => letter)
    .join('');
  return `${LANGGRAPH_REVIEW_ID_PREFIX}${langGraphId}::${toBase64Url(utf8Json({ a: review.action, c: flags }))}`;
}

/** Prefix of the ids given to the cards of a LangChain `humanInTheLoopMiddleware` request (`HITLRequest`). */
export const LANGGRAPH_HITL_ID_PREFIX = 'langgraph-hitl::';

/** The decisions LangChain's `humanInTheLoopMiddleware` takes, and the letter an id carries for each. */
export const HITL_DECISIONS = [
  ['approve', 'a'],
  ['edit', 'e'],
  ['reject', 'r'],
] as const;
export type HitlDecisionType = (typeof HITL_DECISIONS)[number][0];

/**
 * One action request of a `HITLRequest` as its card's id carries it: which of the `count` action
 * requests it is (`index`, from 0), the tool's name (an edit names it) and the decisions allowed.
 */
export interface HitlAction {
  index: number;
  count: number;
  name: string;
  allowed: HitlDecisionType[];
}

/**
 * `langgraph-hitl::<LangGraph's own id>::<base64url JSON of {i, n, a, d}>`: everything the resume
 * needs to put this card's decision at its place in the one `{decisions}` the middleware reads.
 */
export function langGraphHitlId(langGraphId: string, action: HitlAction): string {
  const letters = HITL_DECISIONS.filter(([type]) => action.allowed.includes(type))
    .map(([, letter]) => letter)
    .join('');
  return `${LANGGRAPH_HITL_ID_PREFIX}${langGraphId}::${toBase64Url(utf8Json({ i: action.index, n: action.count, a: action.name, d: letters }))}`;
}

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

/** Where an interrupt id says its resume goes. Never throws; the id is untrusted input. */
export type ParsedInterruptId =
  | { kind: 'langgraph'; langGraphId: string }
  | { kind: 'langgraph-review'; langGraphId: string; review: ReviewConfig }
  | { kind: 'langgraph-hitl'; langGraphId: string; action: HitlAction }
  | { kind: 'mastra-approval'; mastraId: string }
  | { kind: 'legacy'; carried?: CarriedLegacyEvent; problem?: string }
  | { kind: 'other' };

export function parseInterruptId(id: unknown): ParsedInterruptId {
  if (typeof id !== 'string') return { kind: 'other' };
  if (id.startsWith(LANGGRAPH_REVIEW_ID_PREFIX)) return parseReviewId(id);
  if (id.startsWith(LANGGRAPH_HITL_ID_PREFIX)) return parseHitlId(id);
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
  return { kind: 'legacy', carried: { ...(agentId ? { agentId } : {}), ...('e' in clean ? { event: clean.e } : {}) } };
}

/** A review id read back; one that does not decode is nobody's (`other`): its answer passes unchanged. */
function parseReviewId(id: string): ParsedInterruptId {
  const rest = id.slice(LANGGRAPH_REVIEW_ID_PREFIX.length);
  const split = rest.lastIndexOf('::');
  const langGraphId = rest.slice(0, Math.max(split, 0));
  const text = split > 0 ? fromBase64Url(rest.slice(split + 2)) : undefined;
  const decoded = text === undefined ? undefined : decodeJson(text);
  const carried = decoded?.ok && isRecord(decoded.value) ? decoded.value : undefined;
  const action = nonEmptyText(carried?.a);
  if (!action || typeof carried?.c !== 'string') return { kind: 'other' };
  const flags = carried.c;
  const review = { action } as ReviewConfig;
  for (const [key, letter] of REVIEW_FLAGS) review[key] = flags.includes(letter);
  return { kind: 'langgraph-review', langGraphId, review };
}

/** A `langgraph-hitl::` id read back; one that does not decode is nobody's (`other`). */
function parseHitlId(id: string): ParsedInterruptId {
  const rest = id.slice(LANGGRAPH_HITL_ID_PREFIX.length);
  const split = rest.lastIndexOf('::');
  const langGraphId = rest.slice(0, Math.max(split, 0));
  const text = split > 0 ? fromBase64Url(rest.slice(split + 2)) : undefined;
  const decoded = text === undefined ? undefined : decodeJson(text);
  const carried = decoded?.ok && isRecord(decoded.value) ? decoded.value : undefined;
  const name = nonEmptyText(carried?.a);
  const { i: index, n: count, d: letters } = carried ?? {};
  if (!name || typeof letters !== 'string' || !Number.isSafeInteger(count) || !Number.isSafeInteger(index)) return { kind: 'other' };
  if ((index as number) < 0 || (index as number) >= (count as number)) return { kind: 'other' };
  const allowed = HITL_DECISIONS.filter(([, letter]) => letters.includes(letter)).map(([type]) => type);
  return { kind: 'langgraph-hitl', langGraphId, action: { index: index as number, count: count as number, name, allowed } };
}

/** A value as JSON, in UTF-8 bytes: what an id carries, and what its length limit counts. */
const utf8Json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | undefined {
  // Base64 of the longest carried JSON is 4/3 of it; twice is room for the review ids too.
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

// ---------------------------------------------------------------------------------------------
// LangGraph review requests (agent-inbox's HumanInterrupt)

/** The `config` keys of a review request, and the key of the card's metadata each one sets. */
const REVIEW_CONFIG_KEYS = [
  ['allow_accept', 'accept', 'allowApprove'],
  ['allow_edit', 'edit', 'allowEdit'],
  ['allow_respond', 'respond', 'allowReject'],
  ['allow_ignore', 'ignore', 'allowDismiss'],
] as const;

/**
 * Whether a LangGraph interrupt value is a review request (agent-inbox's `HumanInterrupt`): an
 * object with `action_request`, or a list whose first item is one (the form agent-inbox asks for).
 */
export function isReviewRequest(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return isRecord(first) && 'action_request' in first;
}

/**
 * The direct-mode `aidev:tool_approval` interrupt for a LangGraph review request
 * `{action_request: {action, args}, config: {allow_accept, allow_edit, allow_respond,
 * allow_ignore}, description?}` (or a list of one): tool name = `action`, arguments = `args`,
 * message = `description`; each `allow_*` flag says whether the card offers Approve, Edit
 * arguments, Reject (with its reason as the graph's `response`) and Dismiss (`ignore`). The id
 * (`langgraph-review::…`) carries the action and the flags, so the resume can answer with
 * LangGraph's `HumanResponse`. When the value is not a usable review request, `problem` says why.
 */
export function fromLangGraphReview(langGraphId: string, value: unknown, extra: Json = {}): { interrupt: Json } | { problem: string } {
  const what = 'The LangGraph review request';
  let request = value;
  if (Array.isArray(value)) {
    if (value.length !== 1) {
      return { problem: `${what} lists ${value.length} requests; only a list of one can be answered (one HumanResponse goes back).` };
    }
    request = value[0];
  }
  if (!isRecord(request)) return { problem: mismatch(what, 'an object', request) };
  const actionRequest = request.action_request;
  if (!isRecord(actionRequest)) return { problem: mismatch(`${what}'s action_request`, 'an object', actionRequest) };
  const action = nonEmptyText(actionRequest.action);
  if (!action) return { problem: mismatch(`${what}'s action_request.action`, 'non-empty text', actionRequest.action) };
  if (!isRecord(actionRequest.args)) return { problem: mismatch(`${what}'s action_request.args`, 'an object', actionRequest.args) };
  const config = request.config;
  if (!isRecord(config)) {
    return {
      problem: `${mismatch(`${what}'s config`, 'an object', config)} Without it the card cannot know which answers the graph takes.`,
    };
  }
  const review = { action } as ReviewConfig;
  const allowed: Json = {};
  for (const [key, flag, metadataKey] of REVIEW_CONFIG_KEYS) {
    if (typeof config[key] !== 'boolean') return { problem: mismatch(`${what}'s config.${key}`, 'true or false', config[key]) };
    review[flag] = config[key] as boolean;
    allowed[metadataKey] = config[key];
  }
  if (!REVIEW_CONFIG_KEYS.some(([, flag]) => review[flag]))
    return { problem: `${what}'s config allows no answer: every allow_ flag is false.` };
  const message = nonEmptyText(request.description);
  return {
    interrupt: {
      id: langGraphReviewId(langGraphId, review),
      reason: InterruptReason.AIDevToolApproval,
      ...(message ? { message } : {}),
      metadata: {
        toolName: action,
        args: actionRequest.args,
        ...allowed,
        // A HumanResponse of type accept carries no text: the reason goes with Reject only.
        reasonOnlyOnReject: true,
        langgraph: { ...extra, raw: value },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// LangChain humanInTheLoopMiddleware requests (HITLRequest)

/**
 * Whether a LangGraph interrupt value is a request of LangChain's `humanInTheLoopMiddleware`
 * (`HITLRequest`): an object with the lists `actionRequests` and `reviewConfigs`.
 */
export function isHitlRequest(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.actionRequests) && Array.isArray(value.reviewConfigs);
}

/**
 * The direct-mode `aidev:tool_approval` interrupts, one per action request, for a `HITLRequest`
 * `{actionRequests: [{name, args, description?}], reviewConfigs: [{actionName, allowedDecisions,
 * argsSchema?}]}` of LangChain's `humanInTheLoopMiddleware`: tool name = `name`, arguments =
 * `args`, message = `description`, `metadata.argsSchema` = the review config's `argsSchema`; the
 * card offers Approve only where `approve` is allowed, Edit arguments only where `edit` is, Reject
 * (with its reason as the decision's `message`) and Dismiss (a reject) only where `reject` is. Each
 * id (`langgraph-hitl::…`) carries its place in the request and what it allows, so the resume can
 * build the one `{decisions}` the middleware reads. When the value is not usable, `problem` says why.
 */
export function fromHitlRequest(langGraphId: string, value: unknown, extra: Json = {}): { interrupts: Json[] } | { problem: string } {
  const what = 'The LangChain humanInTheLoopMiddleware request';
  if (!isRecord(value)) return { problem: mismatch(what, 'an object', value) };
  const { actionRequests, reviewConfigs } = value;
  if (!Array.isArray(actionRequests) || actionRequests.length === 0) {
    return { problem: mismatch(`${what}'s actionRequests`, 'a list of at least one', actionRequests) };
  }
  if (!Array.isArray(reviewConfigs)) return { problem: mismatch(`${what}'s reviewConfigs`, 'a list', reviewConfigs) };
  const interrupts: Json[] = [];
  for (const [index, request] of actionRequests.entries()) {
    const at = `${what}'s actionRequests[${index}]`;
    if (!isRecord(request)) return { problem: mismatch(at, 'an object', request) };
    const name = nonEmptyText(request.name);
    if (!name) return { problem: mismatch(`${at}.name`, 'non-empty text', request.name) };
    if (!isRecord(request.args)) return { problem: mismatch(`${at}.args`, 'an object', request.args) };
    // The middleware lists one review config per tool name (the same tool may be called twice).
    const config = reviewConfigs.find((c) => isRecord(c) && c.actionName === name);
    if (!isRecord(config)) {
      return {
        problem: `${what} has no review config for ${preview(name)}; without it the card cannot know which decisions the agent takes.`,
      };
    }
    const decisions = config.allowedDecisions;
    if (!Array.isArray(decisions) || decisions.some((d) => !HITL_DECISIONS.some(([type]) => type === d))) {
      return { problem: mismatch(`${what}'s allowedDecisions for ${preview(name)}`, 'a list of approve, edit and reject', decisions) };
    }
    const allowed = HITL_DECISIONS.map(([type]) => type).filter((type) => decisions.includes(type));
    if (allowed.length === 0) return { problem: `${what}'s allowedDecisions for ${preview(name)} allows no decision.` };
    const argsSchema = objectOrJson(config.argsSchema);
    const message = nonEmptyText(request.description);
    interrupts.push({
      id: langGraphHitlId(langGraphId, { index, count: actionRequests.length, name, allowed }),
      reason: InterruptReason.AIDevToolApproval,
      ...(message ? { message } : {}),
      metadata: {
        toolName: name,
        args: request.args,
        ...(argsSchema ? { argsSchema } : {}),
        allowApprove: allowed.includes('approve'),
        allowEdit: allowed.includes('edit'),
        allowReject: allowed.includes('reject'),
        // A dismissal reaches the agent as a reject.
        allowDismiss: allowed.includes('reject'),
        // An approve decision carries no text: the reason goes with Reject only.
        reasonOnlyOnReject: true,
        langgraph: { ...extra, raw: value, index, count: actionRequests.length },
      },
    });
  }
  return { interrupts };
}
