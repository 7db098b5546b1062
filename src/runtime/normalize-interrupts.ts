import type { AbstractAgent, BaseEvent, CustomEvent, MiddlewareFunction, RunAgentInput, RunFinishedEvent } from '@ag-ui/client';
import { Observable } from 'rxjs';
import type { ResumeEntry } from '../session/status';
import { isRecord } from '../unwrap/guards';
import {
  DISMISSED_APPROVAL_REASON,
  LANGGRAPH_HITL_ID_PREFIX,
  LANGGRAPH_INTERRUPT_ID_PREFIX,
  LANGGRAPH_REVIEW_ID_PREFIX,
  MASTRA_APPROVAL_ID_PREFIX,
  MASTRA_APPROVAL_MARK,
  LEGACY_INTERRUPT_ID_PREFIX,
  LEGACY_INTERRUPT_REASON,
  decodeValue,
  fromHitlRequest,
  fromLangGraphReview,
  fromLangGraphValue,
  fromLegacyData,
  fromMastraWrapper,
  isHitlRequest,
  isReviewRequest,
  langGraphInterruptId,
  legacyInterruptId,
  liftInterrupt,
  nonEmptyText,
  parseInterruptId,
} from '../unwrap/shapes';
import { reviewResponse } from './langgraph-review';
import { hitlResponses, type HitlAnswer, type HitlResponse } from './langchain-hitl';
import { enableMastraToolApprovals, hasMastraToolApprovals } from './mastra-approvals';
import {
  ANSWER_NOT_ALLOWED,
  INTERRUPT_CHANGED,
  INTERRUPT_ID_REFUSED,
  approvalFingerprint,
  resolveSecret,
  signId,
  verifyId,
} from './signed-ids';
import { errorMessage } from '../error-message';
import { LOG } from '../log';

export { LANGGRAPH_INTERRUPT_ID_PREFIX, LEGACY_INTERRUPT_ID_PREFIX, LEGACY_INTERRUPT_REASON, liftInterrupt };

/** The CUSTOM event name of the legacy interrupt channel. */
export const LEGACY_INTERRUPT_EVENT = 'on_interrupt';
/** What @ag-ui/langgraph makes of a cancelled resume entry; the graph receives it from `interrupt()`. */
export const LANGGRAPH_CANCELLED_KEY = '__agui_cancelled__';

export interface NormalizeInterruptsOptions {
  /**
   * The key every id this middleware gives the browser is signed with (HMAC-SHA256), at least 32
   * characters, the same on every server process that may receive the answer. Default: the
   * `COPILOTKIT_INTERRUPTS_SECRET` environment variable. Without either, `NODE_ENV=production`
   * throws at once; elsewhere a random key for this process is used (with one warning).
   */
  secret?: string | Uint8Array;
  /**
   * Called with what went wrong when an event could not be normalized. The event is then passed
   * through unchanged: the middleware never breaks a run. Default: `console.warn`.
   */
  onProblem?: (problem: string, event: unknown) => void;
}

/** The middleware `normalizeInterrupts()` returns: an AG-UI `MiddlewareFunction`. */
export type NormalizeInterruptsMiddleware = MiddlewareFunction;

type Json = Record<string, unknown>;

/** One legacy `on_interrupt` event of a run: its value, and the bridge's raw event (LangGraph's `{id, value}`). */
interface LegacyEvent {
  value: unknown;
  rawEvent: unknown;
}

