/**
 * The durable runner's public contract: its options, and the records its listings return. The
 * runner (interrupt-runner.ts) carries them out.
 */
import type { AbstractAgent } from '@ag-ui/client';
import type { ApproversPolicy } from './approvers';
import type { InterruptEventHook, InterruptEventOptions } from './outbox';
import type { Authorize, Identify } from './people';
import type { StoredInterruptStatus } from './thread-store';

export type { StoredInterruptStatus };

export interface InterruptRunnerOptions {
  /**
   * `postgres://user:password@host:5432/db`: threads in PostgreSQL (several runtime instances may
   * share it). Unset: an embedded PostgreSQL (PGlite) keeping its files in `dataDir`.
   */
  url?: string;
  /** The embedded store's folder. Default: `.copilotkit-interrupts` in the working directory. */
  dataDir?: string;
  /**
   * A connect that joins a run held by another instance reads its new events when told of them (a
   * notification); this is how long it waits without one before reading anyway (ms): the safety net
   * for a lost notification. Default 1 000.
   */
  pollIntervalMs?: number;
  /**
   * Expired interrupts settled on the server, with nobody online: when every open interrupt of a
   * thread is past its `expiresAt`, one instance (a lease) resumes the agent with `cancelled` for
   * them, once, and their rows become `cancelled` with `cancelReason: 'expired'`. On by default;
   * `false` turns it off (they stay open until a person answers).
   */
  expiry?: false | ExpiryOptions;
  /** A run whose instance has not written a heartbeat for this long is considered dead (ms). Default 30 000. */
  staleAfterMs?: number;
  /** PostgreSQL connections per instance. Default 10. */
  poolSize?: number;
  /**
   * A run asked for while another holds the thread: `'throw'` (default) refuses it with RUN_ERROR
   * (`code: 'thread_running'`); `'supersede'` stops the run in progress (on any instance), keeps
   * what it had done as a stopped run, and starts the new one. As CopilotKit's in-memory runner.
   */
  onConcurrentRun?: 'throw' | 'supersede';
  /**
   * Who a request comes from: `{ id, name?, roles? }`, or `null` to refuse it. With it, whoever
   * starts a thread owns it, and only the owner (or whoever `authorize` allows) may connect to it,
   * run it or answer its interrupts. Without it the runner serves everyone, as a single-user app
   * wants. The runner hears of a run or connect only through the headers CopilotKit forwards
   * (`authorization`, `x-*`; never cookies): wrap the runtime's route with `runner.route(handler)`
   * so that `identify` reads the whole request once.
   */
  identify?: Identify;
  /** Lets someone other than the owner read, run or answer a thread. Only `true` allows; a throw refuses. */
  authorize?: Authorize;
  /**
   * Told once of each interrupt raised, answered, cancelled, expired or changed, on any instance:
   * the event is written in the transaction that makes the change, and one instance delivers it.
   * A hook that throws or hangs is retried with backoff, apart from any run. Give every instance
   * the same hook. See docs/people.md.
   */
  onInterruptEvent?: InterruptEventHook;
  /** Timings of `onInterruptEvent`'s delivery (timeout, backoff, attempts). */
  interruptEvents?: InterruptEventOptions;
  /**
   * Who may answer each interrupt, decided when a run raises it: `{ users?, roles?,
   * notTheRequester? }` (see `Approvers`), or `null` for whoever may answer the thread. Only they
   * may answer it; anyone else's answer is refused (RUN_ERROR `not_an_approver`, or `four_eyes`
   * for the person whose run raised it) before the agent hears anything. A person it names may
   * read the thread and answer that interrupt although the thread is not theirs. An empty list
   * names no one (no one can answer), and a policy that throws gives it no one: both are logged.
   * Needs `identify`.
   */
  approvers?: ApproversPolicy;
}

