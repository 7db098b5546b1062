import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { EventType, type AbstractAgent, type BaseEvent, type Message, type RunAgentInput } from '@ag-ui/client';
import {
  AgentRunner,
  finalizeRunEvents,
  type AgentRunnerConnectRequest,
  type AgentRunnerIsRunningRequest,
  type AgentRunnerRunRequest,
  type AgentRunnerStopRequest,
} from '@copilotkit/runtime/v2';
import { Observable, ReplaySubject, type Subscriber } from 'rxjs';
import { encode, interruptHash, threadIdProblem } from './codec';
import { commitOnce, CommitUnknown, DEFAULT_EMBEDDED_DIR, isPostgresUrl, openEmbedded, openPostgres, redactUrl } from './database';
import { errorMessage as describe } from '../error-message';
import { RunnerError } from './errors';
import {
  allowedBy,
  identifyRequest,
  keepReadable,
  requestFromHeaders,
  type Authorize,
  type Identify,
  type Person,
  type ThreadAction,
} from './people';
import {
  annotated,
  approverKeys,
  assign,
  names,
  raisesInterrupts,
  peopleFor,
  refusalOf,
  splitStored,
  storedAssignment,
  storedInterrupt,
  type ApproversPolicy,
  type Assignment,
  type InterruptFacts,
  type Viewer,
} from './approvers';
import { ensureSchema } from './schema';
import { HistoryCache, messageIdsOf, replayedEvents, type CachedRun, type HistoryEntry } from './history-cache';
import { AdvisoryLease, describeExpiryError, ExpirySweeper, InProcessLease, type SettleOutcome } from './expiry';
import { ChangeWaiter, InProcessChangeFeed, PostgresChangeFeed, type ThreadChangeListener, type ThreadChangeSource } from './notifications';
import { checkEventOptions, OutboxWorker } from './outbox';
import {
  STORED_INTERRUPT_STATUSES,
  ThreadStore,
  type InterruptCursor,
  type InterruptFilter,
  type RaisedInterrupt,
  type ThreadCursor,
  type ThreadDeadline,
  type ThreadLockRow,
  type ThreadTransaction,
} from './thread-store';
import {
  assignedKeys,
  checkedThreadKey,
  factsOf,
  isInterruptCursor,
  isThreadCursor,
  keysOf,
  pageSize,
  personKey,
  personKeys,
  readCursor,
  threadRecord,
  toRecord,
} from './records';
import { EventWriter, withHistory } from './run-writer';
import type { ExpiryOptions, InterruptRecord, InterruptRunnerOptions, ListInterruptsQuery, ListThreadsQuery, ThreadRecord } from './types';
import { ResumeRefusal } from '../protocol/constants';
import { isRecord } from '../wire/guards';

/** Key of the session advisory lock that makes one instance the settler of expiries. */
const EXPIRY_LOCK = 7231962052;

type Feed = InProcessChangeFeed | PostgresChangeFeed;

interface LocalRun {
  runPk: number;
  /** The thread's change number right after this run's claim. */
  seq: number | undefined;
  runId: string;
  agent: AbstractAgent;
  events: ReplaySubject<BaseEvent>;
  stopRequested: boolean;
  finished: Promise<void>;
  /** Who asked for the run (undefined without `identify`, and for the server's own runs). */
  person: Person | undefined;
  /** The approvers of the interrupts the run raised, once it is saved. */
  assignments: Map<string, Assignment | undefined>;
}

type ResumeEntry = { interruptId?: unknown; status?: unknown; payload?: unknown };

/** What a claim takes a thread for: a run of `agent` with `input`, by `person` (as `permitted`). */
interface ClaimRequest {
  store: ThreadStore;
  threadId: string;
  agent: AbstractAgent;
  input: RunAgentInput;
  person: Person | undefined;
  permitted: Permission;
  /** Filled with the ids of interrupts the server already closed as expired that the resume cancels. */
  expiredHere: Set<string>;
}

/** A claimed run: its key, the thread's change numbers before and after the claim (unknown after a lost reply), and whether it created the thread. */
type Claimed = { runPk: number; before: number | undefined; after: number | undefined; created: boolean };

/**
 * Whether a person may act on a thread: `true` as its owner or by `authorize`; `'assigned'` only as
 * an approver of one of its open interrupts (they may read it and answer those); `false` for a
 * thread never run (it becomes theirs).
 */
type Permission = boolean | 'assigned';

/** The person a route wrapped by `runner.route` identified, for the run or connect it leads to. */
const asking = new AsyncLocalStorage<{ runner: InterruptRunner; person: Person }>();
const PREFIX = 'copilotkit-interrupts runner:';

/**
 * Thrown inside a claim transaction to roll it back and refuse the run: RUN_ERROR with `message`,
 * `code` and `extra` (for an answered interrupt, the `answers` that won; for a changed request, the
 * `interrupts` open now).
 */
class Refusal extends Error {
  constructor(
    message: string,
    readonly code: string = 'run_refused',
    readonly extra?: { answers?: ResumeEntry[]; interrupts?: unknown[] },
  ) {
    super(message);
  }
}

/**
 * A CopilotKit `AgentRunner` that keeps every thread in a database: PostgreSQL when given a
 * `postgres://` URL, otherwise an embedded PostgreSQL in a local folder. It behaves as CopilotKit's
 * in-memory runner (the run's input on RUN_STARTED, compacted replay on connect, joining a running
 * thread, `isRunning`, `stop`) and keeps one row per interrupt, answered exactly once.
 */
