import { isRecord, stripUndefined } from '../wire/guards';
import { decodeUntrusted, preview } from '../wire/json';
import { hashValue, stableHash } from './hash';
import { createUnwrapBudget, type UnwrapBudget } from '../wire/sanitize';
import { MASTRA_SUSPEND_REASON, mastraInterruptId } from '../wire/ids';
import { liftedFields, mismatch, nonEmptyText, transportPayload } from '../wire/shapes';
import type { InterruptSource, UnwrappedInterrupt } from './types';
import { peopleOf } from './people';
import { errorMessage } from '../error-message';

/** The reason given to input that names none. */
export const UNKNOWN_REASON = 'unknown';
export { MASTRA_SUSPEND_REASON };

type Json = Record<string, unknown>;

/** One unwrap in progress: the input as received, what went wrong so far, and what is left to spend. */
interface Context {
  raw: unknown;
  problems: string[];
  budget: UnwrapBudget;
  /** The JSON text the value was decoded from, if any: it names a value whose copy had to be cut. */
  text?: string;
}

const recordOrEmpty = (value: unknown): Json => (isRecord(value) ? value : {});

/**
 * Turns an interrupt in any shape into one {@link UnwrappedInterrupt}. Never throws.
 *
 * Accepts a standard AG-UI interrupt, a Mastra `mastra:tool_suspend` interrupt, a legacy
 * `on_interrupt` event (value an object or JSON string, including the `mastra_suspend` wrapper),
 * a JSON string of any of these (also double-encoded), or a bare business payload.
 *
 * @example
 * const card = unwrapInterrupt(props.interrupt);
 * if (card.problem) console.warn(card.problem);
 * card.reason; // 'aidev:user_question', even when a Mastra tool suspended with it
 */
export function unwrapInterrupt(input: unknown, budget: UnwrapBudget = createUnwrapBudget()): UnwrappedInterrupt {
  try {
    return unwrapChecked(input, budget);
  } catch (error) {
    // Last line of defence: hostile input must never crash a chat. The raw input is not walked
    // again to name it.
    const name = typeof input === 'string' ? input : `unreadable ${typeof input}`;
    return invalid(stableHash(name, budget), input, `The interrupt could not be read (${errorMessage(error)}).`);
  }
}

function unwrapChecked(input: unknown, budget: UnwrapBudget): UnwrappedInterrupt {
  const decoded = decodeUntrusted(input, budget);
  if (!decoded.ok) return invalid(stableHash(input as string, budget), input, decoded.problem);
  const context: Context = { raw: input, problems: decoded.problems, budget, text: typeof input === 'string' ? input : undefined };

  const result = classify(decoded.value, context);
  const { problems } = context;
  if (problems.length > 0) result.problem = [result.problem, ...problems].filter(Boolean).join(' ');
  return result;
}

/**
 * A name for a value that carries no id, from the sanitised copy (bounded, never the raw input).
 * When the copy had to be cut and the value came as text, the text names it: payloads that differ
 * only past the caps still get different ids.
 */
const nameOf = (value: unknown, context: Context) =>
  context.text !== undefined && context.problems.length > 0 ? stableHash(context.text, context.budget) : hashValue(value, context.budget);

function classify(value: unknown, context: Context): UnwrappedInterrupt {
  if (!isRecord(value)) {
    return invalid(nameOf(value, context), context.raw, mismatch('The interrupt', 'an object', value));
  }
  if (value.type === 'mastra_suspend') return fromMastraWrapper(value, context);
  if (typeof value.name === 'string' && 'value' in value) return fromEvent(value, context);
  if (isStandardShape(value)) return fromStandard(value, context);
  for (const field of ['id', 'reason'] as const) {
    if (field in value && !nonEmptyText(value[field])) {
      context.problems.push(mismatch(`The interrupt's ${field}`, 'non-empty text', value[field]));
    }
  }
  return fromBarePayload(value, context, 'raw');
}

const isStandardShape = (value: Json) => !!nonEmptyText(value.id) && !!nonEmptyText(value.reason);

/** A CUSTOM `on_interrupt` event `{name, value}`. */
function fromEvent(event: Json, context: Context): UnwrappedInterrupt {
  let value = event.value;
  if (typeof value === 'string') {
    // A JSON-string value is untrusted input of its own: the same decoding, sanitiser and caps.
    const decoded = decodeUntrusted(value, context.budget);
    if (!decoded.ok) return invalid(stableHash(value, context.budget), context.raw, decoded.problem, 'legacy');
    value = decoded.value;
    context.problems.push(...decoded.problems);
    context.text = event.value as string;
  }
  if (!isRecord(value)) {
    const problem = mismatch(`The ${preview(event.name as string)} event's value`, 'an object', value);
    return invalid(nameOf(value, context), context.raw, problem, 'legacy');
  }
  if (value.type === 'mastra_suspend') return fromMastraWrapper(value, context);
  if (isStandardShape(value)) {
    // CopilotKit hands standard interrupts to render as `{name: 'on_interrupt', value: interrupt}`.
    const unwrapped = fromStandard(value, context);
    return typeof event.value === 'string' ? { ...unwrapped, source: 'legacy' } : unwrapped;
  }
  return fromBarePayload(value, context, 'legacy');
}