/**
 * An AG-UI middleware that hands CopilotKit interrupts in one shape: standard `RUN_FINISHED`
 * interrupt outcomes whose `reason` is what the card should render, and resumes each backend
 * understands.
 *
 * - Mastra (@ag-ui/mastra): a tool that suspends with `{reason: 'aidev:user_question', metadata:
 *   {questions}}` arrives as `reason: 'mastra:tool_suspend'`; the interrupt gets the payload's
 *   reason, `message` and `expiresAt`, and `metadata` becomes the payload's metadata plus the
 *   untouched `metadata.mastra` the bridge needs. `toolCallId` never changes; the id becomes
 *   `mastra::<the bridge's id>` (a native approval's `mastra-approval::…`), and the bridge gets its
 *   own id back with the answer.
 * - LangGraph (@ag-ui/langgraph, either agent setting): every interrupt gets the id
 *   `langgraph::<LangGraph's interrupt id>`, and a value `{reason, metadata, message?}` is lifted
 *   the same way (a plain-string value becomes the `message`). A resume becomes LangGraph's own
 *   resume map `Command({resume: {[interruptId]: value}})`, also for one answer, so every node gets
 *   its own answer, an interrupt left unanswered stays open, and an answer to an interrupt the
 *   graph no longer holds reaches no node: before a resume it reads the thread's open interrupts
 *   through the agent's LangGraph client (this middleware must run next to the agent: see
 *   {@link withNormalizedInterrupts}) and drops, reported, answers to any other (LangGraph JS
 *   would hand an answer to a node's first interrupt to that node's next one); the run then shows
 *   what is still open. Resume entries that are not LangGraph's are dropped (reported). A cancel
 *   reaches the node as the bridge's `{__agui_cancelled__: true, interrupt_id}`.
 *   A review request (agent-inbox's `HumanInterrupt`, see `fromLangGraphReview`) becomes a
 *   direct-mode `aidev:tool_approval` with the id `langgraph-review::…`; its answer reaches the node
 *   as LangGraph's `HumanResponse` list (accept / edit / response / ignore, see `reviewResponse`).
 *   A LangChain `humanInTheLoopMiddleware` request (`HITLRequest`, see `fromHitlRequest`) becomes
 *   one such approval per action request, ids `langgraph-hitl::…`; the answers to its cards reach
 *   the middleware together as its one `{decisions}`, in order (see `hitlResponses`).
 * - Any other backend that sends only legacy `on_interrupt` events: the run finishes with a
 *   standard interrupt outcome built from them; their resume is sent the legacy way,
 *   `forwardedProps.command = {resume, interruptEvent}` (several answers: `resume` maps each
 *   interrupt's own id, or ours, to its answer; a cancel is `false`, as @ag-ui/mastra reads it).
 * - Everything else passes through unchanged. It never throws: an event it cannot read is passed on.
 *
 * Every id it gives is signed with the `secret` (see {@link NormalizeInterruptsOptions.secret}) for
 * the thread, and an approval's id carries a fingerprint of the tool and arguments shown. A resume
 * whose id of ours is unsigned, altered, from another thread or signed with another secret, or
 * whose approval no longer matches the open LangGraph interrupt, or that carries an
 * `interruptEvent` of its own, ends with a `RUN_ERROR` (`code` `interrupt_id_refused` or
 * `interrupt_changed`) and never reaches the agent; so does an answer to a `humanInTheLoopMiddleware`
 * card that its tool call does not allow, or a request answered in part (`answer_not_allowed`).
 *
 * It keeps no state between requests: whatever a resume needs travels inside the interrupt id
 * (a legacy id carries the event value), so it works across server restarts, several server
 * processes, threads and users, and it is safe to share between the per-request clones
 * CopilotRuntime makes. Agents whose `clone()` drops middlewares (MastraAgent does) need
 * {@link withNormalizedInterrupts}.
 *
 * @example
 * const agent = new LangGraphAgent({ deploymentUrl, graphId }).use(normalizeInterrupts());
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

  // Resolved now, so a production server without a secret fails at startup, not on a user's answer.
  const key = resolveSecret(options.secret);
  let uncheckedReported = false;
  const middleware: MiddlewareFunction = (received: RunAgentInput, next: AbstractAgent) => {
    return new Observable<BaseEvent>((subscriber) => {
      let subscription: { unsubscribe(): void } | undefined;
      let closed = false;
      const refuse = (refusal: Refusal) => {
        // The agent never sees a refused resume; the run ends with what was wrong and which id.
        subscriber.next({
          type: 'RUN_ERROR',
          message: refusal.message,
          code: refusal.code,
          ...(refusal.interrupts ? { interrupts: refusal.interrupts } : {}),
        } as BaseEvent);
        subscriber.complete();
      };
      const verified = verifyResume(
        received,
        key,
        safely(() => hasMastraToolApprovals(next), false, report, 'resume'),
      );
      if ('refused' in verified) {
        report(verified.refused.message, received);
        refuse(verified.refused);
        return undefined;
      }
      const { input, fingerprints } = verified;
      const notAllowed = hitlRefusal(input);
      if (notAllowed) {
        report(notAllowed.message, received);
        refuse(notAllowed);
        return undefined;
      }
      const client = safely(() => langGraphClientToCheck(input, next), undefined, report, 'resume');
      if (client === null && !uncheckedReported) {
        uncheckedReported = true;
        report(
          'Answers to LangGraph interrupts go on unchecked: another middleware runs between normalizeInterrupts() and the agent ' +
            '(CopilotRuntime adds A2UI, MCP apps or memory middlewares to each request), so it cannot read which interrupts ' +
            'are open, and a node that asks twice may take an answer sent again. Register the agent with ' +
            'withNormalizedInterrupts(agent), which keeps it next to the agent.',
          input,
        );
      }
      if (!client) subscription = start(input);
      else {
        // LangGraph answers: only those whose interrupt is still open go on (see withoutStaleLangGraphAnswers).
        withoutStaleLangGraphAnswers(input, client, report, fingerprints, (interrupt) => signOurs(interrupt, key, input.threadId))
          .then((checked) => {
            if (closed) return;
            if ('refused' in checked) {
              report(checked.refused.message, received);
              refuse(checked.refused);
            } else subscription = start(checked.input);
          })
          .catch((error: unknown) => subscriber.error(error));
      }
      return () => {
        closed = true;
        subscription?.unsubscribe();
      };

      function start(checked: RunAgentInput) {
        const nextInput = safely(() => translateResume(checked, report), checked, report, 'resume');
        // Per run of this one request: the legacy events seen since RUN_STARTED.
        let legacy: LegacyEvent[] = [];
        return next.run(nextInput).subscribe({
          next(event) {
            const out = safely(
              () => {
                if (event.type === 'RUN_STARTED' || event.type === 'RUN_ERROR') legacy = [];
                if (event.type === 'CUSTOM' && (event as CustomEvent).name === LEGACY_INTERRUPT_EVENT) {
                  legacy.push({ value: (event as CustomEvent).value, rawEvent: (event as CustomEvent).rawEvent });
                }
                if (event.type !== 'RUN_FINISHED') return event;
                const finished = normalizeRunFinished(event as RunFinishedEvent, legacy, input.runId, report, (interrupt) =>
                  signOurs(interrupt, key, input.threadId),
                );
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
      }
    });
  };
  return middleware;
}

/** 32 hex digits, so LangGraph reads a map keyed by it as a resume map; no interrupt has this id. */
const NO_LANGGRAPH_INTERRUPT = '0'.repeat(32);

