import type { AbstractAgent, BaseEvent, CustomEvent, Message, MiddlewareFunction, RunAgentInput, RunFinishedEvent } from '@ag-ui/client';
import { Observable, Subscription, type Subscriber } from 'rxjs';
import { errorMessage } from '../error-message';
import { BUILT_IN_BACKENDS } from '../backends';
import type { InterruptBackend, RaiseEvent, Refusal } from '../backends/types';
import { backendSet, reporter, safely } from './backend-set';
import { checkResume, needsCheck, type CheckWiring, type Checked } from './check-resume';
import { normalizeRunFinished } from './raise';
import { lazySecret, SECRET_MISSING } from './signed-ids';
import { translateResume } from './translate-resume';
import { verifyResume } from './verify-resume';
import { keepWaiting, stopsForInterrupts, trailingUserMessages, withoutResume } from './messages-after-resume';

/** The CUSTOM event name of the legacy interrupt channel. */
export const LEGACY_INTERRUPT_EVENT = 'on_interrupt';

export interface NormalizeInterruptsOptions {
  /**
   * The key every id this middleware gives the browser is signed with (HMAC-SHA256), at least 32
   * characters, the same on every server process that may receive the answer. Default: the
   * `COPILOTKIT_INTERRUPTS_SECRET` environment variable, read on the first request. Without either,
   * with `NODE_ENV=production`, every run ends with a RUN_ERROR (`code` `interrupts_secret_missing`)
   * saying what to set; elsewhere a random key for this process is used (with one warning). A
   * `secret` passed in that is shorter than 32 throws at once.
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
  // Read on the first request, not here: `next build` evaluates the route that creates this
  // middleware, and builds often run without the secrets the server gets at run time.
  const wiring: CheckWiring = {
    ...reporter(options.onProblem),
    backends: backendSet(options.backends ?? [], BUILT_IN_BACKENDS),
    key: lazySecret(options.secret),
  };
  const middleware: MiddlewareFunction = (received: RunAgentInput, next: AbstractAgent) =>
    new Observable<BaseEvent>((subscriber) => serve(received, next, subscriber, wiring));
  Object.defineProperty(middleware, BACKENDS, { value: wiring.backends.list });
  return middleware;
}

/**
 * One request through the middleware: the resume verified and checked (the agent never sees a
 * refused one: the run ends with a RUN_ERROR saying what was wrong and which id), then the agent
 * run on the translated input, its stops normalized. Returns the teardown.
 */
function serve(received: RunAgentInput, next: AbstractAgent, subscriber: Subscriber<BaseEvent>, wiring: CheckWiring): () => void {
  let subscription: { unsubscribe(): void } | undefined;
  let closed = false;
  // Every request may sign or verify: without a usable secret none runs, each says why.
  const unsigned = missingSecret(wiring);
  if (unsigned) {
    refuse(subscriber, unsigned, received, wiring);
    return () => {};
  }
  const onlyOurs = safely(
    () => wiring.backends.list.some((backend) => backend.onlySignedIds?.(next) === true),
    false,
    wiring.report,
    'resume',
  );
  const verified = verifyResume(received, { ...wiring, onlyOurs });
  const go = (checked: Checked) => {
    if (closed) return;
    if ('refused' in checked) refuse(subscriber, checked.refused, received, wiring);
    else subscription = followRun(checked.input, next, subscriber, wiring);
  };
  if ('refused' in verified) go(verified);
  // A resume no backend checks starts at once: only a check may have to wait (LangGraph reading the thread).
  else if (!needsCheck(verified.input, wiring.backends)) go({ input: verified.input });
  else checkResume(verified.input, next, verified.fingerprints, wiring).then(go, (error: unknown) => subscriber.error(error));
  return () => {
    closed = true;
    subscription?.unsubscribe();
  };
}

/** A resume's refusal, or the server's own (no secret to sign with). */
type RunRefusal = Refusal | { message: string; code: typeof SECRET_MISSING; interrupts?: undefined };

/** The refusal that ends every run while the key cannot be resolved (no secret in production, one too short). */
function missingSecret(wiring: CheckWiring): RunRefusal | undefined {
  try {
    wiring.key();
    return undefined;
  } catch (error) {
    return { code: SECRET_MISSING, message: errorMessage(error) };
  }
}

/** Ends the run with the refusal as a RUN_ERROR (its message, code and any requests it carries), reported. */
function refuse(subscriber: Subscriber<BaseEvent>, refusal: RunRefusal, received: RunAgentInput, wiring: CheckWiring): void {
  wiring.report(refusal.message, received);
  subscriber.next({
    type: 'RUN_ERROR',
    message: refusal.message,
    code: refusal.code,
    ...(refusal.interrupts ? { interrupts: refusal.interrupts } : {}),
  } as BaseEvent);
  subscriber.complete();
}

/**
 * Runs the agent on the checked input with its answers translated, and passes its events on, each
 * RUN_FINISHED normalized (with the legacy `on_interrupt` events seen since the run started). A
 * message the chat sent with answers its agent takes no message with runs next, as its own turn.
 */
function followRun(
  checked: RunAgentInput,
  next: AbstractAgent,
  subscriber: Subscriber<BaseEvent>,
  wiring: CheckWiring,
): { unsubscribe(): void } {
  const translated = safely(() => translateResume(checked, wiring.backends, wiring.report), { input: checked }, wiring.report, 'resume');
  const waiting = translated.messagesAfterResume ? trailingUserMessages(checked) : [];
  // The agent's runs for this request: the resume's, and the turn of a message sent with it.
  const runs = new Subscription();
  forward(translated.input, waiting.length > 0 ? { waiting, turn: withoutResume(checked) } : undefined, false);
  return runs;

  /**
   * Runs `runInput` and passes its events on. With `after`: the messages `waiting` that the
   * agent's snapshot still lacks stay in it for the chat and, unless the agent stopped for
   * interrupts again, run next (`turn`) as part of this run: its RUN_FINISHED is held and the
   * turn's RUN_STARTED dropped.
   */
  function forward(runInput: RunAgentInput, after: { waiting: Message[]; turn: RunAgentInput } | undefined, continues: boolean) {
    // Per run: the legacy events seen since RUN_STARTED.
    let legacy: RaiseEvent[] = [];
    let missing: Message[] = [];
    let held = false;
    const normalize = (event: BaseEvent): BaseEvent => {
      if (event.type === 'RUN_STARTED' || event.type === 'RUN_ERROR') legacy = [];
      if (event.type === 'CUSTOM' && (event as CustomEvent).name === LEGACY_INTERRUPT_EVENT) {
        const { value, rawEvent } = event as CustomEvent;
        legacy.push({ value, rawEvent, index: legacy.length });
      }
      if (event.type !== 'RUN_FINISHED') return event;
      const finished = normalizeRunFinished(event as RunFinishedEvent, legacy, checked, wiring);
      legacy = [];
      return finished;
    };
    runs.add(
      next.run(runInput).subscribe({
        next(received) {
          if (continues && received.type === 'RUN_STARTED') return;
          let event = received;
          // The last snapshot says which of the waiting messages the agent took.
          if (after && received.type === 'MESSAGES_SNAPSHOT') ({ event, missing } = keepWaiting(received, after.waiting));
          const out = safely(() => normalize(event), event, wiring.report, 'event');
          if (out.type === 'RUN_FINISHED' && missing.length > 0 && !stopsForInterrupts(out)) held = true;
          else subscriber.next(out);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (held && after && !runs.closed) forward(after.turn, undefined, true);
          else subscriber.complete();
        },
      }),
    );
  }
}
