import type { AbstractAgent, BaseEvent, CustomEvent, Message, MiddlewareFunction, RunAgentInput, RunFinishedEvent } from '@ag-ui/client';
import { Observable, Subscription } from 'rxjs';
import { BUILT_IN_BACKENDS } from '../backends';
import { quoteId } from '../backends/answers';
import type {
  Answer,
  CommandAnswer,
  InterruptBackend,
  Json,
  RaiseContext,
  RaiseEvent,
  Refusal,
  Report,
  ResumeContext,
} from '../backends/types';
import { isRecord } from '../unwrap/guards';
import { liftInterrupt, nonEmptyText } from '../unwrap/shapes';
import { INTERRUPT_ID_REFUSED, approvalFingerprint, resolveSecret, signId, verifyId } from './signed-ids';
import { errorMessage } from '../error-message';
import { LOG } from '../log';
import { keepWaiting, stopsForInterrupts, trailingUserMessages, withoutResume } from './messages-after-resume';

/** The CUSTOM event name of the legacy interrupt channel. */
export const LEGACY_INTERRUPT_EVENT = 'on_interrupt';

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
  /**
   * Backends of your own (see {@link InterruptBackend}), asked before the built-in ones (LangChain
   * `humanInTheLoopMiddleware`, LangGraph, Mastra, legacy `on_interrupt` events, plain AG-UI), in
   * this order: the first that reads a raise owns it. An id prefix that overlaps another backend's
   * (`langgraph…`, `mastra…`, `legacy::`, `own::`) throws at once.
   */
  backends?: readonly InterruptBackend[];
}

/** The middleware `normalizeInterrupts()` returns: an AG-UI `MiddlewareFunction`. */
export type NormalizeInterruptsMiddleware = MiddlewareFunction;

/** Where a middleware keeps its backends, for `withNormalizedInterrupts` to prepare an agent with. */
const BACKENDS = Symbol.for('copilotkit-interrupts.backends');

/** The backends a middleware made by `normalizeInterrupts()` asks; the built-in ones for any other. */
export function backendsOf(middleware: unknown): readonly InterruptBackend[] {
  const list = typeof middleware === 'function' ? (middleware as { [BACKENDS]?: unknown })[BACKENDS] : undefined;
  return Array.isArray(list) ? (list as InterruptBackend[]) : BUILT_IN_BACKENDS;
}

/**
 * Marks an interrupt id from below that starts like one of ours (or like this mark): the agent's
 * own, or one an inner `normalizeInterrupts` gave. A resume reads ids by their prefix, so its
 * answer must come back under the id that was given: one mark off, the rest untouched.
 */
const OWN_ID_PREFIX = 'own::';

/**
 * An AG-UI middleware that hands CopilotKit interrupts in one shape: standard `RUN_FINISHED`
 * interrupt outcomes whose `reason` is what the card should render, and resumes each backend
 * understands. It keeps the stream plumbing and the signatures; what a backend's raises and answers
 * mean lives in that backend's module, asked in order (the `backends` of the options first, then the
 * built-in ones): LangChain `humanInTheLoopMiddleware` requests, LangGraph (values and agent-inbox
 * review requests), Mastra (tool suspends and native approvals), legacy `on_interrupt` events
 * (a run that sends only those finishes with a standard interrupt outcome built from them), and
 * plain AG-UI interrupts (a payload that names its own reason is lifted). Everything else passes
 * through unchanged. It never throws: an event it cannot read is passed on.
 *
 * Every id a backend gives is signed with the `secret` (see {@link NormalizeInterruptsOptions.secret})
 * for the thread, and an approval's id carries a fingerprint of the tool and arguments shown. A
 * resume whose id of ours is unsigned, altered, from another thread or signed with another secret,
 * or that carries an `interruptEvent` of its own, ends with a `RUN_ERROR` (`code`
 * `interrupt_id_refused`) and never reaches the agent; so does one a backend refuses before the run
 * (LangGraph: an approval that no longer matches the open interrupt, `interrupt_changed`; a
 * `humanInTheLoopMiddleware` card answered in a way its tool call does not allow, or a request
 * answered in part, `answer_not_allowed`). LangGraph answers are checked against the thread's open
 * interrupts, read through the agent's LangGraph client: this middleware must run next to the agent
 * (see `withNormalizedInterrupts`).
 *
 * It keeps no state between requests: whatever a resume needs travels inside the interrupt id
 * (a legacy id carries the event value), so it works across server restarts, several server
 * processes, threads and users, and it is safe to share between the per-request clones
 * CopilotRuntime makes. Agents whose `clone()` drops middlewares (MastraAgent does) need
 * `withNormalizedInterrupts`.
 *
 * @example
 * const agent = new HttpAgent({ url }).use(normalizeInterrupts());
 * // LangGraph (its answers are checked against the thread): withNormalizedInterrupts(new LangGraphAgent({...}))
 */