type ThreadState = { tasks?: { interrupts?: { id?: unknown; value?: unknown }[] }[] };
type LangGraphClient = { threads: { getState(threadId: string): Promise<ThreadState> } };

/** LangGraph's own id of a resume entry for a LangGraph interrupt, else undefined. */
function langGraphIdOf(item: unknown): string | undefined {
  const parsed = parseInterruptId(isRecord(item) ? item.interruptId : undefined);
  return parsed.kind === 'langgraph' || parsed.kind === 'langgraph-review' || parsed.kind === 'langgraph-hitl'
    ? parsed.langGraphId
    : undefined;
}

/**
 * The LangGraph client to read the thread's open interrupts with, when the input answers
 * LangGraph interrupts and the agent this middleware runs has one (CopilotKit's LangGraphAgent,
 * with this middleware next to it); `null` when it answers them and no client is in reach (another
 * middleware comes between: AG-UI hands it a link of the chain, not the agent); else undefined.
 */
function langGraphClientToCheck(input: RunAgentInput, next: AbstractAgent): LangGraphClient | null | undefined {
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume) || !resume.some((item) => langGraphIdOf(item) !== undefined) || !input.threadId) return undefined;
  if (isRecord(input.forwardedProps) && isRecord(input.forwardedProps.command)) return undefined;
  const client = (next as unknown as { client?: Partial<LangGraphClient> }).client;
  return typeof client?.threads?.getState === 'function' ? (client as LangGraphClient) : null;
}

/**
 * The input with the LangGraph answers whose interrupt the thread no longer holds addressed to no
 * interrupt. LangGraph JS hands an answer keyed by a node's FIRST interrupt id to that node's next
 * `interrupt()` when the map has no answer for it, so an answer sent again (a Retry after a lost
 * stream, a second tab) would answer a question nobody saw. The open interrupts come from the thread's state, read
 * through the LangGraph client of the agent this middleware runs (CopilotKit's LangGraphAgent);
 * without one, or when it cannot be read, the input goes on unchanged.
 */
async function withoutStaleLangGraphAnswers(
  input: RunAgentInput,
  client: LangGraphClient,
  report: Report,
  fingerprints: Map<string, SignedEntry>,
  sign: (interrupt: unknown) => unknown,
): Promise<{ input: RunAgentInput } | { refused: Refusal }> {
  try {
    const resume = (input as { resume?: unknown[] }).resume ?? [];
    const state = await client.threads.getState(input.threadId);
    const interrupts = (state?.tasks ?? []).flatMap((task) => task?.interrupts ?? []);
    const open = new Set(interrupts.map((i) => i?.id));
    // An answer given to a request whose tool or arguments are no longer what the card showed is
    // not applied to what the user never saw.
    for (const item of resume) {
      const id = langGraphIdOf(item);
      const pending = id === undefined ? undefined : interrupts.find((i) => i?.id === id);
      if (!pending || id === undefined) continue;
      const shown = fingerprints.get((item as Json).interruptId as string);
      const now = approvalFingerprint(langGraphInterruptFor(id, pending.value, (item as Json).interruptId));
      if (shown && shown.fingerprint !== now) {
        // The requests as the thread holds them now, signed like a stop's: the card can show them
        // for a fresh review, and the answer to them is checked again like any other.
        const reopened = safely(() => openCards(interrupts, report).map(sign), [], report, 'refusal');
        return { refused: { ...changedRefusal(shown.sent), interrupts: reopened } };
      }
    }
    const stale = resume.filter((item) => {
      const id = langGraphIdOf(item);
      return id !== undefined && !open.has(id);
    });
    if (stale.length === 0) return { input };
    report(
      `${stale.length} answer${stale.length === 1 ? ' is' : 's are'} for a LangGraph interrupt the thread no longer holds (sent again?); dropped.`,
      stale,
    );
    // Not removed: a run without any answer would start the graph over. Addressed to an id no
    // interrupt has, the resume stays a map that reaches no node (and shows what is still open).
    const nobody = langGraphInterruptId(NO_LANGGRAPH_INTERRUPT);
    return {
      input: {
        ...input,
        resume: resume.map((item) => (stale.includes(item) ? { ...(item as Json), interruptId: nobody } : item)),
      } as RunAgentInput,
    };
  } catch (error) {
    report(`Could not read which LangGraph interrupts are open; the answers go on unchecked (${errorMessage(error)}).`, input);
    return { input };
  }
}