/** A standard AG-UI interrupt, or the Mastra form of one (`metadata.mastra`). */
function fromStandard(interrupt: Json, context: Context): UnwrappedInterrupt {
  const metadata = recordOrEmpty(interrupt.metadata);
  if (interrupt.metadata !== undefined && !isRecord(interrupt.metadata)) {
    context.problems.push(mismatch("The interrupt's metadata", 'an object', interrupt.metadata));
  }
  const base: UnwrappedInterrupt = {
    id: interrupt.id as string,
    reason: interrupt.reason as string,
    ...optionalTexts(interrupt),
    metadata,
    responseSchema: interrupt.responseSchema,
    payload: metadata,
    source: 'standard',
    raw: context.raw,
    people: peopleOf(metadata),
  };
  const transport = transportPayload(metadata);
  // LangGraph: the graph's `interrupt(value)` under metadata.langgraph.raw; a value that names its
  // `toolName` is drawn by that tool's card (`tool:<toolName>`) like a Mastra suspend.
  if (transport?.transport === 'langgraph') {
    // What the server could not read in the graph's value (a malformed review request), for the fallback card.
    const serverProblem = nonEmptyText((metadata.langgraph as Json).problem);
    if (serverProblem) context.problems.push(serverProblem);
    const toolName = isRecord(transport.payload) ? nonEmptyText(transport.payload.toolName) : undefined;
    return liftReason({ ...base, toolName, payload: transport.payload });
  }
  if (!isRecord(metadata.mastra)) return stripUndefined(base);

  const mastra = metadata.mastra;
  return liftReason({
    ...base,
    source: 'mastra',
    toolName: nonEmptyText(mastra.toolName),
    payload: suspendPayload(mastra, 'interrupt', context.problems),
  });
}

/** The legacy `{type: 'mastra_suspend', toolCallId, toolName, suspendPayload, ...}` wrapper. */
function fromMastraWrapper(wrapper: Json, context: Context): UnwrappedInterrupt {
  const toolCallId = nonEmptyText(wrapper.toolCallId);
  const runId = nonEmptyText(wrapper.runId);
  return liftReason({
    // The bridge names the standard interrupt `<runId>::<toolCallId>`; use the same id.
    id: runId && toolCallId ? mastraInterruptId(runId, toolCallId) : (toolCallId ?? `legacy-${nameOf(wrapper, context)}`),
    reason: MASTRA_SUSPEND_REASON,
    toolName: nonEmptyText(wrapper.toolName),
    toolCallId,
    metadata: { mastra: wrapper },
    responseSchema: wrapper.resumeSchema,
    payload: suspendPayload(wrapper, 'suspend event', context.problems),
    source: 'legacy',
    raw: context.raw,
  });
}

/** A Mastra suspend payload, or `{}` and a problem when it is not an object. */
function suspendPayload(holder: Json, holderName: string, problems: string[]): Json {
  if (isRecord(holder.suspendPayload)) return holder.suspendPayload;
  problems.push(`The Mastra ${holderName} carries no suspend payload object.`);
  return {};
}

/** A bare business payload: `{topic, slots}` or `{reason, metadata, message}`. */
function fromBarePayload(value: Json, context: Context, source: InterruptSource): UnwrappedInterrupt {
  return stripUndefined({
    id: nonEmptyText(value.id) ?? `${source}-${nameOf(value, context)}`,
    reason: nonEmptyText(value.reason) ?? UNKNOWN_REASON,
    toolName: nonEmptyText(value.toolName),
    ...optionalTexts(value),
    metadata: recordOrEmpty(value.metadata),
    responseSchema: value.responseSchema,
    payload: value,
    source,
    raw: context.raw,
  });
}

/** The optional text fields a standard interrupt and a bare payload share. */
const optionalTexts = (value: Json) => ({
  toolCallId: nonEmptyText(value.toolCallId),
  message: nonEmptyText(value.message),
  expiresAt: nonEmptyText(value.expiresAt),
});

/**
 * A Mastra tool that suspends (or a LangGraph node that interrupts) with `{reason, metadata,
 * message?}` means that reason: render it as such, and keep the transport's reason in
 * `originalReason`. Returns it without undefined fields.
 */
function liftReason(unwrapped: UnwrappedInterrupt): UnwrappedInterrupt {
  const lifted = liftedFields(unwrapped.payload);
  if (!lifted) return stripUndefined(unwrapped);
  return stripUndefined({
    ...unwrapped,
    reason: lifted.reason,
    originalReason: unwrapped.reason === lifted.reason ? unwrapped.originalReason : unwrapped.reason,
    metadata: lifted.metadata,
    message: lifted.message ?? unwrapped.message,
    expiresAt: lifted.expiresAt ?? unwrapped.expiresAt,
  });
}

/**
 * An interrupt that could not be read (id `invalid-<name>`); `name` is a hash of a bounded copy of
 * it, or says which interrupts of a set could not all be shown.
 */
export function invalid(name: string, raw: unknown, problem: string, source: InterruptSource = 'raw'): UnwrappedInterrupt {
  return {
    id: `invalid-${name}`,
    reason: UNKNOWN_REASON,
    metadata: {},
    payload: undefined,
    source,
    raw,
    problem,
  };
}