export class InterruptRunner extends AgentRunner implements ThreadChangeSource {
  private readonly database: Promise<ThreadStore>;
  /** The change feed (PostgreSQL's LISTEN/NOTIFY, or in process), once the store is open. */
  private feed: Feed | undefined;
  private readonly changeListeners = new Set<ThreadChangeListener>();
  private sweeper: ExpirySweeper | undefined;
  /** Delivers interrupt events to `onInterruptEvent`, when given. */
  private outbox: OutboxWorker | undefined;
  /** The last agent this instance ran per agent id: what an expiry resumes by default. */
  private readonly knownAgents = new Map<string, AbstractAgent>();
  /** Runs this instance started to settle expiries: the rows they cancel say `expired`. */
  private readonly expiryRuns = new Set<string>();
  private readonly instanceId = randomUUID();
  private readonly local = new Map<string, LocalRun>();
  /** Recently used threads' histories, each valid while the thread's change number is the one it was read at. */
  private readonly histories = new HistoryCache();
  /** Claims on one thread from this instance, one after the other (see `claim`). */
  private readonly claims = new Map<string, Promise<unknown>>();
  private readonly pollIntervalMs: number;
  private readonly staleAfterMs: number;
  private readonly onConcurrentRun: 'throw' | 'supersede';
  private readonly identifier: Identify | undefined;
  private readonly authorizer: Authorize | undefined;
  private readonly assigner: ApproversPolicy | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: InterruptRunnerOptions = {}) {
    super();
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.staleAfterMs = options.staleAfterMs ?? 30_000;
    this.onConcurrentRun = options.onConcurrentRun === 'supersede' ? 'supersede' : 'throw';
    this.identifier = options.identify;
    this.authorizer = options.authorize;
    checkEventOptions(options.onInterruptEvent, options.interruptEvents);
    this.assigner = options.approvers;
    if (options.approvers && !options.identify) {
      console.error(
        `${PREFIX} approvers is set without identify: the runner knows no one, so every interrupt given approvers refuses every answer.`,
      );
    }
    this.database = openStore(options).then(async (store) => {
      this.startEvents(store, options);
      await this.startLive(store, options);
      return store;
    });
    // Reported once here; every run and connect also reports it on its own stream.
    this.database.catch((error: unknown) => console.error(describe(error)));
  }

  /**
   * Calls `listener` with `{ threadId, seq }` each time a change of a thread (new events, an answer,
   * a finished run, an expiry) is committed, by this instance or another on the same store, until
   * the returned function is called. The rows stay the truth: read them again on a change.
   */
  subscribeChanges(listener: ThreadChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => void this.changeListeners.delete(listener);
  }

  /**
   * Starts hearing changes, and the expiry sweeper. On PostgreSQL a listener that cannot connect
   * keeps trying in the background: the runner works meanwhile on its slow safety net.
   */
  private async startLive(store: ThreadStore, options: InterruptRunnerOptions): Promise<void> {
    if (this.closing) return;
    const feed: Feed =
      options.url !== undefined ? new PostgresChangeFeed(store, options.url) : new InProcessChangeFeed(store, store.location);
    // On PostgreSQL this instance hears its own commits at once, the others by NOTIFY.
    store.onCommitted = feed instanceof InProcessChangeFeed ? (change) => feed.published(change) : (change) => feed.committed(change);
    feed.subscribeChanges((change) => {
      for (const listener of [...this.changeListeners]) {
        try {
          listener(change);
        } catch (error) {
          console.error(`${PREFIX} a thread change listener threw: ${describe(error)}`);
        }
      }
    });
    this.feed = feed;
    await feed.start();
    if (options.expiry === false) return;
    const expiry = options.expiry ?? {};
    this.sweeper = new ExpirySweeper({
      store: { deadlines: (threadIds) => store.deadlines(threadIds), now: () => store.now() },
      lease: feed instanceof PostgresChangeFeed ? new AdvisoryLease(feed, EXPIRY_LOCK) : new InProcessLease(store.location),
      changes: feed,
      settle: (deadline) => this.settleExpired(deadline, expiry),
      onError: (error, deadline) => console.error(describeExpiryError(error, deadline)),
      ...(expiry.checkEveryMs !== undefined ? { checkEveryMs: expiry.checkEveryMs } : {}),
    });
    this.sweeper.start();
  }

  /** With `onInterruptEvent`: changes of interrupt rows write their events, and this instance delivers them. */
  private startEvents(store: ThreadStore, { onInterruptEvent, interruptEvents }: InterruptRunnerOptions) {
    if (!onInterruptEvent || this.closing) return;
    const outbox = new OutboxWorker({ ...interruptEvents, store, hook: onInterruptEvent, owner: this.instanceId, toRecord });
    store.recordsEvents = true;
    store.onEventsWritten = () => void outbox.poll();
    this.outbox = outbox;
    outbox.start();
  }

  /**
   * Resumes the thread's agent with `cancelled` for its expired interrupts. The claim closes each
   * row only while it is open, so a second settler, or a person answering first, is refused.
   */
  private async settleExpired(deadline: ThreadDeadline, options: ExpiryOptions): Promise<SettleOutcome> {
    const { threadId, interruptIds, agentId } = deadline;
    const given = (await options.agent?.(agentId, threadId)) ?? this.knownAgents.get(agentId);
    if (!given) return 'busy';
    const agent = given.clone() as AbstractAgent;
    // The copy is of the agent's last run, which may be of another thread: AG-UI runs an agent on
    // its own thread, transcript and state, so they are this thread's.
    agent.threadId = threadId;
    agent.setMessages(await this.getThreadMessages(threadId));
    agent.setState((await this.getThreadState(threadId)) ?? {});
    // An AG-UI agent remembers the interrupts its last run raised and refuses, before running, a
    // resume that answers one past its expiresAt ("Interrupt … expired"). Settling that expiry is
    // this very resume: the cancelled ones are no longer the agent object's to guard.
    const settled = new Set(interruptIds);
    agent.pendingInterrupts = (agent.pendingInterrupts ?? []).filter((interrupt) => !settled.has(interrupt.id));
    const input = {
      threadId,
      runId: randomUUID(),
      messages: [],
      state: {},
      tools: [],
      context: [],
      forwardedProps: {},
      resume: interruptIds.map((interruptId) => ({ interruptId, status: 'cancelled' })),
    } as RunAgentInput;
    this.expiryRuns.add(input.runId);
    try {
      const events = await new Promise<BaseEvent[]>((resolve, reject) => {
        const seen: BaseEvent[] = [];
        this.run({ threadId, agent, input }).subscribe({ next: (event) => seen.push(event), error: reject, complete: () => resolve(seen) });
      });
      const error = events.find((event) => event.type === EventType.RUN_ERROR) as { code?: unknown } | undefined;
      if (!error) return 'settled';
      if (error.code === ResumeRefusal.AlreadyAnswered || error.code === ResumeRefusal.NotOpen || error.code === ResumeRefusal.Changed)
        return 'answered';
      if (error.code === 'thread_running') return 'busy';
      return 'settled'; // the agent ran and failed: the rows were claimed; its error is in the thread
    } finally {
      this.expiryRuns.delete(input.runId);
    }
  }

  /** Resolves once the store is open and its schema checked; rejects with what went wrong and what to do. */
  async ready(): Promise<void> {
    await this.database;
  }

  run(request: AgentRunnerRunRequest): Observable<BaseEvent> {
    const events = new ReplaySubject<BaseEvent>(Infinity);
    const problem =
      threadIdProblem(request.threadId) ??
      (this.closing ? `${PREFIX} the runner is closed; thread ${quote(request.threadId)} was not run.` : undefined);
    if (problem) refuse(events, problem);
    else void this.execute(request, events, asking.getStore());
    return events.asObservable();
  }

  connect(request: AgentRunnerConnectRequest): Observable<BaseEvent> {
    // Read here, in the request's context: the subscription may come later.
    const context = asking.getStore();
    return new Observable<BaseEvent>((subscriber) => {
      const control = { closed: false };
      void this.replay(request, context, subscriber, control).catch((error: unknown) => {
        if (control.closed) return;
        subscriber.next(runError(`${PREFIX} cannot read thread ${quote(request.threadId)}: ${describe(error)}`));
        subscriber.complete();
      });
      return () => {
        control.closed = true;
      };
    });
  }

  async isRunning({ threadId }: AgentRunnerIsRunningRequest): Promise<boolean> {
    const run = this.local.get(threadId);
    if (run) return !run.stopRequested;
    if (threadIdProblem(threadId)) return false;
    return (await this.remoteRun(await this.database, threadId)) !== undefined;
  }

  async stop({ threadId, runId }: AgentRunnerStopRequest): Promise<boolean> {
    // Stopping is running: within `route`, only for whoever may run the thread.
    if (!(await this.routePersonMay(threadId, 'run'))) return false;
    const run = this.local.get(threadId);
    if (run) {
      if ((runId !== undefined && run.runId !== runId) || run.stopRequested) return false;
      return this.abort(run);
    }
    if (threadIdProblem(threadId)) return false;
    // A run held by another instance: ask it through the thread row; its heartbeat carries it out.
    const store = await this.database;
    return store.requestStop(encode(threadId), runId === undefined ? null : encode(runId), Date.now() - this.staleAfterMs);
  }

  /**
   * Who sent `request`, as the `identify` option says: the person, or `undefined` when the runner
   * has no `identify`. Refusals throw a RunnerError (`unauthenticated`, `bad_identity`,
   * `identify_failed`). The inbox endpoint asks this; so does `route`.
   */
  async identify(request: Request): Promise<Person | undefined> {
    return this.identifier ? identifyRequest(this.identifier, request) : undefined;
  }

  /**
   * Wraps the runtime's fetch-style route (`createCopilotRuntimeHandler(...)`): identifies each
   * request once, from the whole request (cookies included), refuses with 401 when no one is
   * recognised, and lets the runs and connects it leads to know who asked. Without `identify` it
   * passes every request through unchanged.
   */
  route(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
    return async (request) => {
      if (!this.identifier) return handler(request);
      let person: Person;
      try {
        person = await identifyRequest(this.identifier, request);
      } catch (error) {
        const code = error instanceof RunnerError ? error.code : 'identify_failed';
        if (code === 'identify_failed') console.error(describe(error));
        return new Response(JSON.stringify({ error: describe(error), code }), {
          status: code === 'identify_failed' ? 500 : 401,
          headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        });
      }
      return asking.run({ runner: this, person }, () => handler(request));
    };
  }

  /**
   * Whether `user` may read the thread (connect to it, hear of its changes): they own it,
   * `authorize` allows `read`, or one of its interrupts is assigned to them. False for a thread
   * never run and for an id that cannot be a thread's; a throwing `authorize` refuses.
   */
  async mayRead(user: Person, threadId: string): Promise<boolean> {
    if (!isRecord(user) || typeof user.id !== 'string' || typeof threadId !== 'string' || threadIdProblem(threadId)) return false;
    const db = await this.database;
    const row = await db.threadOwner(encode(threadId));
    if (!row) return false;
    try {
      return (await this.permit(db, threadId, row.agent_id ?? 'default', user, 'read')) !== false;
    } catch (error) {
      if (error instanceof RunnerError) return false;
      throw error;
    }
  }

  /**
   * What waits for `user`, as their inbox lists it: the interrupts of the threads they own, those
   * assigned to them (by id or role) in threads of others, and, with `authorize`, those of other
   * threads it lets them read (asked once per thread; a throw hides the thread). Owned and assigned
   * rows are found by the database; with `authorize`, the rows of other threads are read page by
   * page until `limit` rows are kept, so paging by `cursor` goes on where the last row left off.
   */
  async listInterruptsFor(user: Person, query: Omit<ListInterruptsQuery, 'ownerId'> = {}): Promise<InterruptRecord[]> {
    if (!isRecord(user) || typeof user.id !== 'string' || user.id === '') {
      throw new RunnerError('bad_identity', `${PREFIX} listInterruptsFor: user must be a person { id, name?, roles? }.`);
    }
    const viewer = assignedKeys(user, 'listInterruptsFor', 'user');
    const filter = await this.interruptFilter({ ...query, ownerId: undefined }, 'listInterruptsFor');
    const store = await this.database;
    if (!this.authorizer) return (await store.listInterrupts({ ...filter, viewer: { ...viewer, only: true } })).map(toRecord);
    const authorize = this.authorizer;
    return keepReadable({
      limit: filter.limit,
      after: filter.after,
      page: (after, size) => store.listInterrupts({ ...filter, viewer: { ...viewer, only: false }, after, limit: size }),
      item: toRecord,
      threadOf: (record) => record,
      cursorOf: (row): InterruptCursor => [Number(row.raised_at), row.thread_key, Number(row.position), row.interrupt_hash],
      mayRead: ({ threadId, agentId }) => allowedBy(authorize, { user, threadId, agentId, action: 'read' }),
    });
  }

  /**
   * The interrupts raised on threads, oldest first (those raised together in the order they were
   * raised), for audits and inboxes. Filtered and paged by the database.
   */
  async listInterrupts(query: ListInterruptsQuery = {}): Promise<InterruptRecord[]> {
    const filter = await this.interruptFilter(query, 'listInterrupts');
    const store = await this.database;
    return (await store.listInterrupts(filter)).map(toRecord);
  }

  /** A listing query, checked, as the store filters by it; `bad_query` or `bad_thread_id` for one it cannot. */
  private async interruptFilter(query: ListInterruptsQuery, method: string): Promise<InterruptFilter> {
    const { threadId, status, agentId, ownerId, answeredById } = query;
    if (status !== undefined && !STORED_INTERRUPT_STATUSES.includes(status)) {
      throw new RunnerError(
        'bad_query',
        `${PREFIX} ${method}: status must be one of ${STORED_INTERRUPT_STATUSES.join(', ')} (got ${JSON.stringify(status)}).`,
      );
    }
    if (agentId !== undefined && (typeof agentId !== 'string' || agentId === '' || agentId.includes('\u0000'))) {
      throw new RunnerError('bad_query', `${PREFIX} ${method}: agentId must be a non-empty string without NUL.`);
    }
    const ownerKey = personKey(ownerId, method, 'ownerId');
    const answeredByKey = personKey(answeredById, method, 'answeredById');
    const assignedTo = query.assignedTo === undefined ? undefined : assignedKeys(query.assignedTo, method, 'assignedTo');
    const threadKey = threadId === undefined ? undefined : checkedThreadKey(threadId);
    const limit = pageSize(query.limit, method);
    const after = query.cursor === undefined ? undefined : (readCursor(query.cursor, isInterruptCursor, method) as InterruptCursor);
    await this.database;
    return {
      ...(threadKey !== undefined ? { threadKey } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(agentId !== undefined ? { agentId } : {}),
      ...(ownerKey !== undefined ? { ownerKey } : {}),
      ...(answeredByKey !== undefined ? { answeredByKey } : {}),
      ...(assignedTo ? { assignedTo } : {}),
      ...(after ? { after } : {}),
      ...(limit !== undefined ? { limit } : {}),
    };
  }

  /**
   * The threads that have run, most recently updated first, as CopilotKit's runtime lists them for
   * its thread endpoints (`GET /threads`). Paged by the database. Within `route` (a person known),
   * only the threads that person may read, as {@link listThreadsFor} lists them: an app's own
   * thread list served in the route shows each person theirs.
   */
  async listThreads(query: ListThreadsQuery = {}): Promise<ThreadRecord[]> {
    const context = asking.getStore();
    if (this.identifier && context?.runner === this) return this.listThreadsFor(context.person, query);
    const filter = this.threadFilter(query, 'listThreads');
    const store = await this.database;
    return (await store.listThreads(filter)).map(threadRecord);
  }

  /**
   * The threads `user` may read, most recently updated first: those they own, those with an
   * interrupt (open or answered) assigned to them, and, with `authorize`, those it lets them
   * `read` (asked once per thread; a throw hides the thread). Owned and assigned threads are found
   * by the database; with `authorize`, the other threads are read page by page until `limit` are
   * kept, so paging by `cursor` goes on where the last one left off.
   */
  async listThreadsFor(user: Person, query: ListThreadsQuery = {}): Promise<ThreadRecord[]> {
    if (!isRecord(user) || typeof user.id !== 'string' || user.id === '') {
      throw new RunnerError('bad_identity', `${PREFIX} listThreadsFor: user must be a person { id, name?, roles? }.`);
    }
    const viewer = assignedKeys(user, 'listThreadsFor', 'user');
    const filter = this.threadFilter(query, 'listThreadsFor');
    const store = await this.database;
    if (!this.authorizer) return (await store.listThreads({ ...filter, viewer: { ...viewer, only: true } })).map(threadRecord);
    const authorize = this.authorizer;
    return keepReadable({
      limit: filter.limit,
      after: filter.after,
      page: (after, size) => store.listThreads({ ...filter, viewer: { ...viewer, only: false }, after, limit: size }),
      item: threadRecord,
      threadOf: (record) => ({ threadId: record.id, agentId: record.agentId }),
      cursorOf: (row): ThreadCursor => [Number(row.updated_at), row.thread_key],
      mayRead: ({ threadId, agentId }) => allowedBy(authorize, { user, threadId, agentId, action: 'read' }),
    });
  }

  /** A thread listing's query, checked, as the store filters by it; `bad_query` for one it cannot. */
  private threadFilter(query: ListThreadsQuery, method: string) {
    const { agentId } = query;
    if (agentId !== undefined && (typeof agentId !== 'string' || agentId === '' || agentId.includes('\u0000'))) {
      throw new RunnerError('bad_query', `${PREFIX} ${method}: agentId must be a non-empty string without NUL.`);
    }
    const ownerKey = personKey(query.ownerId, method, 'ownerId');
    const assignedTo = query.assignedTo === undefined ? undefined : assignedKeys(query.assignedTo, method, 'assignedTo');
    const answeredByKey = personKey(query.answeredById, method, 'answeredById');
    const limit = pageSize(query.limit, method);
    const after = query.cursor === undefined ? undefined : (readCursor(query.cursor, isThreadCursor, method) as ThreadCursor);
    return {
      ...(agentId !== undefined ? { agentId } : {}),
      ...(ownerKey !== undefined ? { ownerKey } : {}),
      ...(assignedTo ? { assignedTo } : {}),
      ...(answeredByKey !== undefined ? { answeredByKey } : {}),
      ...(after ? { after } : {}),
      ...(limit !== undefined ? { limit } : {}),
    };
  }

  /** A thread's events, compacted, as a connect replays them (ended runs only); `[]` for a thread never run. */
  async getThreadEvents(threadId: string): Promise<BaseEvent[]> {
    const threadKey = checkedThreadKey(threadId);
    if (!(await this.routePersonMay(threadId, 'read'))) {
      throw new RunnerError('forbidden', `${PREFIX} thread ${quote(threadId)} belongs to someone else; nothing was read.`);
    }
    const store = await this.database;
    const history = await this.historyAt(store, threadId, (await store.thread(threadKey))?.change_seq);
    if (typeof history === 'string') throw new Error(history);
    // A copy: the caller may change what it is given, the next replay must not see it.
    return structuredClone(replayedEvents(history, undefined));
  }

  /** The thread's messages after its last ended run, or `[]`. */
  async getThreadMessages(threadId: string): Promise<Message[]> {
    for (const event of (await this.getThreadEvents(threadId)).reverse()) {
      if (event.type === EventType.MESSAGES_SNAPSHOT) return [...((event as { messages?: Message[] }).messages ?? [])];
    }
    return [];
  }

  /** The agent's state after the thread's last ended run (its last STATE_SNAPSHOT), or `null`. */
  async getThreadState(threadId: string): Promise<Record<string, unknown> | null> {
    const events = await this.getThreadEvents(threadId);
    for (let index = events.length - 1; index >= 0; index--) {
      const event = events[index] as { type: string; snapshot?: unknown };
      if (event.type !== EventType.STATE_SNAPSHOT) continue;
      return isRecord(event.snapshot) ? { ...event.snapshot } : null;
    }
    return null;
  }

  /** Stops this instance's runs, waits until they are saved, and closes the store. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      // A store that is away is not waited for now: what it loses is reported as lost.
      void this.database.then(
        (db) => db.stopRetrying(),
        () => undefined,
      );
      const runs = [...this.local.values()];
      for (const run of runs) this.abort(run);
      await Promise.all(runs.map((run) => run.finished));
      this.stopHeartbeat();
      await this.database.catch(() => undefined);
      await this.sweeper?.stop();
      await this.outbox?.stop();
      await this.feed?.close();
      const db = await this.database.catch(() => undefined);
      await db?.close();
    })();
    return this.closing;
  }

  // ---- running ----

  private async execute(
    { threadId, agent, input }: AgentRunnerRunRequest,
    events: ReplaySubject<BaseEvent>,
    context: { runner: InterruptRunner; person: Person } | undefined,
  ): Promise<void> {
    let db: ThreadStore;
    try {
      db = await this.database;
    } catch (error) {
      refuse(events, describe(error));
      return;
    }
    // Who asks, and whether they may, is settled before anything else: a refused run stops nothing
    // (not even a run it would supersede) and starts nothing.
    let person: Person | undefined;
    let permitted: Permission;
    try {
      ({ person, permitted } = await this.admit(db, { threadId, agent, input }, context));
    } catch (error) {
      if (error instanceof RunnerError) refuse(events, error.message, { code: error.code });
      else refuse(events, storeLost(db, 'before the run started', error));
      return;
    }
    if (!this.expiryRuns.has(input.runId)) this.knownAgents.set(agent.agentId ?? 'default', agent);
    let release!: () => void;
    const finished = new Promise<void>((resolve) => (release = resolve));
    // Cancels of interrupts the server already closed as expired: the agent heard those once.
    const expiredHere = new Set<string>();
    let run: LocalRun;
    try {
      if (this.onConcurrentRun === 'supersede') await this.supersede(db, threadId);
      run = await this.serialize(threadId, async () => {
        const { runPk, before, after, created } = await this.claim({ store: db, threadId, agent, input, person, permitted, expiredHere });
        // The claim changed no ended run: a history read at the number before it holds after it; a
        // thread it created has none.
        if (after !== undefined && created) this.histories.set(threadId, { seq: after, runs: [] });
        else if (after !== undefined) this.histories.advance(threadId, before, after);
        const claimed: LocalRun = {
          runPk,
          seq: after,
          runId: input.runId,
          agent,
          events,
          stopRequested: false,
          finished,
          person,
          assignments: new Map(),
        };
        this.local.set(threadId, claimed);
        return claimed;
      });
    } catch (error) {
      if (error instanceof Refusal) refuse(events, error.message, { code: error.code, ...error.extra });
      else if (error instanceof RunnerError) refuse(events, error.message, { code: error.code });
      else refuse(events, storeLost(db, 'before the run started', error));
      return;
    }
    this.startHeartbeat();
    try {
      // AG-UI's agent refuses a run that leaves an interrupt it remembers unanswered: the expired
      // ones are no longer its to guard.
      if (expiredHere.size > 0) agent.pendingInterrupts = (agent.pendingInterrupts ?? []).filter((i) => !expiredHere.has(i.id));
      await this.record(db, { threadId, agent, input: withoutAnswers(input, expiredHere) }, run, events);
    } catch (error) {
      events.next(runError(`${PREFIX} the run on thread ${quote(threadId)} failed: ${describe(error)}`));
      events.complete();
    } finally {
      if (this.local.get(threadId) === run) this.local.delete(threadId);
      if (this.local.size === 0) this.stopHeartbeat();
      release();
    }
  }

  /**
   * Runs the agent and saves what it sends as it goes. The run's end (RUN_FINISHED, RUN_ERROR and
   * anything after) is held back and sent only once the run, with the interrupts it raised, is
   * saved: a client never answers an interrupt the store does not hold yet, and never hears
   * "finished" of a run that was not kept.
   */
  private async record(
    db: ThreadStore,
    { threadId, agent, input }: AgentRunnerRunRequest,
    run: LocalRun,
    events: ReplaySubject<BaseEvent>,
  ) {
    const writer = new EventWriter(db, encode(threadId), run.runPk);
    const seen: BaseEvent[] = [];
    const held: BaseEvent[] = [];
    let storeError: unknown;
    const fail = (error: unknown) => {
      storeError ??= error;
      try {
        agent.abortRun();
      } catch {
        // the run is reported as lost either way
      }
    };
    writer.onFailure = fail;
    const take = (event: BaseEvent, historic: ReadonlySet<string>) => {
      let stored = event;
      if (event.type === EventType.RUN_STARTED && !(event as { input?: unknown }).input) {
        // As CopilotKit's runner does: the run's input rides on RUN_STARTED, minus messages the
        // thread already holds, so a replay rebuilds the transcript and the resume answers.
        const messages = input.messages?.filter((message) => !historic.has(message.id));
        stored = { ...event, input: { ...input, ...(messages ? { messages } : {}) } } as BaseEvent;
      }
      seen.push(stored);
      if (held.length > 0 || stored.type === EventType.RUN_FINISHED || stored.type === EventType.RUN_ERROR) {
        held.push(stored);
        return;
      }
      events.next(stored);
      writer.push(stored);
    };
    // The agent starts at once; the messages the thread already holds are read meanwhile.
    const history = withHistory(this.historicMessageIds(db, threadId, run.runPk, run.seq), take, fail);
    let interruption: string | undefined;
    const onEvent = stopsOnceBegun(run, history.onEvent);
    try {
      await agent.runAgent(input, { onEvent: ({ event }) => onEvent(event) });
    } catch (error) {
      interruption = describe(error);
    }
    await history.settled;
    // What the writer had not written yet is saved with the run's end, in one transaction.
    const pending = await writer.drain();
    const lost = (when: string, error: unknown) => {
      // The run's rows stay marked running and are never replayed: nothing half-written shows.
      events.next(runError(storeLost(db, when, error)));
      events.complete();
    };
    if (storeError !== undefined) {
      lost('during the run; it was not saved', storeError);
      return;
    }
    // The closing events CopilotKit's runner adds (ends of open messages, RUN_ERROR or RUN_FINISHED).
    const before = seen.length;
    const appended = finalizeRunEvents(seen, {
      stopRequested: run.stopRequested,
      ...(interruption !== undefined ? { interruptionMessage: interruption } : {}),
    });
    const tail = [...held, ...(seen.length > before ? seen.splice(before) : appended)];
    try {
      await this.finish(db, threadId, run, [...pending, ...tail], [...seen, ...tail.slice(held.length)], interruption);
    } catch (error) {
      // A commit whose reply was lost, and whose check could not be read either, may have landed.
      lost(
        error instanceof CommitUnknown ? 'while saving the run; whether it was saved is unknown' : 'while saving the run; it was not saved',
        error,
      );
      return;
    }
    const viewer = await this.runViewer(db, threadId, run);
    const tell = (id: string) =>
      peopleFor({ open: true, assignment: run.assignments.get(id), answeredBy: null, answeredAt: null }, viewer!);
    for (const event of tail) events.next(viewer ? annotated(event, tell) : event);
    events.complete();
  }

  /** The person a run streams to, as a viewer of what it raised; undefined without `identify` (or when it cannot be told). */
  private async runViewer(db: ThreadStore, threadId: string, run: LocalRun): Promise<Viewer | undefined> {
    if (!this.identifier || !run.person) return undefined;
    try {
      return await this.viewerOf(threadId, run.agent.agentId ?? 'default', run.person, await db.threadOwner(encode(threadId)));
    } catch {
      return undefined; // the run was saved; its cards say nothing of people rather than fail it
    }
  }

  /** Runs `work` after every earlier claim on this thread from this instance has settled. */
  private serialize<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.claims.get(threadId) ?? Promise.resolve();
    const current = previous.then(work, work);
    const settled = current.catch(() => {});
    this.claims.set(threadId, settled);
    void settled.then(() => {
      if (this.claims.get(threadId) === settled) this.claims.delete(threadId);
    });
    return current;
  }

  /** True while this instance runs the run with this key (a row it left behind after a crash is not). */
  private holds(runPk: number): boolean {
    for (const run of this.local.values()) if (run.runPk === runPk) return true;
    return false;
  }

  /**
   * `onConcurrentRun: 'supersede'`: stops the run that holds the thread (here, or through the thread
   * row on another instance) and waits until it is saved, so the claim that follows finds it free.
   */
  private async supersede(store: ThreadStore, threadId: string): Promise<void> {
    const local = this.local.get(threadId);
    if (local) {
      this.abort(local);
      await local.finished;
      return;
    }
    const threadKey = encode(threadId);
    const deadline = Date.now() + this.staleAfterMs;
    let asked = false;
    // The stopped run's end is a change of the thread: heard at once, read again on the safety net.
    const wake = new ChangeWaiter();
    const unsubscribe = this.subscribeChanges((change) => {
      if (change.threadId === threadId) wake.notify();
    });
    try {
      while (Date.now() < deadline) {
        const thread = await store.thread(threadKey);
        if (!thread || thread.running_run_pk == null || Number(thread.heartbeat_at) <= Date.now() - this.staleAfterMs) return;
        if (!asked) asked = await store.requestStop(threadKey, null, Date.now() - this.staleAfterMs);
        await wake.wait(this.pollIntervalMs);
      }
    } finally {
      unsubscribe();
    }
  }

  /**
   * One transaction: takes the thread, closes the interrupts the resume answers (each only while it
   * is open on this thread), and records the run. Either all of it happens or the run is refused.
   * When the commit's reply was lost, the store is asked whether it landed: a claim is never made
   * twice (its answers would then be refused as already given) and never lost.
   */
  private async claim(request: ClaimRequest): Promise<Claimed> {
    // The run the last attempt started (a batch given up runs the claim again): the one its commit would write.
    const started: { runPk?: number } = {};
    const claimed = await commitOnce(
      () => this.claimOnce(request, started),
      async () => started.runPk !== undefined && (await request.store.runStored(started.runPk)),
    );
    // Landed unseen: the run is this one, whatever happened to the thread since (as when nothing fails).
    return claimed === 'unseen' ? { runPk: started.runPk!, before: undefined, after: undefined, created: false } : claimed.value;
  }

  private claimOnce(
    { store, threadId, agent, input, person, permitted, expiredHere }: ClaimRequest,
    started: { runPk?: number },
  ): Promise<Claimed> {
    const threadKey = encode(threadId);
    const agentId = agent.agentId ?? 'default';
    const by = person ? keysOf(person) : null;
    return store.transaction(
      async (tx) => {
        // A batch given up runs this again (see ThreadStore.transaction): what an attempt noted is its own.
        expiredHere.clear();
        started.runPk = undefined;
        const now = Date.now();
        const thread = await tx.takeThread(threadKey, agentId, now, by);
        // A thread first run by someone else between `permit` and here: theirs, and not allowed.
        if (by && !permitted && thread.owner_id !== by.id) {
          throw new Refusal(`${PREFIX} thread ${quote(threadId)} belongs to someone else; the run was refused.`, 'forbidden');
        }
        const answers = await this.answer(tx, threadId, input, now, { person, onlyAssigned: permitted === 'assigned' }, expiredHere);
        const held = thread.running_run_pk != null ? Number(thread.running_run_pk) : undefined;
        const busy =
          held !== undefined &&
          (thread.running_owner === this.instanceId ? this.holds(held) : Number(thread.heartbeat_at) > now - this.staleAfterMs);
        if (busy) throw new Refusal(`${PREFIX} Thread already running: ${quote(threadId)} has a run in progress.`, 'thread_running');
        // The instance that held it stopped (crash, restart): its unfinished run is never replayed.
        if (held !== undefined) await tx.abandonRun(held, now);
        const { runPk, seq } = await tx.startRun(threadKey, encode(input.runId), agentId, now, this.instanceId, answers);
        started.runPk = runPk;
        return { runPk, before: Number(thread.change_seq), after: seq, created: thread.created === true };
      },
      { group: 'claim', threadKey },
    );
  }

  /** Closes each interrupt the resume answers, or refuses the whole resume naming the id and why. */
  private async answer(
    tx: ThreadTransaction,
    threadId: string,
    input: RunAgentInput,
    now: number,
    { person, onlyAssigned }: { person: Person | undefined; onlyAssigned: boolean },
    expiredHere: Set<string>,
  ): Promise<string[]> {
    const by = person ? keysOf(person) : null;
    const resume = (input as { resume?: unknown }).resume;
    if (resume === undefined || resume === null) return [];
    if (!Array.isArray(resume))
      throw new Refusal(`${PREFIX} the resume of thread ${quote(threadId)} is not a list of answers; the run was refused.`);
    const threadKey = encode(threadId);
    const hashes: string[] = [];
    for (const entry of resume as ResumeEntry[]) {
      const id = entry?.interruptId;
      if (typeof id !== 'string')
        throw new Refusal(`${PREFIX} a resume entry on thread ${quote(threadId)} has no interruptId; the run was refused.`);
      const status = entry.status === 'cancelled' ? 'cancelled' : entry.status === 'resolved' ? 'resolved' : undefined;
      if (!status) {
        throw new Refusal(
          `${PREFIX} the resume of interrupt ${quote(id)} has status ${JSON.stringify(entry.status)}; it must be "resolved" or "cancelled". The run was refused.`,
        );
      }
      const hash = interruptHash(id);
      const serverRun = this.expiryRuns.has(input.runId);
      const expired = status === 'cancelled' && serverRun ? 'expired' : null;
      const answered = await tx.answerInterrupt(
        threadKey,
        hash,
        status,
        entry.payload === undefined ? null : encode(entry.payload),
        now,
        by,
        expired,
      );
      if (answered) {
        // Closed only while it was open; a refusal here rolls the whole claim back.
        if (!serverRun) this.checkApprover({ threadId, interruptId: id }, answered.interrupt, person, onlyAssigned);
        hashes.push(hash);
        continue;
      }
      const existing = await tx.readInterrupt(threadKey, hash);
      if (!existing) {
        throw new Refusal(
          `${PREFIX} interrupt ${quote(id)} is not open on thread ${quote(threadId)}: no such interrupt was raised there. The run was refused.`,
          ResumeRefusal.NotOpen,
        );
      }
      if (!serverRun && status === 'cancelled' && existing.status === 'cancelled' && existing.closed_reason === 'expired') {
        // The server settled this expiry first, and this cancel (a device that saw it expire, and
        // chats on) says the same: taken as given, and kept from the agent, which heard it once.
        // (A second server settle is refused below: with no answer left, its agent would ask again.)
        expiredHere.add(id);
        continue;
      }
      if (existing.status === 'changed') {
        // As the agent's own refusal does: the requests as they are now, for the card to show.
        const interrupts = (await tx.openInterrupts(threadKey)).flatMap((text) =>
          text === null ? [] : [splitStored(JSON.parse(text) as unknown).interrupt],
        );
        throw new Refusal(
          `${PREFIX} interrupt ${quote(id)} on thread ${quote(threadId)} was given to a request that has since changed; answer the request as it is now. The run was refused.`,
          ResumeRefusal.Changed,
          { interrupts },
        );
      }
      const won: ResumeEntry =
        existing.status === 'resolved'
          ? { interruptId: id, status: 'resolved', payload: existing.response === null ? undefined : JSON.parse(existing.response) }
          : { interruptId: id, status: 'cancelled' };
      throw new Refusal(
        `${PREFIX} interrupt ${quote(id)} on thread ${quote(threadId)} was already answered (${existing.status}); only the first answer counts. The run was refused.`,
        ResumeRefusal.AlreadyAnswered,
        { answers: [won] },
      );
    }
    return hashes;
  }

  /**
   * Refuses an answer to an open interrupt from anyone its approvers do not let answer it
   * (`not_an_approver`, `four_eyes`); and, from someone who reached the thread only as an
   * approver, an answer to an interrupt that does not name them (`forbidden`).
   */
  private checkApprover(
    { threadId, interruptId }: { threadId: string; interruptId: string },
    raised: string | null,
    person: Person | undefined,
    onlyAssigned: boolean,
  ): void {
    const { assignment } = storedAssignment(raised);
    const where = `interrupt ${quote(interruptId)} on thread ${quote(threadId)}`;
    const refusal = assignment ? refusalOf(assignment, person) : undefined;
    if (refusal) throw new Refusal(`${PREFIX} you may not answer ${where}: ${refusal.why}. The run was refused.`, refusal.code);
    if (onlyAssigned && !(assignment && person && names(assignment, person))) {
      throw new Refusal(
        `${PREFIX} ${where} is not one you were asked to answer, and the thread is not yours; the run was refused.`,
        'forbidden',
      );
    }
  }

  /** One transaction: the run's last events, its status, the interrupts it raised, the thread freed. */
  private async finish(
    store: ThreadStore,
    threadId: string,
    run: LocalRun,
    unsaved: BaseEvent[],
    all: BaseEvent[],
    interruption: string | undefined,
  ) {
    const threadKey = encode(threadId);
    const last = all[all.length - 1];
    const status = run.stopRequested ? 'stopped' : interruption !== undefined || last?.type === EventType.RUN_ERROR ? 'error' : 'finished';
    const raise = raisedBy(all);
    const raised: RaisedInterrupt[] = [];
    // Who may answer each is settled now, before anyone can see it.
    await this.assignAll(threadId, run, raise?.interrupts ?? []);
    (raise?.interrupts ?? []).forEach((interrupt, position) => {
      if (!isRecord(interrupt) || typeof interrupt.id !== 'string') return;
      const assignment = run.assignments.get(interrupt.id);
      raised.push({
        hash: interruptHash(interrupt.id),
        key: encode(interrupt.id),
        reason: encode(typeof interrupt.reason === 'string' ? interrupt.reason : ''),
        expiresAt: typeof interrupt.expiresAt === 'string' ? encode(interrupt.expiresAt) : null,
        interrupt: encode(storedInterrupt(interrupt, assignment)),
        position,
        approvers: approverKeys(assignment),
      });
    });
    // One id raised twice in a set keeps its last place, as the rows always did.
    const unique = [...new Map(raised.map((row) => [row.hash, row])).values()];
    const save = () =>
      store.transaction(
        async (tx) => {
          const now = Date.now();
          // The thread first (with the run's last events), as a claim takes it: the two never wait on
          // each other's rows crosswise.
          const before = await tx.lockAndAppend(threadKey, run.runPk, unsaved.map(encode), all.length - unsaved.length);
          // The answers this run carried never applied: they were given to a request that has since
          // changed. The refusal carries the requests as they are now; those are the open ones.
          if (raise?.changed) await tx.markChanged(threadKey, run.runPk);
          await tx.raiseInterrupts(threadKey, run.agent.agentId ?? 'default', run.runPk, unique, now);
          return { before, after: await tx.endRunAndRelease(threadKey, run.runPk, status, now) };
        },
        { group: 'finish', threadKey },
      );
    // Its end is its own status: `abandoned` (the thread taken over meanwhile) is not.
    const saved = await commitOnce(save, () => store.runEndedWith(run.runPk, status));
    if (saved === 'unseen') {
      // Saved at a change number this instance does not know: its history of the thread is read again.
      this.histories.delete(threadId);
      return;
    }
    const { before, after } = saved.value;
    // This instance's history of the thread gains the run as a replay reads it back from its rows.
    if (after !== undefined) {
      this.histories.advance(threadId, before, after, () => ({
        runPk: run.runPk,
        events: all.map((event) => JSON.parse(encode(event)) as BaseEvent),
      }));
    }
  }

  /** Asks the `approvers` policy for each interrupt the run raised; kept on the run until its rows are written. */
  private async assignAll(threadId: string, run: LocalRun, interrupts: readonly unknown[]): Promise<void> {
    const policy = this.assigner;
    if (!policy) return;
    for (const interrupt of interrupts) {
      if (!isRecord(interrupt) || typeof interrupt.id !== 'string' || run.assignments.has(interrupt.id)) continue;
      const metadata = isRecord(interrupt.metadata) ? interrupt.metadata : {};
      const toolName = [interrupt.toolName, metadata.toolName].find((name): name is string => typeof name === 'string');
      const assignment = await assign(policy, {
        interrupt,
        reason: typeof interrupt.reason === 'string' ? interrupt.reason : '',
        toolName,
        threadId,
        agentId: run.agent.agentId ?? 'default',
        requester: run.person,
      });
      run.assignments.set(interrupt.id, assignment);
    }
  }

  private async historicMessageIds(store: ThreadStore, threadId: string, runPk: number, seq: number | undefined): Promise<Set<string>> {
    // Read after the claim: what the thread holds at its number, or later.
    const history = seq === undefined ? undefined : await this.historyAt(store, threadId, seq);
    if (history !== undefined && typeof history !== 'string') return messageIdsOf(history);
    const ids = new Set<string>();
    const rows = await store.endedRunEvents(encode(threadId), [runPk]);
    for (const row of rows) {
      let event: { messageId?: unknown; type?: unknown; input?: { messages?: Array<{ id?: unknown }> } };
      try {
        event = JSON.parse(row.payload) as typeof event;
      } catch {
        continue; // a connect to this thread reports the broken row
      }
      if (typeof event.messageId === 'string') ids.add(event.messageId);
      if (event.type === EventType.RUN_STARTED) {
        for (const message of event.input?.messages ?? []) if (typeof message?.id === 'string') ids.add(message.id);
      }
    }
    return ids;
  }

  private abort(run: LocalRun): boolean {
    if (run.stopRequested) return false;
    run.stopRequested = true;
    try {
      run.agent.abortRun();
      return true;
    } catch (error) {
      run.stopRequested = false;
      console.error(`${PREFIX} failed to stop a run: ${describe(error)}`);
      return false;
    }
  }

  // ---- who may ----

  /**
   * Within `route` (a person known), whether they may `action` on the thread; true outside it, where
   * the caller is the app's own code. A thread never run is no one's yet.
   */
  private async routePersonMay(threadId: string, action: ThreadAction): Promise<boolean> {
    const context = asking.getStore();
    if (!this.identifier || context?.runner !== this || threadIdProblem(threadId)) return true;
    const db = await this.database;
    const row = await db.threadOwner(encode(threadId));
    if (!row) return true;
    try {
      await this.permit(db, threadId, row.agent_id ?? 'default', context.person, action);
      return true;
    } catch (error) {
      if (error instanceof RunnerError) return false;
      throw error;
    }
  }

  /**
   * Who asks for a run and whether they may: throws `unauthenticated`, `forbidden` and the like. The
   * server's own run that settles an expiry is no one's, and may.
   */
  private async admit(
    db: ThreadStore,
    { threadId, agent, input }: AgentRunnerRunRequest,
    context: { runner: InterruptRunner; person: Person } | undefined,
  ): Promise<{ person: Person | undefined; permitted: Permission }> {
    if (this.expiryRuns.has(input.runId)) return { person: undefined, permitted: true };
    const person = await this.personOf(context, (agent as { headers?: Record<string, string> }).headers, 'run');
    if (!person) return { person, permitted: false };
    const resume = (input as { resume?: unknown }).resume;
    const action: ThreadAction = Array.isArray(resume) && resume.length > 0 ? 'answer' : 'run';
    return { person, permitted: await this.permit(db, threadId, agent.agentId ?? 'default', person, action) };
  }

  /** The person a run or connect comes from: the one `route` identified, else `identify` on the forwarded headers. */
  private async personOf(
    context: { runner: InterruptRunner; person: Person } | undefined,
    headers: Record<string, string> | undefined,
    path: string,
  ): Promise<Person | undefined> {
    if (!this.identifier) return undefined;
    if (context?.runner === this) return context.person;
    return identifyRequest(this.identifier, requestFromHeaders(headers, path));
  }

  /**
   * Whether `person` may do `action` on the thread: true when they own it or `authorize` allows it;
   * false for a thread not yet run (it becomes theirs; the claim checks that no one took it first);
   * throws `forbidden` otherwise. A thread started before the runner identified anyone has no
   * owner: only `authorize` lets anyone in.
   */
  private async permit(db: ThreadStore, threadId: string, agentId: string, person: Person, action: ThreadAction): Promise<Permission> {
    const row = await db.threadOwner(encode(threadId));
    if (!row) return false;
    if (row.owner_id === encode(person.id)) return true;
    if (await allowedBy(this.authorizer, { user: person, threadId, agentId, action })) return true;
    if (action !== 'run' && (await this.assignedTo(db, threadId, person))) return 'assigned';
    throw new RunnerError(
      'forbidden',
      `${PREFIX} thread ${quote(threadId)} belongs to someone else, and authorize did not allow ${action}; nothing was ${action === 'read' ? 'read' : 'run'}.`,
    );
  }

  /**
   * True when an interrupt of the thread names `person` among its approvers: open, or already
   * answered (so the one who lost a race to answer it hears that it was answered, and whoever was
   * asked can still read what came of it).
   */
  private assignedTo(db: ThreadStore, threadId: string, person: Person): Promise<boolean> {
    return db.assignedIn(encode(threadId), personKeys(person));
  }

  // ---- replay and joining ----

  /**
   * Who connects, and whether they may, before anything of the thread is read: the viewer; `null`
   * without `identify`; undefined once the connect is answered (refused, or a thread never run).
   */
  private async admitConnect(
    db: ThreadStore,
    request: AgentRunnerConnectRequest,
    context: { runner: InterruptRunner; person: Person } | undefined,
    subscriber: Subscriber<BaseEvent>,
    control: { closed: boolean },
  ): Promise<Viewer | null | undefined> {
    if (!this.identifier) return null;
    const { threadId } = request;
    try {
      const person = (await this.personOf(context, request.headers, 'connect'))!;
      const row = await db.threadOwner(encode(threadId));
      if (!row) {
        subscriber.complete();
        return undefined;
      }
      const agentId = request.agentId ?? row.agent_id ?? 'default';
      await this.permit(db, threadId, agentId, person, 'read');
      return await this.viewerOf(threadId, agentId, person, row);
    } catch (error) {
      if (!(error instanceof RunnerError)) throw error;
      if (!control.closed) {
        subscriber.next(runError(error.message, { code: error.code }));
        subscriber.complete();
      }
      return undefined;
    }
  }

  /** The person a thread is shown to, and whether they may answer its interrupts that have no approvers. */
  private async viewerOf(
    threadId: string,
    agentId: string,
    person: Person,
    row: { owner_id: string | null; owner_name: string | null } | undefined,
  ): Promise<Viewer> {
    const owner = row?.owner_id
      ? { id: JSON.parse(row.owner_id) as string, ...(row.owner_name ? { name: JSON.parse(row.owner_name) as string } : {}) }
      : null;
    // A thread not run yet becomes theirs.
    const answersThread =
      !row || owner?.id === person.id || (await allowedBy(this.authorizer, { user: person, threadId, agentId, action: 'answer' }));
    return { person, answersThread, owner };
  }

  private async replay(
    request: AgentRunnerConnectRequest,
    context: { runner: InterruptRunner; person: Person } | undefined,
    subscriber: Subscriber<BaseEvent>,
    control: { closed: boolean },
  ): Promise<void> {
    const { threadId } = request;
    const problem = threadIdProblem(threadId);
    if (problem) {
      subscriber.next(runError(problem));
      subscriber.complete();
      return;
    }
    const db = await this.database;
    const viewer = await this.admitConnect(db, request, context, subscriber, control);
    if (viewer === undefined) return;
    // Which run is live is read first, and that run is left out of the history: it is joined instead.
    // One read of the thread's row: which run is live, and its change number (the history in memory
    // is used only when it was read at that number).
    const local = this.local.get(threadId);
    const row = await db.thread(encode(threadId));
    const remote = local ? undefined : this.remoteOf(row);
    const liveRunPk = local?.runPk ?? remote?.runPk;
    const history = await this.historyAt(db, threadId, row?.change_seq);
    if (typeof history === 'string') {
      console.error(history);
      if (!control.closed) {
        subscriber.next(runError(history));
        subscriber.complete();
      }
      return;
    }
    if (control.closed) return;
    // Each interrupt says who it waits for and who answered it, as this viewer may see it.
    const facts = viewer ? factsOf(await db.listInterrupts({ threadKey: encode(threadId) })) : undefined;
    const emitted = new Set<string>();
    for (const event of replayedEvents(history, liveRunPk)) {
      subscriber.next(viewer && facts ? annotated(event, (id) => tellOf(facts.get(id), viewer)) : event);
      const id = (event as { messageId?: unknown }).messageId;
      if (typeof id === 'string') emitted.add(id);
    }
    const fresh = (event: BaseEvent) => {
      const id = (event as { messageId?: unknown }).messageId;
      return !(typeof id === 'string' && emitted.has(id));
    };
    if (local) {
      const subscription = local.events.subscribe({
        next: (event) => {
          if (!fresh(event)) return;
          // What this run raised is open, with the approvers it was given: the viewer's own view of it.
          const tell = (id: string) =>
            peopleFor({ open: true, assignment: local.assignments.get(id), answeredBy: null, answeredAt: null }, viewer!);
          subscriber.next(viewer ? annotated(event, tell) : event);
        },
        complete: () => subscriber.complete(),
        error: (error: unknown) => subscriber.error(error),
      });
      subscriber.add(subscription);
      return;
    }
    if (remote) {
      await this.follow(db, threadId, remote.runPk, subscriber, control, async (event) => {
        if (!fresh(event)) return undefined;
        if (!viewer || !raisesInterrupts(event)) return event;
        const now = factsOf(await db.listInterrupts({ threadKey: encode(threadId) }));
        return annotated(event, (id) => tellOf(now.get(id), viewer));
      });
      return;
    }
    subscriber.complete();
  }

  /** Reads a run held by another instance as its events are written, until it ends. */
  private async follow(
    db: ThreadStore,
    threadId: string,
    runPk: number,
    subscriber: Subscriber<BaseEvent>,
    control: { closed: boolean },
    shown: (event: BaseEvent) => Promise<BaseEvent | undefined>,
  ) {
    let seq = -1;
    // Woken by the run's next commit (its events, its end); the timeout is only the safety net.
    const wake = new ChangeWaiter();
    const unsubscribe = this.subscribeChanges((change) => {
      if (change.threadId === threadId) wake.notify();
    });
    subscriber.add(unsubscribe);
    while (!control.closed) {
      // The status is read before the events: a run is ended in the transaction that saves its last events.
      const run = await db.runProgress(runPk);
      const rows = await db.runEventsAfter(runPk, seq);
      for (const row of rows) {
        seq = Number(row.seq);
        let event: BaseEvent;
        try {
          event = JSON.parse(row.payload) as BaseEvent;
        } catch {
          subscriber.next(runError(`${PREFIX} event #${seq} of the running run no longer parses; the join stopped.`));
          subscriber.complete();
          return;
        }
        const shownEvent = control.closed ? undefined : await shown(event);
        if (shownEvent && !control.closed) subscriber.next(shownEvent);
      }
      if (!run || run.status !== 'running') break;
      const heldBy = Number(run.running_run_pk) === runPk && Number(run.heartbeat_at) > Date.now() - this.staleAfterMs;
      if (!heldBy) {
        subscriber.next(runError(`${PREFIX} the instance running this thread stopped answering; the run did not finish.`));
        break;
      }
      await wake.wait(this.pollIntervalMs);
    }
    unsubscribe();
    if (!control.closed) subscriber.complete();
  }

  /**
   * The events of the thread's ended runs at change number `seq` (undefined: a thread never run): from
   * memory when this instance holds them at that number, else read and kept. A string says which
   * stored event no longer parses.
   */
  private async historyAt(db: ThreadStore, threadId: string, seq: unknown): Promise<HistoryEntry | string> {
    if (seq === undefined || seq === null) return { seq: -1, runs: [] };
    const at = Number(seq);
    const cached = this.histories.get(threadId, at);
    if (cached) return cached;
    // Read after the number was: it holds what the thread held then, or later (a later change gives
    // the thread a new number, so the next replay reads again). A run once ended never changes and
    // never stops being ended: only the runs this instance does not hold yet are read.
    const known = this.histories.knownRuns(threadId);
    const rows = await db.endedRunEvents(
      encode(threadId),
      known.map((run) => run.runPk),
    );
    const events = parseHistory(threadId, rows);
    if (typeof events === 'string') return events;
    const runs: CachedRun[] = [];
    rows.forEach((row, index) => {
      const runPk = Number(row.run_pk);
      const last = runs[runs.length - 1];
      if (last?.runPk === runPk) (last.events as BaseEvent[]).push(events[index]!);
      else runs.push({ runPk, events: [events[index]!] });
    });
    if (known.length > 0) runs.push(...known);
    runs.sort((a, b) => a.runPk - b.runPk);
    const entry: HistoryEntry = { seq: at, runs };
    this.histories.set(threadId, entry);
    return entry;
  }

  private async remoteRun(store: ThreadStore, threadId: string): Promise<{ runPk: number } | undefined> {
    return this.remoteOf(await store.thread(encode(threadId)));
  }

  /** The run another instance holds on a thread, from its row (undefined when none, or its instance stopped answering). */
  private remoteOf(row: ThreadLockRow | undefined): { runPk: number } | undefined {
    if (!row || row.running_run_pk == null || row.running_owner === this.instanceId) return undefined;
    if (Number(row.heartbeat_at) <= Date.now() - this.staleAfterMs) return undefined;
    return { runPk: Number(row.running_run_pk) };
  }

  // ---- heartbeat: tells other instances this one still holds its runs, and hears their stop requests ----

  private startHeartbeat() {
    if (this.heartbeat) return;
    const every = Math.max(50, Math.min(1000, Math.floor(this.staleAfterMs / 3)));
    this.heartbeat = setInterval(() => void this.beat(), every);
    this.heartbeat.unref?.();
  }

  private stopHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private async beat() {
    try {
      const store = await this.database;
      const held = [...this.local.values()].map((run) => run.runPk);
      if (held.length === 0) return;
      const rows = await store.heartbeat(this.instanceId, held, Date.now());
      for (const row of rows) {
        if (!row.stop_requested) continue;
        const run = this.local.get(JSON.parse(row.thread_key) as string);
        if (run) this.abort(run);
      }
    } catch {
      // A missed beat is harmless; a store that stays down fails the runs' own writes.
    }
  }
}