/** The cards the thread's open LangGraph interrupts are shown as (unsigned), as a stop would give them. */
function openCards(interrupts: { id?: unknown; value?: unknown }[], report: Report): Json[] {
  return interrupts.flatMap((interrupt) => {
    const id = nonEmptyText(interrupt?.id);
    if (!id) return [];
    return fromLangGraph(id, interrupt.value, {}, () => fromLangGraphValue(id, interrupt.value, {}), report);
  });
}

/**
 * The card a LangGraph interrupt value is shown as for the answer under `answeredId` (what its
 * fingerprint is taken of): a `HITLRequest`'s card is the one at the answer's place.
 */
function langGraphInterruptFor(langGraphId: string, value: unknown, answeredId: unknown): Json {
  const cards = fromLangGraph(
    langGraphId,
    value,
    {},
    () => fromLangGraphValue(langGraphId, value, {}),
    () => undefined,
  );
  const parsed = parseInterruptId(answeredId);
  if (parsed.kind !== 'langgraph-hitl') return cards[0] ?? {};
  // A request that now holds another number of tool calls is another request, whatever its cards show.
  return (cards.length === parsed.action.count ? cards[parsed.action.index] : undefined) ?? {};
}

type Report = (problem: string, event: unknown) => void;

/** Why a resume is refused: the RUN_ERROR's message and code. */
interface Refusal {
  message: string;
  code: typeof INTERRUPT_ID_REFUSED | typeof INTERRUPT_CHANGED | typeof ANSWER_NOT_ALLOWED;
  /** With `interrupt_changed`: the interrupts open now, as signed cards, for the browser to show for review. */
  interrupts?: unknown[];
}

/** A resume entry's id as the browser sent it, and the fingerprint its signature vouches for. */
interface SignedEntry {
  sent: string;
  fingerprint?: string;
}

/** An id for a message: long ids (a legacy id carries its event) are cut. */
const quoteId = (id: string) => JSON.stringify(id.length > 120 ? `${id.slice(0, 60)}…${id.slice(-40)}` : id);

function changedRefusal(sent: string): Refusal {
  return {
    code: INTERRUPT_CHANGED,
    message: `The answer to interrupt ${quoteId(sent)} was refused (${INTERRUPT_CHANGED}): the request changed after it was shown (its tool or arguments differ). This request changed. Review it again.`,
  };
}

/**
 * The refusal of a resume whose answers to a LangChain `humanInTheLoopMiddleware` request cannot
 * be delivered as its `{decisions}` (see `hitlResponses`): a decision the action does not allow,
 * or a request not answered whole. Reads ids already verified.
 */
function hitlRefusal(input: RunAgentInput): Refusal | undefined {
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume)) return undefined;
  const answers: (HitlAnswer & { langGraphId: string })[] = [];
  for (const item of resume) {
    const parsed = parseInterruptId(isRecord(item) ? item.interruptId : undefined);
    if (parsed.kind !== 'langgraph-hitl') continue;
    const entry = item as unknown as ResumeEntry;
    answers.push({ ...entry, action: parsed.action, langGraphId: parsed.langGraphId });
  }
  if (answers.length === 0) return undefined;
  const built = hitlResponses(answers);
  if ('responses' in built) return undefined;
  return {
    code: ANSWER_NOT_ALLOWED,
    message: `The answer to interrupt ${quoteId(built.refused.interruptId)} was refused (${ANSWER_NOT_ALLOWED}): ${built.refused.problem}. The agent did not receive it.`,
  };
}

/** Whether an id is one this middleware gives (and so signs): only those carry anything it reads back. */
const isOurs = (id: string) => OURS.some((prefix) => id.startsWith(prefix));

/**
 * The input with every id of ours checked and its signature taken off, and what each signature
 * vouches for; or the refusal of the first id that is unsigned, altered, for another thread or
 * signed with another secret. Ids that are not ours (the agent's own) pass unchanged.
 */