export function normalizeInterrupts(options: NormalizeInterruptsOptions = {}): NormalizeInterruptsMiddleware {
  const report: Report = (problem, event) => {
    try {
      if (options.onProblem) options.onProblem(problem, event);
      else console.warn(`${LOG} ${problem}`);
    } catch {
      // A reporting callback must not break the run either.
    }
  };
  const reported = new Set<string>();
  const reportOnce: Report = (problem, event) => {
    if (reported.has(problem)) return;
    reported.add(problem);
    report(problem, event);
  };

  // Resolved now, so a production server without a secret fails at startup, not on a user's answer.
  const key = resolveSecret(options.secret);
  const backends: readonly InterruptBackend[] = [...(options.backends ?? []), ...BUILT_IN_BACKENDS];
  // The built-in ones first, so that a message names the backend of yours that overlaps.
  checkPrefixes([...BUILT_IN_BACKENDS, ...(options.backends ?? [])]);
  const prefixes = [OWN_ID_PREFIX, ...backends.flatMap((backend) => backend.idPrefixes)];
  /** Whether an id is one this middleware gives (and so signs): only those carry anything it reads back. */
  const isOurs = (id: string) => prefixes.some((prefix) => id.startsWith(prefix));
  /** The backend whose id this is: the one with the longest prefix it starts with. */
  const ownerOf = (id: string): InterruptBackend | undefined => {
    let owner: InterruptBackend | undefined;
    let length = 0;
    for (const backend of backends) {
      for (const prefix of backend.idPrefixes) {
        if (id.startsWith(prefix) && prefix.length > length) [owner, length] = [backend, prefix.length];
      }
    }
    return owner;
  };
  const idOf = (item: unknown) => (isRecord(item) && typeof item.interruptId === 'string' ? item.interruptId : undefined);

  /** The standard interrupts one interrupt of an outcome reads as: the first backend that reads it owns it. */
  const readInterrupt = (interrupt: Json, context: RaiseContext): Json[] => {
    const id = nonEmptyText(interrupt.id);
    if (id && isOurs(id)) return [liftInterrupt({ ...interrupt, id: OWN_ID_PREFIX + id })];
    for (const backend of backends) {
      const read = backend.fromInterrupt?.(interrupt, context);
      if (read) return read;
    }
    return [interrupt];
  };
  const readEvent = (event: RaiseEvent, context: RaiseContext): Json[] => {
    for (const backend of backends) {
      const read = backend.fromEvent?.(event, context);
      if (read) return read;
    }
    return [];
  };

  /** The interrupt with its id signed for this thread, when the id is one of ours (with the approval's fingerprint). */
  const signOurs = (interrupt: unknown, threadId: string): unknown => {
    if (!isRecord(interrupt) || typeof interrupt.id !== 'string' || !isOurs(interrupt.id)) return interrupt;
    return { ...interrupt, id: signId(key, threadId ?? '', interrupt.id, approvalFingerprint(interrupt)) };
  };

  /**
   * The RUN_FINISHED event with every interrupt read by its backend and signed; when the run
   * emitted only legacy `on_interrupt` events, with a standard interrupt outcome built from them.
   */
  const normalizeRunFinished = (event: RunFinishedEvent, legacy: RaiseEvent[], input: RunAgentInput): RunFinishedEvent => {
    const context: RaiseContext = { runId: input.runId, report };
    const sign = (interrupt: unknown) => signOurs(interrupt, input.threadId);
    const outcome = (event as { outcome?: unknown }).outcome;
    if (isRecord(outcome) && outcome.type === 'interrupt' && Array.isArray(outcome.interrupts)) {
      const interrupts = outcome.interrupts.flatMap((interrupt) =>
        (isRecord(interrupt) ? readInterrupt(interrupt, context) : [interrupt]).map(sign),
      );
      const changed =
        interrupts.length !== outcome.interrupts.length ||
        interrupts.some((interrupt, i) => interrupt !== (outcome.interrupts as unknown[])[i]);
      return changed ? ({ ...event, outcome: { ...outcome, interrupts } } as RunFinishedEvent) : event;
    }
    if (legacy.length === 0) return event;
    const interrupts: Json[] = [];
    const ids = new Set<string>();
    for (const item of legacy) {
      for (const interrupt of readEvent(item, context)) {
        if (ids.has(interrupt.id as string)) continue;
        ids.add(interrupt.id as string);
        interrupts.push(interrupt);
      }
    }
    if (interrupts.length === 0) return event;
    return { ...event, outcome: { type: 'interrupt', interrupts: interrupts.map(sign) } } as RunFinishedEvent;
  };

  /**
   * The input with every id of ours checked and its signature taken off, and what each signature
   * vouches for; or the refusal of the first id that is unsigned, altered, for another thread or
   * signed with another secret. Ids that are not ours (the agent's own) pass unchanged, unless a
   * backend says its agent would resume a raise under one (`onlySignedIds`).
   */
  const verifyResume = (
    input: RunAgentInput,
    onlyOurs: boolean,
  ): { input: RunAgentInput; fingerprints: Map<string, SignedEntry> } | { refused: Refusal } => {
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
      const sent = idOf(item);
      if (sent === undefined || !isOurs(sent)) {
        if (onlyOurs && sent !== undefined) {
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
  };

  /**
   * Each backend's check of its answers before the run (see {@link InterruptBackend.checkResume}),
   * in the order of the list. Synchronous unless a backend has to wait (LangGraph reading the
   * thread's open interrupts): a run whose answers need no read starts at once.
   */
  const checkResume = (input: RunAgentInput, agent: AbstractAgent, fingerprints: Map<string, SignedEntry>): Checked | Promise<Checked> => {
    const resume = (input as { resume?: unknown }).resume;
    if (!Array.isArray(resume)) return { input };
    const made = new Map<string, unknown>();
    const context: ResumeContext = {
      input,
      agent,
      report,
      reportOnce,
      shown: (id) => fingerprints.get(id),
      read: (interrupt) =>
        safely(
          () => readInterrupt(interrupt, { runId: input.runId, report }).map((card) => signOurs(card, input.threadId)),
          [],
          report,
          'refusal',
        ),
      once: <T>(name: string, make: () => T): T => {
        if (!made.has(name)) made.set(name, make());
        return made.get(name) as T;
      },
    };
    const failed = (backend: InterruptBackend, error: unknown, mine: Answer[]) =>
      report(`The ${backend.name} backend could not check the answers; they go on unchecked (${errorMessage(error)}).`, mine);
    /** The entries after one backend's check: readdressed, refused, or as they were. */
    const apply = (
      backend: InterruptBackend,
      mine: Answer[],
      entries: unknown[],
      checked: CheckResult,
    ): unknown[] | { refused: Refusal } => {
      if (!checked) return entries;
      if ('refused' in checked) return checked;
      if (checked.answers.length !== mine.length) {
        report(`The ${backend.name} backend's check returned another number of answers; they go on as they were.`, checked.answers);
        return entries;
      }
      const readdressed = new Map<unknown, Answer>(mine.map((answer, i) => [answer, checked.answers[i]]));
      return entries.map((item) => readdressed.get(item) ?? item);
    };
    const from = (index: number, entries: unknown[]): Checked | Promise<Checked> => {
      for (let at = index; at < backends.length; at++) {
        const backend = backends[at];
        if (!backend.checkResume) continue;
        const mine = entries.filter((item) => {
          const id = idOf(item);
          return id !== undefined && ownerOf(id) === backend;
        }) as Answer[];
        if (mine.length === 0) continue;
        let checked: CheckResult | Promise<CheckResult>;
        try {
          checked = backend.checkResume(mine, context);
        } catch (error) {
          failed(backend, error, mine);
          continue;
        }
        if (checked instanceof Promise) {
          return checked.then(
            (result) => {
              const next = apply(backend, mine, entries, result);
              return Array.isArray(next) ? from(at + 1, next) : next;
            },
            (error: unknown) => {
              failed(backend, error, mine);
              return from(at + 1, entries);
            },
          );
        }
        const next = apply(backend, mine, entries, checked);
        if (!Array.isArray(next)) return next;
        entries = next;
      }
      return entries === resume ? { input } : { input: { ...input, resume: entries } as RunAgentInput };
    };
    return from(0, resume);
  };

  /**
   * The run input with each answer in the form its backend's agent reads (see
   * {@link InterruptBackend.toResume}): AG-UI's `resume`, or `forwardedProps.command` (LangGraph's
   * resume map, a legacy agent's `{resume, interruptEvent}`). Reads nothing but the input: ids
   * carry the rest.
   */
  const translateResume = (input: RunAgentInput): Translated => {
    const resume = (input as { resume?: unknown }).resume;
    if (!Array.isArray(resume) || resume.length === 0) return { input };
    const forwarded = isRecord(input.forwardedProps) ? input.forwardedProps : {};
    // The client already speaks the legacy way: leave it alone.
    if (isRecord(forwarded.command)) return { input };

    const rest: unknown[] = [];
    const groups = new Map<InterruptBackend, Answer[]>();
    let changed = false;
    for (const item of resume) {
      const id = idOf(item);
      if (id?.startsWith(OWN_ID_PREFIX)) {
        changed = true;
        rest.push({ ...(item as Json), interruptId: id.slice(OWN_ID_PREFIX.length) });
        continue;
      }
      const owner = id === undefined ? undefined : ownerOf(id);
      if (!owner?.toResume) rest.push(item);
      else groups.set(owner, [...(groups.get(owner) ?? []), item as Answer]);
    }
    const command: CommandAnswer[] = [];
    for (const [backend, answers] of groups) {
      const translated = safely(
        () => backend.toResume?.(answers, { report }) ?? { resume: answers },
        { resume: answers },
        report,
        'resume',
      );
      changed = true;
      rest.push(...(translated.resume ?? []));
      command.push(...(translated.command ?? []));
    }
    if (command.length === 0) return { input: changed ? ({ ...input, resume: rest } as unknown as RunAgentInput) : input };

    const exclusive = command.find((answer) => answer.exclusive)?.exclusive;
    if (exclusive && rest.length > 0) {
      // That agent's bridge lets any `resume` left beside the command win over it.
      report(`${rest.length} resume entr${rest.length === 1 ? 'y does' : 'ies do'} not belong to this ${exclusive} run; dropped.`, rest);
      rest.length = 0;
    }
    const out: Json = {};
    if (command.length === 1 && command[0].alone) {
      out.resume = command[0].value;
      if (command[0].interruptEvent) out.interruptEvent = command[0].interruptEvent.value;
    } else {
      // One map, keyed by each interrupt's own id, the form LangGraph resumes: a node gets only its
      // own answer, even when it is the only one (an answer without an id would go to every open
      // interrupt, and a stale one to the next). No prototype, so no id is special.
      const answers: Json = Object.create(null) as Json;
      for (const answer of command) {
        answers[answer.fallbackKey !== undefined && Object.hasOwn(answers, answer.key) ? answer.fallbackKey : answer.key] = answer.value;
      }
      out.resume = answers;
      const first = command.find((answer) => answer.interruptEvent);
      if (first?.interruptEvent) out.interruptEvent = first.interruptEvent.value;
    }
    const messagesAfterResume = command.some((answer) => answer.messagesAfterResume);
    if (command.some((answer) => answer.asResumeEntry)) {
      // The map as the payload of the one entry (LangGraph's bridge makes it `Command({resume})` as it is).
      const entry = { interruptId: command[0].key, status: 'resolved', payload: out.resume };
      return { input: { ...input, resume: [entry] } as unknown as RunAgentInput, messagesAfterResume };
    }
    const translated: Json = { ...input, forwardedProps: { ...forwarded, command: out } };
    if (rest.length > 0) translated.resume = rest;
    else delete translated.resume;
    return { input: translated as unknown as RunAgentInput, messagesAfterResume };
  };

  const middleware: MiddlewareFunction = (received: RunAgentInput, next: AbstractAgent) => {
    return new Observable<BaseEvent>((subscriber) => {
      // The agent's runs for this request: the resume's, and the turn of a message sent with it.
      const subscriptions = new Subscription();
      let closed = false;
      const refuse = (refusal: Refusal) => {
        // The agent never sees a refused resume; the run ends with what was wrong and which id.
        report(refusal.message, received);
        subscriber.next({
          type: 'RUN_ERROR',
          message: refusal.message,
          code: refusal.code,
          ...(refusal.interrupts ? { interrupts: refusal.interrupts } : {}),
        } as BaseEvent);
        subscriber.complete();
      };
      const onlyOurs = safely(() => backends.some((backend) => backend.onlySignedIds?.(next) === true), false, report, 'resume');
      const verified = verifyResume(received, onlyOurs);
      if ('refused' in verified) {
        refuse(verified.refused);
        return undefined;
      }
      const { input, fingerprints } = verified;
      const checked = checkResume(input, next, fingerprints);
      if (!(checked instanceof Promise)) {
        if ('refused' in checked) {
          refuse(checked.refused);
          return undefined;
        }
        start(checked.input);
      } else {
        checked
          .then((result) => {
            if (closed) return;
            if ('refused' in result) refuse(result.refused);
            else start(result.input);
          })
          .catch((error: unknown) => subscriber.error(error));
      }
      return () => {
        closed = true;
        subscriptions.unsubscribe();
      };

      function start(checked: RunAgentInput) {
        const translated = safely(() => translateResume(checked), { input: checked }, report, 'resume');
        // A message the chat sent with the answers, when the agent takes none with a resume.
        const waiting = translated.messagesAfterResume ? trailingUserMessages(checked) : [];
        forward(translated.input, waiting.length > 0 ? { waiting, turn: withoutResume(checked) } : undefined);
      }

      /**
       * Runs `runInput` and passes its events on, each RUN_FINISHED read by the backends. With
       * `after`: the messages `waiting` that the agent's snapshot still lacks stay in it for the
       * chat, and unless the agent stopped for interrupts again, they run next (`turn`) as part of
       * this run: its RUN_FINISHED is held and the turn's RUN_STARTED dropped.
       */
      function forward(runInput: RunAgentInput, after?: { waiting: Message[]; turn: RunAgentInput }, continues = false) {
        // Per run of this one request: the legacy events seen since RUN_STARTED.
        let legacy: RaiseEvent[] = [];
        let missing: Message[] = [];
        let held = false;
        subscriptions.add(
          next.run(runInput).subscribe({
            next(received) {
              if (continues && received.type === 'RUN_STARTED') return;
              let event = received;
              // The last snapshot says which of the waiting messages the agent took.
              if (after && received.type === 'MESSAGES_SNAPSHOT') ({ event, missing } = keepWaiting(received, after.waiting));
              const out = safely(
                () => {
                  if (event.type === 'RUN_STARTED' || event.type === 'RUN_ERROR') legacy = [];
                  if (event.type === 'CUSTOM' && (event as CustomEvent).name === LEGACY_INTERRUPT_EVENT) {
                    const { value, rawEvent } = event as CustomEvent;
                    legacy.push({ value, rawEvent, index: legacy.length });
                  }
                  if (event.type !== 'RUN_FINISHED') return event;
                  const finished = normalizeRunFinished(event as RunFinishedEvent, legacy, input);
                  legacy = [];
                  return finished;
                },
                event,
                report,
                'event',
              );
              if (out.type === 'RUN_FINISHED' && missing.length > 0 && !stopsForInterrupts(out)) held = true;
              else subscriber.next(out);
            },
            error: (error: unknown) => subscriber.error(error),
            complete: () => {
              if (held && after && !closed) forward(after.turn, undefined, true);
              else subscriber.complete();
            },
          }),
        );
      }
    });
  };
  Object.defineProperty(middleware, BACKENDS, { value: backends });
  return middleware;
}

/**
 * Throws, at startup, when a backend's id prefixes are not non-empty texts or one starts like
 * another's (or like `own::`): an answer must go back to exactly one backend.
 */
function checkPrefixes(backends: readonly InterruptBackend[]): void {
  const owned: { prefix: string; name: string }[] = [{ prefix: OWN_ID_PREFIX, name: 'normalizeInterrupts' }];
  for (const backend of backends) {
    const name = typeof backend?.name === 'string' ? backend.name : 'a backend';
    if (!Array.isArray(backend?.idPrefixes) || backend.idPrefixes.some((prefix) => typeof prefix !== 'string' || prefix === '')) {
      throw new Error(`${LOG} normalizeInterrupts: the backend ${JSON.stringify(name)} needs idPrefixes, a list of non-empty texts.`);
    }
    for (const prefix of backend.idPrefixes) {
      const other = owned.find((item) => item.prefix.startsWith(prefix) || prefix.startsWith(item.prefix));
      if (other) {
        throw new Error(
          `${LOG} normalizeInterrupts: the id prefix ${JSON.stringify(prefix)} of the backend ${JSON.stringify(name)} overlaps ${JSON.stringify(other.prefix)} of ${JSON.stringify(other.name)}; an answer must go back to one backend, so give it a prefix of its own.`,
        );
      }
      owned.push({ prefix, name });
    }
  }
}

/** The run input as the backends' agents read it; `messagesAfterResume`: a message sent with it must run after it (see {@link CommandAnswer.messagesAfterResume}). */
type Translated = { input: RunAgentInput; messagesAfterResume?: boolean };

/** A resume after the backends' checks: the input to run, or why it is refused. */
type Checked = { input: RunAgentInput } | { refused: Refusal };
type CheckResult = Awaited<ReturnType<NonNullable<InterruptBackend['checkResume']>>>;

/** A resume entry's id as the browser sent it, and the fingerprint its signature vouches for. */
interface SignedEntry {
  sent: string;
  fingerprint?: string;
}

function safely<T>(work: () => T, fallback: T, report: Report, what: string): T {
  try {
    return work();
  } catch (error) {
    report(`Could not normalize an interrupt ${what}; passing it through unchanged (${errorMessage(error)}).`, fallback);
    return fallback;
  }
}