/**
 * The interrupts a run leaves open: its last `RUN_FINISHED` outcome's, or, when the agent refused
 * its answers as given to a changed request, the requests as they are now that the refusal carries.
 */
function raisedBy(events: readonly unknown[]): { interrupts: unknown[]; changed: boolean } | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (!isRecord(event)) continue;
    if (event.type === EventType.RUN_FINISHED) {
      const outcome = event.outcome;
      if (!isRecord(outcome) || outcome.type !== 'interrupt' || !Array.isArray(outcome.interrupts)) return undefined;
      return { interrupts: outcome.interrupts, changed: false };
    }
    if (event.type === EventType.RUN_ERROR) {
      if (event.code !== ResumeRefusal.Changed) continue;
      return { interrupts: Array.isArray(event.interrupts) ? event.interrupts : [], changed: true };
    }
  }
  return undefined;
}

/** `input` without the resume entries of `ids`; without a resume at all when none is left. */
function withoutAnswers(input: RunAgentInput, ids: ReadonlySet<string>): RunAgentInput {
  const resume = (input as { resume?: ResumeEntry[] }).resume;
  if (ids.size === 0 || !Array.isArray(resume)) return input;
  const left = resume.filter((entry) => !(typeof entry.interruptId === 'string' && ids.has(entry.interruptId)));
  if (left.length > 0) return { ...input, resume: left } as RunAgentInput;
  const rest: RunAgentInput & { resume?: unknown } = { ...input };
  delete rest.resume;
  return rest;
}