function verifyResume(
  input: RunAgentInput,
  key: Buffer,
  onlyOurs: boolean,
): { input: RunAgentInput; fingerprints: Map<string, SignedEntry> } | { refused: Refusal } {
  const fingerprints = new Map<string, SignedEntry>();
  const command = isRecord(input.forwardedProps) ? input.forwardedProps.command : undefined;
  if (isRecord(command) && command.interruptEvent !== undefined) {
    // The event an agent gets back is the one a signed legacy id carries, never one the browser writes.
    return {
      refused: {
        code: INTERRUPT_ID_REFUSED,
        message: `The answer in forwardedProps.command was refused (${INTERRUPT_ID_REFUSED}): it carries an interruptEvent, which only this server may attach (answer the interrupt by its signed id in resume instead). The agent did not receive it.`,
      },
    };
  }
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume)) return { input, fingerprints };
  const checked: unknown[] = [];
  for (const item of resume) {
    const sent = isRecord(item) ? item.interruptId : undefined;
    if (typeof sent !== 'string' || !isOurs(sent)) {
      if (onlyOurs && typeof sent === 'string') {
        // A MastraAgent with native approvals resumes any suspended call, approvals included, by its bare bridge id.
        return {
          refused: {
            code: INTERRUPT_ID_REFUSED,
            message: `The answer to interrupt ${quoteId(sent)} was refused (${INTERRUPT_ID_REFUSED}): it is not an id this server issued (this agent takes answers only under the signed id its card was given). The agent did not receive it.`,
          },
        };
      }
      checked.push(item);
      continue;
    }
    const verified = verifyId(key, typeof input.threadId === 'string' ? input.threadId : '', sent);
    if (!verified.ok) {
      return {
        refused: {
          code: INTERRUPT_ID_REFUSED,
          message: `The answer to interrupt ${quoteId(sent)} was refused (${INTERRUPT_ID_REFUSED}): ${verified.reason}. The agent did not receive it.`,
        },
      };
    }
    fingerprints.set(verified.id, { sent, ...(verified.fingerprint ? { fingerprint: verified.fingerprint } : {}) });
    checked.push({ ...(item as Json), interruptId: verified.id });
  }
  return fingerprints.size === 0 ? { input, fingerprints } : { input: { ...input, resume: checked } as RunAgentInput, fingerprints };
}

/** The interrupt with its id signed for this thread, when the id is one of ours (with the approval's fingerprint). */
function signOurs(interrupt: unknown, key: Buffer, threadId: string): unknown {
  if (!isRecord(interrupt) || typeof interrupt.id !== 'string') return interrupt;
  let id = interrupt.id;
  // A Mastra suspend's bare bridge id becomes ours too, so that its answer comes back signed.
  if (!isOurs(id) && isRecord(interrupt.metadata) && isRecord(interrupt.metadata.mastra)) id = MASTRA_ID_PREFIX + id;
  if (!isOurs(id)) return interrupt;
  return { ...interrupt, id: signId(key, threadId ?? '', id, approvalFingerprint(interrupt)) };
}

function safely<T>(work: () => T, fallback: T, report: Report, what: string): T {
  try {
    return work();
  } catch (error) {
    report(`Could not normalize an interrupt ${what}; passing it through unchanged (${errorMessage(error)}).`, fallback);
    return fallback;
  }
}

/**
 * The RUN_FINISHED event with every interrupt's reason lifted and LangGraph's ids marked; when the
 * run emitted only legacy `on_interrupt` events, with a standard interrupt outcome built from them.
 */
function normalizeRunFinished(
  event: RunFinishedEvent,
  legacy: LegacyEvent[],
  runId: string,
  report: Report,
  sign: (interrupt: unknown) => unknown,
): RunFinishedEvent {
  const outcome = (event as { outcome?: unknown }).outcome;
  if (isRecord(outcome) && outcome.type === 'interrupt' && Array.isArray(outcome.interrupts)) {
    const interrupts = outcome.interrupts.flatMap((interrupt) =>
      (isRecord(interrupt) ? normalizeStandard(interrupt, report) : [interrupt]).map(sign),
    );
    const changed =
      interrupts.length !== outcome.interrupts.length ||
      interrupts.some((interrupt, i) => interrupt !== (outcome.interrupts as unknown[])[i]);
    return changed ? ({ ...event, outcome: { ...outcome, interrupts } } as RunFinishedEvent) : event;
  }
  if (legacy.length === 0) return event;
  const interrupts: Json[] = [];
  const ids = new Set<string>();
  legacy.forEach((item, index) => {
    for (const interrupt of fromLegacyEvent(item, runId, index, report)) {
      if (ids.has(interrupt.id as string)) continue;
      ids.add(interrupt.id as string);
      interrupts.push(interrupt);
    }
  });
  if (interrupts.length === 0) return event;
  return { ...event, outcome: { type: 'interrupt', interrupts: interrupts.map(sign) } } as RunFinishedEvent;
}

/**
 * Marks an interrupt id from below that starts like one of ours (or like this mark): the agent's
 * own, or one an inner `normalizeInterrupts` gave. A resume reads ids by their prefix, so its
 * answer must come back under the id that was given: one mark off, the rest untouched.
 */
