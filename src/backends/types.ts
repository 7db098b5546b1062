/**
 * What a backend module is: one object the `normalizeInterrupts()` middleware asks, in a list and
 * in order, how a raise of its agent reads as standard interrupts and how an answer goes back.
 * Types only: no backend imports another, and none imports the middleware.
 */
import type { AbstractAgent, RunAgentInput } from '@ag-ui/client';
import type { ResumeRefusal } from '../protocol/constants';

export type Json = Record<string, unknown>;

/** Reports what went wrong (the middleware's `onProblem`, or the console); never throws. */
export type Report = (problem: string, event: unknown) => void;

/** Why a resume is refused: the `RUN_ERROR`'s message and code. The agent never receives it. */
export interface Refusal {
  message: string;
  code: `${ResumeRefusal}`;
  /** With `interrupt_changed`: the interrupts open now, as signed cards (see {@link ResumeContext.read}), for the browser to show for review. */
  interrupts?: unknown[];
}

/** What a backend reads a raise with. */
export interface RaiseContext {
  /** The run the raise ends (a legacy id carries it, so that ids differ from run to run). */
  runId: string;
  report: Report;
}

/** One CUSTOM `on_interrupt` event of the run, in the order the run sent them. */
export interface RaiseEvent {
  value: unknown;
  /** What the bridge sent as `rawEvent` (@ag-ui/langgraph: the interrupt itself, `{id, value, ...}`). */
  rawEvent: unknown;
  /** Its place among the run's `on_interrupt` events, from 0. */
  index: number;
}

/**
 * One answer of a resume, under the id this backend gave (its signature already checked and taken
 * off by the middleware): `{interruptId, status: 'resolved' | 'cancelled', payload?}`.
 */
export interface Answer {
  interruptId: string;
  status: string;
  payload?: unknown;
  [key: string]: unknown;
}

/** What the middleware knows of a resume before the run starts, for {@link InterruptBackend.checkResume}. */
export interface ResumeContext {
  /** The run input (its answers with the signatures taken off). */
  input: RunAgentInput;
  /** What the middleware runs: the agent itself when nothing comes between. */
  agent: AbstractAgent;
  report: Report;
  /** The fingerprint the signature of an answer's id vouches for (what the card showed), and the id as sent. */
  shown(interruptId: string): { sent: string; fingerprint?: string } | undefined;
  /**
   * The standard interrupts the backends, in order, read an interrupt as, signed for the thread as
   * a stop would give them (to carry the requests as they are now in a refusal).
   */
  read(interrupt: Json): unknown[];
  /** Reports a problem once for the life of the middleware (a setup problem that every resume would repeat). */
  reportOnce(problem: string, event: unknown): void;
  /** Made once per resume and shared by the backends (one read of a thread's state serves every backend that needs it). */
  once<T>(key: string, make: () => T): T;
}

/** An answer that goes in `forwardedProps.command.resume` (the map LangGraph and legacy agents read). */
export interface CommandAnswer {
  /** The key the agent reads this answer under (its own interrupt id). */
  key: string;
  /** Used instead of `key` when another answer already holds it; without one, the later answer wins. */
  fallbackKey?: string;
  value: unknown;
  /** Sent as `command.resume` itself, not in a map, when it is the resume's only answer (the legacy way). */
  alone?: boolean;
  /**
   * Names an agent that reads only these answers (`'LangGraph'`: its bridge turns a `resume` of
   * several entries into a value no node reads): answers left in `resume` beside this one are
   * dropped, reported.
   */
  exclusive?: string;
  /**
   * The answers go to the agent as the payload of the run's one `resume` entry (`status:
   * 'resolved'`, under the first answer's key), not in `forwardedProps.command`: @ag-ui/langgraph
   * hands a lone resolved entry's payload to LangGraph unchanged, as `Command({resume})`, the way
   * it wants resumes now (it calls `forwardedProps.command.resume` deprecated).
   */
  asResumeEntry?: boolean;
  /**
   * The agent takes no new message with a resume (a LangGraph resume is a `Command`, and a run
   * with a Command ignores its input): a message the chat sent with the answers (a steer-away's)
   * that the agent's messages lack once the resume ran is run next, as a turn of its own, in the
   * same AG-UI run.
   */
  messagesAfterResume?: boolean;
  /** The `on_interrupt` event value sent back as `command.interruptEvent` (the first answer's that has one). */
  interruptEvent?: { value: unknown };
}

/** A backend's answers as its agent reads them. */
export interface Translation {
  /** Entries that stay in `resume` (AG-UI's own resume), rewritten as the agent reads them. */
  resume?: unknown[];
  /** Answers that go in one map: in `forwardedProps.command`, or in one `resume` entry (see {@link CommandAnswer.asResumeEntry}). */
  command?: CommandAnswer[];
}

/**
 * One backend: how its raises read as standard interrupts and how a resume goes back. The middleware
 * asks the backends of its list in order; the first that reads a raise (does not return undefined)
 * owns it. Every method is optional but `name` and `idPrefixes`; none may throw for bad input (the
 * middleware catches and reports what does, and passes the event on unchanged).
 */
export interface InterruptBackend {
  /** A short name, for messages. */
  readonly name: string;
  /**
   * The prefixes of the ids this backend gives, e.g. `'langgraph::'`. The middleware signs every
   * id that starts with one for the thread (with the approval's fingerprint), checks the signature
   * when it comes back, and hands the answer to this backend with the signature taken off. No
   * prefix may start another backend's.
   */
  readonly idPrefixes: readonly string[];
  /**
   * One interrupt of a standard `RUN_FINISHED` outcome: the standard interrupts it reads as (a
   * request may become several cards), each with an id starting with one of {@link idPrefixes}
   * when its answer needs translating; undefined when it is not this backend's.
   */
  fromInterrupt?(interrupt: Json, context: RaiseContext): Json[] | undefined;
  /**
   * One legacy `on_interrupt` event of a run that finished without an interrupt outcome: the
   * standard interrupts it reads as; undefined when it is not this backend's.
   */
  fromEvent?(event: RaiseEvent, context: RaiseContext): Json[] | undefined;
  /**
   * Before the run: this backend's answers (each starting with one of its prefixes) checked
   * against what the agent holds now. A refusal ends the run with a `RUN_ERROR`; answers may come
   * back readdressed (the same answers in the same order, some under another id, which may be
   * another backend's); undefined leaves them as they are.
   */
  checkResume?(
    answers: readonly Answer[],
    context: ResumeContext,
  ): { refused: Refusal } | { answers: Answer[] } | undefined | Promise<{ refused: Refusal } | { answers: Answer[] } | undefined>;
  /** This backend's answers as its agent reads them. */
  toResume?(answers: readonly Answer[], context: { report: Report }): Translation;
  /** Called by `withNormalizedInterrupts` on the agent and on every clone, to let it raise this backend's interrupts. */
  prepareAgent?(agent: unknown): void;
  /**
   * Whether the agent would resume a raise under an id that is not signed (its bridge's own): then
   * the middleware refuses every answer under an id it did not give.
   */
  onlySignedIds?(agent: unknown): boolean;
}