/** A thread's stored events, parsed; or, for a row that no longer parses, what to tell its operator. */
function parseHistory(threadId: string, rows: ReadonlyArray<{ payload: string; seq: unknown; run_pk: unknown }>): BaseEvent[] | string {
  const history: BaseEvent[] = [];
  for (const row of rows) {
    try {
      history.push(JSON.parse(row.payload) as BaseEvent);
    } catch (error) {
      return (
        `${PREFIX} thread ${quote(threadId)} cannot be replayed: its stored event #${Number(row.seq)} of run ${Number(row.run_pk)} no longer parses (${describe(error)}). ` +
        'Restore or delete that row (table cki_events); other threads are not affected.'
      );
    }
  }
  return history;
}

async function openStore(options: InterruptRunnerOptions): Promise<ThreadStore> {
  const { url } = options;
  if (url !== undefined && !isPostgresUrl(url)) {
    throw new RunnerError(
      'store_unavailable',
      `${PREFIX} url must start with postgres:// or postgresql:// (got ${redactUrl(url)}); leave it unset for the embedded store.`,
    );
  }
  let db;
  try {
    db = url ? await openPostgres(url, options.poolSize ?? 10) : await openEmbedded(options.dataDir ?? DEFAULT_EMBEDDED_DIR);
  } catch (error) {
    throw new RunnerError('store_unavailable', describe(error), { cause: error });
  }
  try {
    await ensureSchema(db);
  } catch (error) {
    await db.close().catch(() => {});
    if (error instanceof RunnerError) throw error;
    throw new RunnerError('store_unavailable', `${PREFIX} cannot prepare the thread store at ${db.location}: ${describe(error)}`, {
      cause: error,
    });
  }
  return new ThreadStore(db);
}