const OWN_ID_PREFIX = 'own::';
/** Marks a Mastra suspend's bridge id (`<runId>::<toolCallId>`); the bridge gets it back without. */
const MASTRA_ID_PREFIX = 'mastra::';
const OURS = [
  OWN_ID_PREFIX,
  MASTRA_ID_PREFIX,
  LANGGRAPH_REVIEW_ID_PREFIX,
  LANGGRAPH_HITL_ID_PREFIX,
  LANGGRAPH_INTERRUPT_ID_PREFIX,
  MASTRA_APPROVAL_ID_PREFIX,
  LEGACY_INTERRUPT_ID_PREFIX,
];

/**
 * A standard interrupt: LangGraph's get our id (a `HITLRequest` becomes one card per action
 * request); any payload that names its reason is lifted.
 */
function normalizeStandard(interrupt: Json, report: Report): Json[] {
  const metadata = interrupt.metadata;
  const id = nonEmptyText(interrupt.id);
  if (id && OURS.some((prefix) => id.startsWith(prefix))) return [liftInterrupt({ ...interrupt, id: OWN_ID_PREFIX + id })];
  if (id && isRecord(metadata) && isRecord(metadata.langgraph)) {
    const { raw, ...extra } = metadata.langgraph;
    return fromLangGraph(id, raw, extra, () => ({ ...interrupt, id: langGraphInterruptId(id) }), report);
  }
  // A Mastra native tool approval (see enableMastraToolApprovals): its id says so, for the resume.
  if (
    id &&
    isRecord(metadata) &&
    isRecord(metadata.mastra) &&
    isRecord(metadata.mastra.suspendPayload) &&
    metadata.mastra.suspendPayload[MASTRA_APPROVAL_MARK] === true
  ) {
    return [liftInterrupt({ ...interrupt, id: `${MASTRA_APPROVAL_ID_PREFIX}${id}` })];
  }
  return [liftInterrupt(interrupt)];
}

/**
 * The interrupts for a LangGraph interrupt value: a review request (agent-inbox's `HumanInterrupt`)
 * becomes a direct-mode tool approval, a LangChain `humanInTheLoopMiddleware` request one per
 * action request; one that cannot be read stays the `plain` interrupt, with the problem in
 * `metadata.langgraph.problem` for the card and in the console; any other value is `plain`, lifted.
 */
function fromLangGraph(langGraphId: string, value: unknown, extra: Json, plain: () => Json, report: Report): Json[] {
  let read: { interrupts: Json[] } | { problem: string };
  if (isHitlRequest(value)) read = fromHitlRequest(langGraphId, value, extra);
  else if (isReviewRequest(value)) {
    const review = fromLangGraphReview(langGraphId, value, extra);
    read = 'interrupt' in review ? { interrupts: [review.interrupt] } : review;
  } else return [liftInterrupt(plain())];
  if ('interrupts' in read) return read.interrupts;
  report(`${read.problem} It is shown as a plain interrupt.`, value);
  const fallback = plain();
  const metadata = isRecord(fallback.metadata) ? fallback.metadata : {};
  const langgraph = isRecord(metadata.langgraph) ? metadata.langgraph : {};
  return [{ ...fallback, metadata: { ...metadata, langgraph: { ...langgraph, problem: read.problem } } }];
}

/** The standard interrupts for one legacy `on_interrupt` event (none, one, or a `HITLRequest`'s cards). */
function fromLegacyEvent({ value, rawEvent }: LegacyEvent, runId: string, index: number, report: Report): Json[] {
  if (value === undefined || value === null) return [];
  // @ag-ui/langgraph sends the interrupt itself as `rawEvent`: `{id, value, ns?, resumable?, when?}`.
  if (isRecord(rawEvent) && nonEmptyText(rawEvent.id) && 'value' in rawEvent) {
    const { ns, resumable, when } = rawEvent;
    const extra = { ns, resumable, when };
    return fromLangGraph(
      rawEvent.id as string,
      rawEvent.value,
      extra,
      () => fromLangGraphValue(rawEvent.id as string, rawEvent.value, extra),
      report,
    );
  }
  const decoded = decodeValue(value);
  if (decoded.ok && isRecord(decoded.value) && decoded.value.type === 'mastra_suspend') {
    const interrupt = fromMastraWrapper(decoded.value, runId);
    if (interrupt) return [liftInterrupt(interrupt)];
  }
  const agentId = decoded.ok && isRecord(decoded.value) ? nonEmptyText(decoded.value.id) : undefined;
  const { id, problem } = legacyInterruptId(runId, index, { ...(agentId ? { agentId } : {}), event: value });
  if (problem) report(problem, value);
  return [fromLegacyData(id, value)];
}

/**
 * The run input with the resume of LangGraph and legacy interrupts in the form their backend
 * reads (see {@link normalizeInterrupts}). Reads nothing but the input: ids carry the rest.
 */