export interface ExpiryOptions {
  /**
   * The agent to resume for a thread's expiry (by the `agentId` the thread's runs had). Default: the
   * last agent of that id this instance ran; a thread whose agent this instance has not run yet
   * waits for an instance that has. The runner resumes a clone of it.
   */
  agent?: (agentId: string, threadId: string) => AbstractAgent | undefined | Promise<AbstractAgent | undefined>;
  /** How often an instance tries to take the expiry lease, and its holder retries a thread it could not settle (ms); it rereads every deadline once in ten. Default 1 000. */
  checkEveryMs?: number;
}

/** Who answered an interrupt, as `identify` named them when they did. */
export interface Answerer {
  id: string;
  name: string | null;
}

/** One interrupt raised on a thread, as `listInterrupts` reads it. */
export interface InterruptRecord {
  threadId: string;
  interruptId: string;
  /** The agent whose run raised it (the `agentId` CopilotKit runs it under). */
  agentId: string;
  reason: string;
  /** ISO 8601. */
  raisedAt: string;
  /** The interrupt's own `expiresAt`, when it had one. */
  expiresAt: string | null;
  status: StoredInterruptStatus;
  /** The resume payload that answered it (`null` while open or when cancelled without one). */
  response: unknown;
  /** ISO 8601, or `null` while open. */
  answeredAt: string | null;
  /** Why a `cancelled` row was closed without a person: `expired` when the server settled its expiry. */
  cancelReason: 'expired' | null;
  /** The interrupt's own `message` (what the agent asks), when it had one. */
  message: string | null;
  /**
   * The interrupt exactly as the run raised it, or `null` for a row upgraded from a store whose
   * raising event could no longer be read.
   */
  interrupt: unknown;
  /** Its place in the set the run raised (0 for the first). */
  position: number;
  /** The id of the person who started its thread, or `null` when the runner identified no one. */
  ownerId: string | null;
  /** Who answered it, or `null` while open or when no one was identified. */
  answeredBy: Answerer | null;
  /**
   * Who may answer it, as the `approvers` policy said when it was raised (`requester`: the person
   * whose run raised it), or `null` when it had no approvers (whoever may answer the thread).
   */
  approvers: {
    /** Left out, with `roles`, when anyone who may answer the thread may (only four eyes applies). */
    users?: Array<{ id: string; name?: string }>;
    roles?: string[];
    notTheRequester: boolean;
    requester: { id: string; name?: string } | null;
  } | null;
  /** Pass as `cursor` to list the rows after this one. Opaque. */
  cursor: string;
}

export interface ListInterruptsQuery {
  threadId?: string;
  status?: StoredInterruptStatus;
  /** Only the interrupts raised by this agent. */
  agentId?: string;
  /** Only the interrupts of threads this person owns. */
  ownerId?: string;
  /** Only the interrupts this person answered. */
  answeredById?: string;
  /**
   * Only the interrupts whose approvers name this person: by `id`, or through one of `roles` (as
   * `identify` gives them). With an `id`, four eyes leaves out the interrupts that person's run raised.
   */
  assignedTo?: AssignedTo;
  /** At most this many rows (1 to 1000). Default: all. */
  limit?: number;
  /** The `cursor` of the last row of the previous page: the rows after it. */
  cursor?: string;
}

/** A thread as CopilotKit's thread endpoints describe one (`listThreads`). */
export interface ThreadRecord {
  id: string;
  name: null;
  agentId: string;
  organizationId: string;
  /** The id of the person who started it; `''` when the runner identified no one. */
  createdById: string;
  archived: boolean;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: its last run. */
  updatedAt: string;
  /** Pass as `cursor` to list the threads after this one. Opaque. */
  cursor: string;
}

/** A person as listings match approvers: an id, roles, or both (a `Person` fits). */
export interface AssignedTo {
  id?: string;
  roles?: readonly string[];
}

export interface ListThreadsQuery {
  agentId?: string;
  /** Only the threads this person owns. */
  ownerId?: string;
  /** Only the threads with an interrupt, open or answered, whose approvers name this person (see `ListInterruptsQuery`). */
  assignedTo?: AssignedTo;
  /** Only the threads with an interrupt this person answered. */
  answeredById?: string;
  limit?: number;
  cursor?: string;
}