/**
 * The agent's events, passed to `next`. A stop asked before the agent's run began reached no run
 * (an agent still in `onInitialize` has nothing to abort): it is asked again at the first event. A
 * throw is logged; the run is kept as stopped either way.
 */
function stopsOnceBegun(run: LocalRun, next: (event: BaseEvent) => void): (event: BaseEvent) => void {
  let begun = false;
  return (event) => {
    if (!begun) {
      begun = true;
      try {
        if (run.stopRequested) run.agent.abortRun();
      } catch (error) {
        console.error(`${PREFIX} failed to stop a run: ${describe(error)}`);
      }
    }
    next(event);
  };
}

/** What a viewer is told of an interrupt the rows know; nothing for one they do not. */
const tellOf = (facts: InterruptFacts | undefined, viewer: Viewer) => (facts ? peopleFor(facts, viewer) : undefined);

/** An id as messages show it: quoted, and abbreviated past 200 characters (it is stored whole). */
const quote = (id: string): string => JSON.stringify(id.length > 200 ? `${id.slice(0, 200)}…` : id);

const runError = (message: string, extra?: Record<string, unknown>): BaseEvent =>
  ({ type: EventType.RUN_ERROR, message, ...extra }) as BaseEvent;

function refuse(events: ReplaySubject<BaseEvent>, message: string, extra?: Record<string, unknown>) {
  events.next(runError(message, extra));
  events.complete();
}

function storeLost(db: ThreadStore, when: string, error: unknown): string {
  return `${PREFIX} lost the thread store at ${db.location} ${when} (${describe(error)}). Check that the database is reachable, then send the message again.`;
}

/**
 * A durable CopilotKit runner: `new CopilotRuntime({ agents, runner: createInterruptRunner() })`.
 * No `url`: an embedded store in `.copilotkit-interrupts/` (or `dataDir`). A `postgres://` URL:
 * PostgreSQL, shared by every runtime instance given the same URL.
 */
export function createInterruptRunner(options: InterruptRunnerOptions = {}): InterruptRunner {
  return new InterruptRunner(options);
}