function translateResume(input: RunAgentInput, report: Report): RunAgentInput {
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume) || resume.length === 0) return input;
  const forwarded = isRecord(input.forwardedProps) ? input.forwardedProps : {};
  // The client already speaks the legacy way: leave it alone.
  if (isRecord(forwarded.command)) return input;

  const langGraph: { entry: ResumeEntry; langGraphId: string }[] = [];
  const hitl: (HitlAnswer & { langGraphId: string })[] = [];
  const legacy: { entry: ResumeEntry; key: string; event?: { value: unknown } }[] = [];
  const rest: unknown[] = [];
  let changed = false;
  for (const item of resume) {
    const entry = isRecord(item) && typeof item.interruptId === 'string' ? (item as unknown as ResumeEntry) : undefined;
    const parsed = parseInterruptId(entry?.interruptId);
    if (entry?.interruptId.startsWith(OWN_ID_PREFIX)) {
      changed = true;
      rest.push({ ...entry, interruptId: entry.interruptId.slice(OWN_ID_PREFIX.length) });
    } else if (entry?.interruptId.startsWith(MASTRA_ID_PREFIX)) {
      changed = true;
      rest.push({ ...entry, interruptId: entry.interruptId.slice(MASTRA_ID_PREFIX.length) });
    } else if (entry && parsed.kind === 'mastra-approval') {
      // Mastra's approve / decline is a resume with {approved, reason?}; a dismissal declines, so
      // the Mastra run never stays suspended.
      changed = true;
      rest.push({
        ...entry,
        interruptId: parsed.mastraId,
        status: 'resolved',
        payload:
          entry.status === 'cancelled' ? { approved: false, reason: DISMISSED_APPROVAL_REASON } : approvalAnswer(entry.payload, report),
      });
    } else if (entry && parsed.kind === 'langgraph') langGraph.push({ entry, langGraphId: parsed.langGraphId });
    else if (entry && parsed.kind === 'langgraph-review') {
      // The card's {approved, editedArgs?, reason?} or a dismissal, as the HumanResponse list the graph reads.
      const { response, problem } = reviewResponse(entry.status, entry.payload, parsed.review);
      if (problem) report(problem, entry);
      langGraph.push({ entry: { ...entry, status: 'resolved', payload: response }, langGraphId: parsed.langGraphId });
    } else if (entry && parsed.kind === 'langgraph-hitl') {
      // Gathered: the answers to one request's cards go back as its one {decisions}.
      hitl.push({ ...entry, action: parsed.action, langGraphId: parsed.langGraphId });
    } else if (entry && parsed.kind === 'legacy') {
      if (parsed.problem) report(parsed.problem, entry.interruptId);
      legacy.push({
        entry,
        key: parsed.carried?.agentId ?? entry.interruptId,
        ...(parsed.carried && 'event' in parsed.carried ? { event: { value: parsed.carried.event } } : {}),
      });
    } else rest.push(item);
  }
  // Checked before the run starts (hitlRefusal): every request here is answered whole and as it allows.
  const built = hitlResponses(hitl);
  const hitlAnswers: Map<string, HitlResponse> = 'responses' in built ? built.responses : new Map();
  for (const [langGraphId, response] of hitlAnswers) {
    langGraph.push({ entry: { interruptId: langGraphId, status: 'resolved', payload: response }, langGraphId });
  }
  if ('leftOpen' in built && built.leftOpen.length > 0) {
    report(
      `Every card of a humanInTheLoopMiddleware request was dismissed, but ${built.leftOpen[0].name} does not allow reject, so the request has no decisions to give; it stays open.`,
      hitl,
    );
    // Addressed to no interrupt, so the resume stays a map that reaches no node (see withoutStaleLangGraphAnswers).
    if (langGraph.length === 0) {
      langGraph.push({
        entry: { interruptId: NO_LANGGRAPH_INTERRUPT, status: 'resolved', payload: null },
        langGraphId: NO_LANGGRAPH_INTERRUPT,
      });
    }
  }
  if (langGraph.length === 0 && legacy.length === 0) return changed ? ({ ...input, resume: rest } as unknown as RunAgentInput) : input;

  const translated: Json = { ...input };
  if (langGraph.length > 0 && rest.length > 0) {
    // The bridge lets any `resume` left beside the command win over it, and LangGraph would hand
    // those entries to the nodes: an entry that is not LangGraph's is nobody's here.
    report(`${rest.length} resume entr${rest.length === 1 ? 'y does' : 'ies do'} not belong to this LangGraph run; dropped.`, rest);
    rest.length = 0;
  }
  const command: Json = {};
  if (legacy.length === 1 && langGraph.length === 0) {
    const [{ entry, event }] = legacy;
    command.resume = entry.status === 'cancelled' ? false : (entry.payload ?? null);
    if (event) command.interruptEvent = event.value;
  } else {
    // One map, keyed by each interrupt's own id, the form LangGraph resumes: a node gets only its
    // own answer, even when it is the only one (an answer without an id would go to every open
    // interrupt, and a stale one to the next). No prototype, so no id is special.
    const answers: Json = Object.create(null) as Json;
    for (const { entry, langGraphId } of langGraph) {
      answers[langGraphId] =
        entry.status === 'cancelled' ? { [LANGGRAPH_CANCELLED_KEY]: true, interrupt_id: langGraphId } : (entry.payload ?? null);
    }
    for (const { entry, key } of legacy) {
      // Two values that share their own id (a fixed id reused in one run) keep ours, so neither is lost.
      answers[Object.hasOwn(answers, key) ? entry.interruptId : key] = entry.status === 'cancelled' ? false : (entry.payload ?? null);
    }
    command.resume = answers;
    const first = legacy.find((item) => item.event);
    if (first?.event) command.interruptEvent = first.event.value;
  }
  translated.forwardedProps = { ...forwarded, command };
  if (rest.length > 0) translated.resume = rest;
  else delete translated.resume;
  return translated as unknown as RunAgentInput;
}

