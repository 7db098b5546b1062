import type { AbstractAgent, BaseEvent, CustomEvent, Interrupt, MiddlewareFunction, RunAgentInput, RunFinishedEvent } from '@ag-ui/client';
import { Observable } from 'rxjs';
import { MASTRA_SUSPEND_REASON } from '../unwrap/unwrap-interrupt';
import { errorMessage } from '../error-message';
import { LOG } from '../log';

/** The CUSTOM event name of the legacy interrupt channel. */
export const LEGACY_INTERRUPT_EVENT = 'on_interrupt';
/** The reason given to a legacy interrupt whose value names none. */
export const LEGACY_INTERRUPT_REASON = 'legacy:on_interrupt';
/** Prefix of the ids this middleware gives legacy interrupts that carry none. */
export const LEGACY_INTERRUPT_ID_PREFIX = 'legacy::';

export interface NormalizeInterruptsOptions {
  /**
   * Called with what went wrong when an event could not be normalized. The event is then passed
   * through unchanged: the middleware never breaks a run. Default: `console.warn`.
   */
  onProblem?: (problem: string, event: unknown) => void;
}

/** The middleware `normalizeInterrupts()` returns: an AG-UI `MiddlewareFunction`. */
export type NormalizeInterruptsMiddleware = MiddlewareFunction;

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** How many legacy interrupt events one middleware remembers for the resume that answers them. */
const LEGACY_MEMORY = 200;

/**
 * An AG-UI middleware that hands CopilotKit interrupts in one shape: standard `RUN_FINISHED`
 * interrupt outcomes whose `reason` is what the card should render.
 *
 * - A Mastra tool that suspends with `{reason: 'aidev:user_question', metadata: {questions}}` arrives
 *   from @ag-ui/mastra as `reason: 'mastra:tool_suspend'`; the interrupt gets the payload's reason,
 *   `message` and `expiresAt`, and `metadata` becomes the payload's metadata plus the untouched
 *   `metadata.mastra` the bridge needs. `id` and `toolCallId` never change.
 * - A run that emitted only a legacy `on_interrupt` CUSTOM event finishes with a standard interrupt
 *   outcome built from it (a Mastra `mastra_suspend` wrapper gets the bridge's own
 *   `<runId>::<toolCallId>` id). A later `resume` that answers a non-Mastra legacy interrupt is sent
 *   to the agent the legacy way, as `forwardedProps.command = {resume, interruptEvent}`.
 * - Everything else passes through unchanged. It never throws: an event it cannot read is passed on.
 *
 * The middleware keeps no per-run state between requests, so it is safe to share between the
 * per-request clones CopilotRuntime makes. Agents whose `clone()` drops middlewares (MastraAgent
 * does) need {@link withNormalizedInterrupts}.
 *
 * @example
 * const agent = new HttpAgent({ url }).use(normalizeInterrupts());
 */