type Cloneable = { clone(): unknown; use(...middlewares: MiddlewareFunction[]): unknown };

/**
 * Installs {@link normalizeInterrupts} on an agent so that it survives `clone()` and stays next to
 * the agent: CopilotRuntime clones the registered agent for every request (some agents, MastraAgent,
 * build their clone from their config and drop the middlewares) and adds its own middlewares to
 * the clone when A2UI, MCP apps or memory are on. On a MastraAgent it also enables Mastra's native
 * tool approvals ({@link enableMastraToolApprovals}) on the agent and every clone. Returns the
 * same agent.
 *
 * @example
 * const agents = MastraAgent.getLocalAgents({ mastra, resourceId: 'demo' });
 * const runtime = new CopilotRuntime({ agents: { default: withNormalizedInterrupts(agents.assistant) } });
 */
export function withNormalizedInterrupts<A extends Cloneable>(
  agent: A,
  middleware: NormalizeInterruptsMiddleware = normalizeInterrupts(),
): A {
  const isOurs = (m: unknown) => m === middleware || (isRecord(m) && (m as { fn?: unknown }).fn === middleware);
  const middlewaresOf = (target: A) => (target as unknown as { middlewares?: unknown[] }).middlewares;
  const originalUse = agent.use;
  /**
   * `use()` that keeps ours next to the agent: CopilotRuntime adds its own middlewares (A2UI, MCP
   * apps, memory) to each request's clone, and ours must see the agent itself (its events as they
   * come, and a LangGraph agent's client, to check which interrupts are open).
   */
  const patchedUse = function use(this: A, ...added: MiddlewareFunction[]): unknown {
    const result = originalUse.apply(this, added);
    const list = middlewaresOf(this);
    const at = Array.isArray(list) ? list.findIndex(isOurs) : -1;
    if (list && at !== -1 && at !== list.length - 1) list.push(...list.splice(at, 1));
    return result;
  };
  const originalClone = agent.clone;
  const patchedClone = function clone(this: A): unknown {
    const copy = originalClone.call(this) as A;
    if (!copy || typeof copy !== 'object') return copy;
    const copied = middlewaresOf(copy);
    const kept = Array.isArray(copied) && copied.some(isOurs);
    if (!kept && typeof copy.use === 'function') copy.use(middleware);
    enableMastraToolApprovals(copy);
    // Clones of clones keep it too, next to the agent.
    Object.defineProperty(copy, 'clone', { value: patchedClone, configurable: true, writable: true });
    if (typeof copy.use === 'function') Object.defineProperty(copy, 'use', { value: patchedUse, configurable: true, writable: true });
    return copy;
  };
  agent.use(middleware);
  enableMastraToolApprovals(agent);
  Object.defineProperty(agent, 'clone', { value: patchedClone, configurable: true, writable: true });
  Object.defineProperty(agent, 'use', { value: patchedUse, configurable: true, writable: true });
  return agent;
}

/**
 * The `{approved, reason?}` Mastra's native approval reads. Only `approved: true` approves:
 * anything else (a missing or non-boolean `approved`, which only a broken or forged client
 * sends) declines, so the tool never runs on a doubtful answer and the run is never left
 * suspended. Mastra's approve runs the call with the model's arguments and cannot take edited
 * ones, so an approval with `editedArgs` declines too, telling the model what the user wanted
 * (it can call the tool again with those).
 */
function approvalAnswer(payload: unknown, report: Report): Json {
  const answer = isRecord(payload) ? payload : {};
  const reason = typeof answer.reason === 'string' ? { reason: answer.reason } : {};
  if (answer.approved !== true) {
    if (answer.approved !== false) report('A tool approval answer has no true or false `approved`; it declines the call.', payload);
    return { approved: false, ...reason };
  }
  if (!isRecord(answer.editedArgs)) return { approved: true };
  let wanted: string;
  try {
    wanted = JSON.stringify(answer.editedArgs);
  } catch {
    wanted = '(they could not be written out)';
  }
  return {
    approved: false,
    reason: `The user approved this call only with edited arguments, which this tool cannot take, so it did not run. The arguments the user wants: ${wanted}`,
  };
}