export function normalizeInterrupts(options: NormalizeInterruptsOptions = {}): NormalizeInterruptsMiddleware {
  const report = (problem: string, event: unknown) => {
    try {
      if (options.onProblem) options.onProblem(problem, event);
      else console.warn(`${LOG} ${problem}`);
    } catch {
      // A reporting callback must not break the run either.
    }
  };
  // Legacy event values by the interrupt id they were given, for the resume that answers them.
  const legacyEvents = new Map<string, unknown>();
  const remember = (id: string, value: unknown) => {
    legacyEvents.set(id, value);
    while (legacyEvents.size > LEGACY_MEMORY) legacyEvents.delete(legacyEvents.keys().next().value as string);
  };

  const middleware: MiddlewareFunction = (input: RunAgentInput, next: AbstractAgent) => {
    return new Observable<BaseEvent>((subscriber) => {
      const nextInput = safely(() => translateLegacyResume(input, legacyEvents), input, report, 'resume');
      let legacy: unknown[] = [];
      const subscription = next.run(nextInput).subscribe({
        next(event) {
          const out = safely(
            () => {
              if (event.type === 'RUN_STARTED' || event.type === 'RUN_ERROR') legacy = [];
              if (event.type === 'CUSTOM' && (event as CustomEvent).name === LEGACY_INTERRUPT_EVENT) {
                legacy.push((event as CustomEvent).value);
              }
              if (event.type !== 'RUN_FINISHED') return event;
              const finished = normalizeRunFinished(event as RunFinishedEvent, legacy, input.runId, remember);
              legacy = [];
              return finished;
            },
            event,
            report,
            'event',
          );
          subscriber.next(out);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => subscription.unsubscribe();
    });
  };
  return middleware;
}

function safely<T>(work: () => T, fallback: T, report: (problem: string, event: unknown) => void, what: string): T {
  try {
    return work();
  } catch (error) {
    report(`Could not normalize an interrupt ${what}; passing it through unchanged (${errorMessage(error)}).`, fallback);
    return fallback;
  }
}

/**
 * The RUN_FINISHED event with every interrupt's reason lifted; when the run emitted only legacy
 * `on_interrupt` events, with a standard interrupt outcome built from them.
 */
function normalizeRunFinished(
  event: RunFinishedEvent,
  legacy: unknown[],
  runId: string,
  remember: (id: string, value: unknown) => void,
): RunFinishedEvent {
  const outcome = (event as { outcome?: unknown }).outcome;
  if (isRecord(outcome) && outcome.type === 'interrupt' && Array.isArray(outcome.interrupts)) {
    const interrupts = outcome.interrupts.map((interrupt) => (isRecord(interrupt) ? liftInterrupt(interrupt) : interrupt));
    const changed = interrupts.some((interrupt, i) => interrupt !== (outcome.interrupts as unknown[])[i]);
    return changed ? ({ ...event, outcome: { ...outcome, interrupts } } as RunFinishedEvent) : event;
  }
  if (legacy.length === 0) return event;
  const interrupts: Interrupt[] = [];
  const ids = new Set<string>();
  legacy.forEach((value, index) => {
    const interrupt = fromLegacyValue(value, runId, index);
    if (!interrupt || ids.has(interrupt.id)) return;
    ids.add(interrupt.id);
    if (!isMastraInterrupt(interrupt)) remember(interrupt.id, value);
    interrupts.push(interrupt);
  });
  if (interrupts.length === 0) return event;
  return { ...event, outcome: { type: 'interrupt', interrupts } } as RunFinishedEvent;
}

const isMastraInterrupt = (interrupt: Interrupt) => isRecord(interrupt.metadata) && isRecord(interrupt.metadata.mastra);

/**
 * A Mastra interrupt whose suspend payload carries its own `reason`, rewritten to that reason.
 * Any other interrupt is returned as is (the same object).
 */
export function liftInterrupt<T extends Json>(interrupt: T): T {
  const metadata = interrupt.metadata;
  if (!isRecord(metadata) || !isRecord(metadata.mastra)) return interrupt;
  const payload = metadata.mastra.suspendPayload;
  if (!isRecord(payload)) return interrupt;
  const reason = text(payload.reason);
  if (!reason || reason === interrupt.reason) return interrupt;
  const lifted: Json = {
    ...interrupt,
    reason,
    metadata: { ...(isRecord(payload.metadata) ? payload.metadata : {}), mastra: metadata.mastra },
  };
  const message = text(payload.message);
  if (message) lifted.message = message;
  const expiresAt = text(payload.expiresAt);
  if (expiresAt) lifted.expiresAt = expiresAt;
  return lifted as T;
}

function decode(value: unknown): { ok: true; value: unknown } | { ok: false } {
  let current = value;
  for (let round = 0; round < 3 && typeof current === 'string'; round++) {
    const trimmed = current.trim();
    if (!/^[[{"]/.test(trimmed)) return round === 0 ? { ok: false } : { ok: true, value: current };
    try {
      current = JSON.parse(trimmed);
    } catch {
      return round === 0 ? { ok: false } : { ok: true, value: current };
    }
  }
  return { ok: true, value: current };
}

function schemaObject(value: unknown): Json | undefined {
  if (isRecord(value)) return value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const decoded = decode(value);
  return decoded.ok && isRecord(decoded.value) ? decoded.value : undefined;
}

/** A standard interrupt for the value of a legacy `on_interrupt` event, or `undefined` for none. */
export function fromLegacyValue(value: unknown, runId: string, index = 0): Interrupt | undefined {
  if (value === undefined || value === null) return undefined;
  const fallbackId = `${LEGACY_INTERRUPT_ID_PREFIX}${runId}::${index}`;
  const decoded = decode(value);
  if (!decoded.ok) {
    // A plain sentence (e.g. LangGraph's `interrupt("Approve?")`): a question with that message.
    return { id: fallbackId, reason: LEGACY_INTERRUPT_REASON, message: String(value), metadata: { value } };
  }
  const data = decoded.value;
  if (!isRecord(data)) {
    return { id: fallbackId, reason: LEGACY_INTERRUPT_REASON, metadata: { value: data } };
  }
  if (data.type === 'mastra_suspend' && text(data.toolCallId)) {
    const toolCallId = data.toolCallId as string;
    const suspendRunId = text(data.runId) ?? runId;
    const responseSchema = schemaObject(data.resumeSchema);
    const interrupt: Json = {
      id: `${suspendRunId}::${toolCallId}`,
      reason: MASTRA_SUSPEND_REASON,
      toolCallId,
      ...(responseSchema ? { responseSchema } : {}),
      metadata: {
        mastra: {
          type: 'mastra_suspend',
          toolName: data.toolName,
          suspendPayload: data.suspendPayload,
          args: data.args,
          resumeSchema: data.resumeSchema,
          runId: suspendRunId,
        },
      },
    };
    return liftInterrupt(interrupt) as Interrupt;
  }
  const reason = text(data.reason);
  const out: Json = {
    id: text(data.id) ?? fallbackId,
    reason: reason ?? LEGACY_INTERRUPT_REASON,
    metadata: reason ? (isRecord(data.metadata) ? data.metadata : {}) : data,
  };
  for (const key of ['message', 'toolCallId', 'expiresAt'] as const) {
    const field = text(data[key]);
    if (field) out[key] = field;
  }
  const responseSchema = schemaObject(data.responseSchema);
  if (responseSchema) out.responseSchema = responseSchema;
  return out as Interrupt;
}

/**
 * A resume that answers a legacy interrupt this middleware turned into a standard one goes to the
 * agent the legacy way: `forwardedProps.command = {resume, interruptEvent}` (a cancel sends
 * `resume: false`, as @ag-ui/mastra does). Mastra interrupts need nothing: the bridge reads `resume`.
 */
function translateLegacyResume(input: RunAgentInput, legacyEvents: Map<string, unknown>): RunAgentInput {
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume) || resume.length === 0) return input;
  const forwarded = isRecord(input.forwardedProps) ? input.forwardedProps : {};
  if (isRecord(forwarded.command)) return input;
  const entry = resume.find(
    (item) =>
      isRecord(item) &&
      typeof item.interruptId === 'string' &&
      (legacyEvents.has(item.interruptId) || item.interruptId.startsWith(LEGACY_INTERRUPT_ID_PREFIX)),
  ) as { interruptId: string; status: string; payload?: unknown } | undefined;
  if (!entry) return input;
  const command: Json = { resume: entry.status === 'cancelled' ? false : (entry.payload ?? null) };
  if (legacyEvents.has(entry.interruptId)) command.interruptEvent = legacyEvents.get(entry.interruptId);
  const rest = resume.filter((item) => item !== entry);
  const translated: Json = { ...input, forwardedProps: { ...forwarded, command } };
  if (rest.length > 0) translated.resume = rest;
  else delete translated.resume;
  return translated as RunAgentInput;
}

type Cloneable = { clone(): unknown; use(...middlewares: MiddlewareFunction[]): unknown };

/**
 * Installs {@link normalizeInterrupts} on an agent so that it survives `clone()`: CopilotRuntime
 * clones the registered agent for every request, and some agents (MastraAgent) build their clone
 * from their config and drop the middlewares. Returns the same agent.
 *
 * @example
 * const agents = MastraAgent.getLocalAgents({ mastra, resourceId: 'demo' });
 * const runtime = new CopilotRuntime({ agents: { default: withNormalizedInterrupts(agents.assistant) } });
 */
export function withNormalizedInterrupts<A extends Cloneable>(
  agent: A,
  middleware: NormalizeInterruptsMiddleware = normalizeInterrupts(),
): A {
  agent.use(middleware);
  const originalClone = agent.clone;
  const patchedClone = function clone(this: A): unknown {
    const copy = originalClone.call(this) as A;
    if (!copy || typeof copy !== 'object') return copy;
    const copied = (copy as unknown as { middlewares?: unknown[] }).middlewares;
    const kept =
      Array.isArray(copied) &&
      copied.some((m) => m === middleware || (isRecord(m) && (m as { fn?: unknown }).fn === middleware));
    if (!kept && typeof copy.use === 'function') copy.use(middleware);
    // Clones of clones keep it too.
    Object.defineProperty(copy, 'clone', { value: patchedClone, configurable: true, writable: true });
    return copy;
  };
  Object.defineProperty(agent, 'clone', { value: patchedClone, configurable: true, writable: true });
  return agent;
}
