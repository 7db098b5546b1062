import { commitOnce, CommitUnknown, ConnectionLost, reconnecting, STORE_WAIT_MS, type Database, type Sql } from './database';
import { GroupCommit, ReadBatch, type Lane, type Merger } from './group-commit';
import type { ChangeLog, ThreadChange } from './notifications';
import {
  threadMergers,
  type AnswerArgs,
  type EndRunArgs,
  type LockAndAppendArgs,
  type RaiseArgs,
  type StartRunArgs,
  type TakeThreadArgs,
} from './thread-mergers';
import { STORED_INTERRUPT_STATUSES, type StoredInterruptStatus } from '../wire/inbox';

/** The status of an interrupt row, named where the inbox's wire shape is (src/wire/inbox.ts). */
export { STORED_INTERRUPT_STATUSES, type StoredInterruptStatus };

/** How a run ended (`running` until then; `abandoned` when its instance died holding it). */
export type RunStatus = 'running' | 'finished' | 'error' | 'stopped' | 'abandoned';
/** The runs whose events are replayed. */
export const ENDED_RUN_STATUSES: readonly RunStatus[] = ['finished', 'error', 'stopped'];

/** Keys are the JSON text of the ids (see codec.ts); numbers are milliseconds since the epoch. */
export interface ThreadLockRow {
  running_run_pk: unknown;
  heartbeat_at: unknown;
  running_owner: string | null;
  stop_requested: boolean;
  /** The JSON text of the id of the person who started the thread; null when no one was identified. */
  owner_id: string | null;
  /** The thread's change number (see `bumpChange`). */
  change_seq: unknown;
}

export interface StoredEventRow {
  run_pk: unknown;
  seq: unknown;
  payload: string;
}

export interface InterruptRow {
  thread_key: string;
  interrupt_key: string;
  interrupt_hash: string;
  agent_id: string;
  reason: string;
  raised_at: unknown;
  expires_at: string | null;
  status: StoredInterruptStatus;
  response: string | null;
  answered_at: unknown;
  interrupt: string | null;
  position: number;
  /** Why a cancelled row was closed by the server (`expired`), or null. */
  closed_reason: string | null;
  owner_id: string | null;
  answered_by_id: string | null;
  answered_by_name: string | null;
  /** With a `viewer` filter: true when the row is the viewer's (their thread's, or assigned to them). */
  theirs?: boolean;
}

/** A thread whose open interrupts all carry an `expiresAt`: settled once the last of them passes. */
export interface ThreadDeadline {
  threadId: string;
  agentId: string;
  /** The thread's open interrupts (all of them: a resume answers the whole set). */
  interruptIds: string[];
  /** When the last of their `expiresAt` passes (ms since the epoch). */
  settleAt: number;
}

export interface ThreadRow {
  thread_key: string;
  agent_id: string | null;
  owner_id: string | null;
  created_at: unknown;
  updated_at: unknown;
  /** With a `viewer` filter: true when the thread is the viewer's (they own it, or one of its interrupts is assigned to them). */
  theirs?: boolean;
}

/** Where a listing of interrupts goes on from: the sort key of the last row returned. */
export type InterruptCursor = readonly [raisedAt: number, threadKey: string, position: number, hash: string];
/** Where a listing of threads goes on from. */
export type ThreadCursor = readonly [updatedAt: number, threadKey: string];

/**
 * A person as listings match them (the JSON text of their id and roles): an interrupt is assigned to
 * them when its approvers name the id or one of the roles, and four eyes does not rule the id out.
 */
export interface PersonKeys {
  id: string | null;
  roles: readonly string[];
}

export interface InterruptFilter {
  threadKey?: string;
  status?: StoredInterruptStatus;
  agentId?: string;
  /** The JSON text of the thread owner's id. */
  ownerKey?: string;
  /** The JSON text of the id of the person who answered. */
  answeredByKey?: string;
  /** Only the interrupts assigned to this person. */
  assignedTo?: PersonKeys;
  /**
   * Rows are marked `theirs` for this person (of a thread they own, or assigned to them); with
   * `only`, the others are left out.
   */
  viewer?: PersonKeys & { only: boolean };
  after?: InterruptCursor;
  limit?: number;
}

/** How an assignment is kept on its row (see `approverKeys`); null without one. */
export interface RaisedApprovers {
  ids: readonly string[];
  roles: readonly string[];
  fourEyes: string | null;
}

/** Who answered, as stored: the JSON text of their id and name. */
export interface AnswererKeys {
  id: string;
  name: string | null;
}

/** A raised interrupt as it is written: its id, its place in its set, the interrupt as JSON text. */
export interface RaisedInterrupt {
  hash: string;
  key: string;
  reason: string;
  expiresAt: string | null;
  interrupt: string;
  position: number;
  approvers: RaisedApprovers | null;
}

/** What an interrupt event says happened to its row (see `InterruptEvent`). */
export type InterruptEventType = 'raised' | 'answered' | 'cancelled' | 'expired' | 'changed';

/** An interrupt event waiting for delivery: the interrupt row as it was right after the change, and how delivery went. */
export interface InterruptEventRow extends InterruptRow {
  event_pk: unknown;
  /** The idempotency key: unique per event, the same on every attempt. */
  event_key: string;
  event_type: InterruptEventType;
  created_at: unknown;
  /** The JSON text of the thread owner's name, or null. */
  thread_owner_name: string | null;
  /** Delivery attempts so far, this one included. */
  attempts: number;
}

/** How one delivery attempt ended: delivered, tried again after `retryInMs`, or given up. */
export type EventOutcome = { delivered: true } | { retryInMs: number; error: string } | { gaveUp: string };

/**
 * Whether an interrupt row (`alias`, or the table itself) is assigned to the person whose id and
 * roles are the parameters `$id` and `$roles`: its approvers name the id or share a role, and four
 * eyes does not rule the id out. NULL (not true) for a row without approvers: a condition, by the
 * approvers' indexes.
 */
const assignedSql = (id: string, roles: string, alias = ''): string =>
  `((${alias}approver_ids && ARRAY[${id}::text] OR ${alias}approver_roles && ${roles}::text[]) AND (${id}::text IS NULL OR ${alias}four_eyes_id IS DISTINCT FROM ${id}))`;

const INTERRUPT_COLUMNS = `thread_key, interrupt_key, interrupt_hash, agent_id, reason, raised_at, expires_at, status, response, answered_at, interrupt, position, closed_reason, owner_id, answered_by_id, answered_by_name`;

/** Most threads whose transactions of one kind share one (see `ThreadStore.transaction`). */
const GROUP_MAX_BATCH = 100;
/** Transactions of one kind in flight at once on PostgreSQL (the embedded store has one connection). */
const GROUP_IN_FLIGHT = 1;

/** The store's clock in SQL (ms since the epoch): claims and retries are timed by it, whatever an instance's clock says. */
const DB_NOW = `(extract(epoch from clock_timestamp()) * 1000)::float8`;

/** A thread key (the JSON text of its id) back to the id; undefined for a row that no longer parses. */
function decodeThread(key: string): string | undefined {
  try {
    const id = JSON.parse(key) as unknown;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The statements of one transaction on the thread store. Every value is a parameter, never spliced
 * into the SQL.
 */
export class ThreadTransaction {
  /** The changes this transaction made, announced to this process's runners once it commits. */
  readonly changes: ThreadChange[] = [];

  /** True once this transaction wrote an interrupt event (the delivery worker is woken after the commit). */
  wroteEvents = false;

  constructor(
    private readonly sql: Sql,
    /** Where the hot statements go: batched with other threads' (group-commit.ts), or sent at once. */
    private readonly lane: Lane,
    /** True when the runner has `onInterruptEvent`: each change of an interrupt row writes its event here. */
    private readonly recordEvents = false,
  ) {}

  /**
   * The events of a change, in the transaction that makes it (a rolled-back change has none): one
   * row per interrupt, holding the interrupt row as it is now and a fresh idempotency key.
   */
  private async writeEvents(type: InterruptEventType, threadKey: string, hashes: readonly string[]): Promise<void> {
    if (!this.recordEvents || hashes.length === 0) return;
    await this.sql.query(
      `INSERT INTO cki_interrupt_events (event_key, event_type, created_at, thread_owner_name, ${INTERRUPT_COLUMNS})
       SELECT gen_random_uuid()::text, $3, ${DB_NOW}, (SELECT owner_name FROM cki_threads t WHERE t.thread_key = i.thread_key),
              ${INTERRUPT_COLUMNS.split(', ')
                .map((column) => `i.${column}`)
                .join(', ')}
         FROM cki_interrupts i WHERE i.thread_key = $1 AND i.interrupt_hash = ANY($2::text[])
        ORDER BY i.position, i.interrupt_hash`,
      [threadKey, hashes, type],
    );
    this.wroteEvents = true;
  }

  /** Notes a thread's new change number (told to this process's runners after the commit); undefined for no row. */
  private changed(threadKey: string, row: { change_seq: unknown } | undefined): number | undefined {
    if (!row || row.change_seq === null || row.change_seq === undefined) return undefined;
    const seq = Number(row.change_seq);
    const threadId = decodeThread(threadKey);
    if (threadId !== undefined) this.changes.push({ threadId, seq });
    return seq;
  }

  /**
   * Gives the thread its next change number and, on PostgreSQL, announces `{ thread, seq }` on the
   * change channel in this same transaction (a rolled-back change is never heard of). The payload
   * is built from the stored key, which is the id's JSON text: any id, NUL included, fits.
   * Returns the new number (undefined for a thread with no row).
   */
  async bumpChange(threadKey: string): Promise<number | undefined> {
    return this.changed(threadKey, await this.lane.call<{ change_seq: unknown } | undefined>('bump', { threadKey }));
  }

  /**
   * Creates the thread on its first run, owned by whoever started it (an existing thread keeps its
   * owner), and locks its row until the transaction ends: one statement. `created`: the thread is
   * new (it has no runs).
   */
  async takeThread(
    threadKey: string,
    agentId: string,
    now: number,
    owner: AnswererKeys | null,
  ): Promise<ThreadLockRow & { created: boolean }> {
    const args: TakeThreadArgs = { threadKey, agentId, now, ownerId: owner?.id ?? null, ownerName: owner?.name ?? null };
    return (await this.lane.call<ThreadLockRow & { created: boolean }>('takeThread', args))!;
  }

  /**
   * Records a run and hands it the thread (held by `owner`), marking the interrupts it answers, and
   * gives the thread its next change number: one statement. Returns the run's key and that number.
   */
  async startRun(
    threadKey: string,
    runKey: string,
    agentId: string,
    now: number,
    owner: string,
    answered: readonly string[],
  ): Promise<{ runPk: number; seq: number | undefined }> {
    const args: StartRunArgs = { threadKey, runKey, agentId, now, owner, answered };
    const row = await this.lane.call<{ run_pk: unknown; change_seq: unknown }>('startRun', args);
    return { runPk: Number(row!.run_pk), seq: this.changed(threadKey, row) };
  }

  /**
   * Ends a run with `status`, frees the thread if the run still holds it, and gives the thread its
   * next change number: one statement.
   */
  async endRunAndRelease(threadKey: string, runPk: number, status: RunStatus, now: number): Promise<number | undefined> {
    const args: EndRunArgs = { threadKey, runPk, status, now };
    return this.changed(threadKey, await this.lane.call<{ change_seq: unknown } | undefined>('endRun', args));
  }

  /**
   * Locks the thread's row until the transaction ends, and writes a run's events with it: returns
   * the thread's change number (undefined for a thread with no row).
   */
  async lockAndAppend(threadKey: string, runPk: number, payloads: readonly string[], firstSeq: number): Promise<number | undefined> {
    const args: LockAndAppendArgs = { threadKey, runPk, payloads, firstSeq };
    const row = await this.lane.call<{ change_seq: unknown } | undefined>('lockAndAppend', args);
    return row ? Number(row.change_seq) : undefined;
  }

  /**
   * Closes one open interrupt with an answer, saying who gave it (`closedReason` when the server
   * closed it). Returns the interrupt as raised (JSON text), or undefined when it was not open.
   */
  async answerInterrupt(
    threadKey: string,
    hash: string,
    status: 'resolved' | 'cancelled',
    response: string | null,
    now: number,
    by: AnswererKeys | null,
    closedReason: 'expired' | null = null,
  ) {
    const args: AnswerArgs = { threadKey, hash, status, response, now, byId: by?.id ?? null, byName: by?.name ?? null, closedReason };
    const row = await this.lane.call<{ interrupt: string | null } | undefined>('answer', args);
    if (!row) return undefined;
    await this.writeEvents(status === 'resolved' ? 'answered' : closedReason === 'expired' ? 'expired' : 'cancelled', threadKey, [hash]);
    return { interrupt: row.interrupt };
  }

  async readInterrupt(
    threadKey: string,
    hash: string,
  ): Promise<
    { status: StoredInterruptStatus; response: string | null; closed_reason: string | null; interrupt: string | null } | undefined
  > {
    const [row] = await this.sql.query<{
      status: StoredInterruptStatus;
      response: string | null;
      closed_reason: string | null;
      interrupt: string | null;
    }>(`SELECT status, response, closed_reason, interrupt FROM cki_interrupts WHERE thread_key = $1 AND interrupt_hash = $2`, [
      threadKey,
      hash,
    ]);
    return row;
  }

  /** The interrupts open on a thread, as raised, in the order they were raised. */
  async openInterrupts(threadKey: string): Promise<Array<string | null>> {
    const rows = await this.sql.query<{ interrupt: string | null }>(
      `SELECT interrupt FROM cki_interrupts WHERE thread_key = $1 AND status = 'open' ORDER BY raised_at, position, interrupt_hash`,
      [threadKey],
    );
    return rows.map((row) => row.interrupt);
  }

  async abandonRun(runPk: unknown, now: number): Promise<void> {
    await this.sql.query(`UPDATE cki_runs SET status = 'abandoned', finished_at = $2 WHERE run_pk = $1 AND status = 'running'`, [
      runPk,
      now,
    ]);
  }

  /** The answers a run carried never applied: they were given to a request that has since changed. */
  async markChanged(threadKey: string, runPk: number): Promise<void> {
    const rows = await this.sql.query<{ interrupt_hash: string }>(
      `UPDATE cki_interrupts SET status = 'changed' WHERE thread_key = $1 AND answered_run_pk = $2 RETURNING interrupt_hash`,
      [threadKey, runPk],
    );
    await this.writeEvents(
      'changed',
      threadKey,
      rows.map((row) => row.interrupt_hash),
    );
  }

  /** Writes the interrupts a run raised as open rows (an id raised again opens its row again). */
  async raiseInterrupts(threadKey: string, agentId: string, runPk: number, raised: readonly RaisedInterrupt[], now: number): Promise<void> {
    if (raised.length === 0) return;
    // A request still open and raised again as it was (a run that did not answer it) is no news.
    const unchanged = this.recordEvents
      ? await this.sql.query<{ interrupt_hash: string; interrupt: string | null }>(
          `SELECT interrupt_hash, interrupt FROM cki_interrupts WHERE thread_key = $1 AND status = 'open' AND interrupt_hash = ANY($2::text[])`,
          [threadKey, raised.map((row) => row.hash)],
        )
      : [];
    const repeated = new Set(
      unchanged
        .filter((row) => raised.some((next) => next.hash === row.interrupt_hash && next.interrupt === row.interrupt))
        .map((row) => row.interrupt_hash),
    );
    const args: RaiseArgs = { threadKey, agentId, runPk, raised, now };
    await this.lane.call('raise', args);
    await this.writeEvents(
      'raised',
      threadKey,
      raised.map((row) => row.hash).filter((hash) => !repeated.has(hash)),
    );
  }
}

/** The durable runner's SQL, behind named methods with row types. */
export class ThreadStore implements ChangeLog {
  /** Told of each committed change (the embedded store's runners hear each other in process). */
  onCommitted: (change: ThreadChange) => void = () => {};
  /** True when the runner has `onInterruptEvent`: changes of interrupt rows write their events. */
  recordsEvents = false;
  /** Told after a commit that wrote interrupt events (this instance's delivery worker looks at once). */
  onEventsWritten: () => void = () => {};

  private readonly mergers: Readonly<Record<string, Merger<Sql>>>;
  /** Group commits by kind of transaction (claims, run ends, event batches): one kind shares a transaction. */
  private readonly groups = new Map<string, GroupCommit<Sql>>();

  /**
   * Reads: sent again on a new connection when theirs was lost. (A write outside a transaction goes
   * to `db` itself: sent again, it could count twice.)
   */
  private readonly sql: Sql;
  #closing = false;
  /** True once `stopRetrying`: a lost connection is then reported at once. */
  private readonly closing = () => this.#closing;

  /** Stops sending anything again after a lost connection (the runner is closing: it must not wait for the store). */
  stopRetrying(): void {
    this.#closing = true;
  }

  constructor(readonly db: Database) {
    this.mergers = threadMergers(db.shared);
    this.sql = { query: (text, params) => reconnecting(() => db.query(text, params), this.closing) };
  }

  get location(): string {
    return this.db.location;
  }

  /** True for PostgreSQL (instances on other machines share it and hear changes by NOTIFY). */
  get shared(): boolean {
    return this.db.shared;
  }

  /**
   * Runs `work` in one transaction. With `batch`, transactions of the same `group` on other threads
   * that come while one is in flight share one (group-commit.ts): `work` may then run more than
   * once, and must act on nothing but `tx` until it resolves. Its thread's row must be the first
   * thing it locks (`takeThread` or `lockAndAppend`), as every transaction does.
   */
  async transaction<T>(work: (tx: ThreadTransaction) => Promise<T>, batch?: { group: string; threadKey: string }): Promise<T> {
    const attempt = async (sql: Sql, lane: Lane) => {
      const tx = new ThreadTransaction(sql, lane, this.recordsEvents);
      return { result: await work(tx), tx };
    };
    // A transaction whose connection was lost was rolled back: it runs again on a new one.
    const { result, tx } = await reconnecting(
      () =>
        batch ? this.group(batch.group).submit(batch.threadKey, attempt) : this.db.transaction((sql) => attempt(sql, this.directLane(sql))),
      this.closing,
    );
    for (const change of tx.changes) this.onCommitted(change);
    if (tx.wroteEvents) this.onEventsWritten();
    return result;
  }

  /** Statements sent at once, each for one thread. */
  private directLane(sql: Sql): Lane {
    return {
      call: async <R>(kind: string, args: unknown) => (await this.mergers[kind]!(sql, [args]))[0] as R,
    };
  }

  private group(name: string): GroupCommit<Sql> {
    let group = this.groups.get(name);
    if (!group) {
      group = new GroupCommit<Sql>({
        transaction: (body) => this.db.transaction(body),
        mergers: this.mergers,
        maxBatch: GROUP_MAX_BATCH,
        maxInFlight: this.db.shared ? GROUP_IN_FLIGHT : 1,
        aborted: (error) => (error as { code?: unknown } | null)?.code === '25P02',
        unknown: (error) => error instanceof CommitUnknown,
        lost: (error) => error instanceof ConnectionLost,
        // As long as the pool lets a transaction of its own wait for a connection.
        maxWaitMs: STORE_WAIT_MS,
      });
      this.groups.set(name, group);
    }
    return group;
  }

  /**
   * A batch of a run's events, with the thread's next change number (an instance following the run
   * reads it at once). When the commit's reply was lost, the batch is written again only if it is
   * not in the store.
   */
  async appendEvents(threadKey: string, runPk: number, payloads: readonly string[], firstSeq: number): Promise<void> {
    const append = () =>
      this.transaction(
        async (tx) => {
          await tx.lockAndAppend(threadKey, runPk, payloads, firstSeq);
          await tx.bumpChange(threadKey);
        },
        { group: 'append', threadKey },
      );
    await commitOnce(append, async () => {
      const first = await this.sql.query(`SELECT 1 FROM cki_events WHERE run_pk = $1 AND seq = $2`, [runPk, firstSeq]);
      return first.length > 0;
    });
  }

  // ---- the change log a notification feed checks and catches up from ----

  /** Threads' change numbers, read for many callers at once (a feed checks each thread it first hears of). */
  private readonly seqReads = new ReadBatch<string, number | undefined>(async (keys) => {
    const rows = await this.sql.query<{ thread_key: string; change_seq: unknown }>(
      `SELECT thread_key, change_seq FROM cki_threads WHERE thread_key = ANY($1::text[])`,
      [keys],
    );
    const seqs = new Map(rows.map((row) => [row.thread_key, Number(row.change_seq)]));
    return keys.map((key) => seqs.get(key));
  });

  threadSeq(threadId: string): Promise<number | undefined> {
    return this.seqReads.load(JSON.stringify(threadId));
  }

  async latestSeq(): Promise<number> {
    const [row] = await this.sql.query<{ seq: unknown }>(`SELECT coalesce(max(change_seq), 0) AS seq FROM cki_threads`);
    return Number(row?.seq ?? 0);
  }

  async changesAfter(after: number): Promise<ThreadChange[]> {
    const rows = await this.sql.query<{ thread_key: string; change_seq: unknown }>(
      `SELECT thread_key, change_seq FROM cki_threads WHERE change_seq > $1 ORDER BY change_seq`,
      [after],
    );
    return rows.flatMap((row) => {
      const threadId = decodeThread(row.thread_key);
      return threadId === undefined ? [] : [{ threadId, seq: Number(row.change_seq) }];
    });
  }

  // ---- expiry ----

  /**
   * Threads whose open interrupts all carry a readable `expiresAt` (one without keeps the whole set
   * open for a person), with the moment the last of them passes: of every thread, or of `threadIds`.
   */
  async deadlines(threadIds?: readonly string[]): Promise<ThreadDeadline[]> {
    type Row = { thread_key: string; interrupt_key: string; expires_at: string | null; agent_id: string };
    // Given threads: their open rows only, read by the primary key (a change of a thread moves only its deadline).
    const rows = threadIds
      ? threadIds.length === 0
        ? []
        : await this.sql.query<Row>(
            `SELECT thread_key, interrupt_key, expires_at, agent_id FROM cki_interrupts
              WHERE thread_key = ANY($1::text[]) AND status = 'open' ORDER BY thread_key, raised_at, position, interrupt_hash`,
            [threadIds.map((id) => JSON.stringify(id))],
          )
      : await this.sql.query<Row>(
          `SELECT thread_key, interrupt_key, expires_at, agent_id FROM cki_interrupts
            WHERE status = 'open' ORDER BY thread_key, raised_at, position, interrupt_hash`,
        );
    const byThread = new Map<string, { ids: string[]; settleAt: number; agentId: string } | null>();
    for (const row of rows) {
      const entry = byThread.get(row.thread_key);
      if (entry === null) continue;
      let at = NaN;
      let id: unknown;
      try {
        at = row.expires_at === null ? NaN : Date.parse(JSON.parse(row.expires_at) as string);
        id = JSON.parse(row.interrupt_key);
      } catch {
        // an unreadable row: its thread is left to a person
      }
      if (Number.isNaN(at) || typeof id !== 'string') {
        byThread.set(row.thread_key, null);
        continue;
      }
      if (entry) {
        entry.ids.push(id);
        entry.settleAt = Math.max(entry.settleAt, at);
      } else byThread.set(row.thread_key, { ids: [id], settleAt: at, agentId: row.agent_id });
    }
    return [...byThread].flatMap(([key, entry]) => {
      const threadId = decodeThread(key);
      return entry && threadId !== undefined
        ? [{ threadId, agentId: entry.agentId, interruptIds: entry.ids, settleAt: entry.settleAt }]
        : [];
    });
  }

  /** The store's clock (ms since the epoch): every instance settles by it, whatever its own says. */
  async now(): Promise<number> {
    const [row] = await this.sql.query<{ now: unknown }>(`SELECT (extract(epoch from clock_timestamp()) * 1000)::float8 AS now`);
    return Number(row?.now);
  }

  /**
   * Asks the instance holding a thread's run (this one, or `runKey` exactly) to stop it; true when
   * asked. When the reply is lost with its connection, the request may have landed: true when the
   * run is now asked to stop, or stopped since; else it is sent again on a new connection, where a
   * stop already asked (the lost one, still being written) counts as asked.
   */
  async requestStop(threadKey: string, runKey: string | null, aliveAfter: number): Promise<boolean> {
    // Without a key, the run holding the thread now: named, a lost reply can be checked against it.
    const key = runKey ?? (await this.runningKey(threadKey));
    if (key === undefined) return false;
    let again = false;
    return reconnecting(async () => {
      if (again && (await this.stopLanded(threadKey, key, aliveAfter))) return true;
      const retry = again;
      again = true;
      const rows = await this.db.query(
        `UPDATE cki_threads t SET stop_requested = true
           FROM cki_runs r
          WHERE t.thread_key = $1 AND r.run_pk = t.running_run_pk AND r.run_key = $2
            AND t.heartbeat_at > $3 AND ($4 OR NOT t.stop_requested)
          RETURNING t.thread_key`,
        [threadKey, key, aliveAfter, retry],
      );
      return rows.length > 0;
    }, this.closing);
  }

  /** The key of the run holding the thread, if one does. */
  private async runningKey(threadKey: string): Promise<string | undefined> {
    const [row] = await this.sql.query<{ run_key: string }>(
      `SELECT r.run_key FROM cki_threads t JOIN cki_runs r ON r.run_pk = t.running_run_pk WHERE t.thread_key = $1`,
      [threadKey],
    );
    return row?.run_key;
  }

  /**
   * After a stop's reply was lost: true when the last run of `runKey` on the thread is asked to
   * stop, or stopped after `since` (its holder heard the stop and saved it; an older run of that key
   * stopped long ago does not count).
   */
  private async stopLanded(threadKey: string, runKey: string, since: number): Promise<boolean> {
    const [run] = await this.db.query<{ status: RunStatus; finished_at: unknown; stop_requested: boolean | null }>(
      `SELECT r.status, r.finished_at, t.stop_requested FROM cki_runs r
         LEFT JOIN cki_threads t ON t.thread_key = r.thread_key AND t.running_run_pk = r.run_pk
        WHERE r.thread_key = $1 AND r.run_key = $2
        ORDER BY r.run_pk DESC LIMIT 1`,
      [threadKey, runKey],
    );
    return run !== undefined && (run.stop_requested === true || (run.status === 'stopped' && Number(run.finished_at) > since));
  }

  /**
   * True when the run `runPk` is in the store: a claim whose commit's reply was lost (see
   * `CommitUnknown`) landed exactly when the run it started is there (a run's key is drawn from a
   * sequence and never drawn again, so a claim that was rolled back leaves no row with it).
   */
  async runStored(runPk: number): Promise<boolean> {
    const rows = await this.sql.query(`SELECT 1 FROM cki_runs WHERE run_pk = $1`, [runPk]);
    return rows.length > 0;
  }

  /**
   * True once the run's end with `status` is written. Another status is not its end: a run that is
   * still `running`, or one `abandoned` by an instance that took its thread over meanwhile (a run's
   * end is written over that, as it is when nothing fails).
   */
  async runEndedWith(runPk: number, status: RunStatus): Promise<boolean> {
    const rows = await this.sql.query(`SELECT 1 FROM cki_runs WHERE run_pk = $1 AND status = $2`, [runPk, status]);
    return rows.length > 0;
  }

  async thread(threadKey: string): Promise<ThreadLockRow | undefined> {
    const [row] = await this.sql.query<ThreadLockRow>(
      `SELECT running_run_pk, heartbeat_at, running_owner, stop_requested, owner_id, change_seq FROM cki_threads WHERE thread_key = $1`,
      [threadKey],
    );
    return row;
  }

  /** Who owns a thread (their id's and name's JSON text) and which agent last ran it; undefined for a thread never run. */
  async threadOwner(
    threadKey: string,
  ): Promise<{ owner_id: string | null; owner_name: string | null; agent_id: string | null } | undefined> {
    const [row] = await this.sql.query<{ owner_id: string | null; owner_name: string | null; agent_id: string | null }>(
      `SELECT owner_id, owner_name, agent_id FROM cki_threads WHERE thread_key = $1`,
      [threadKey],
    );
    return row;
  }

  /** True when an interrupt of the thread, open or closed, is assigned to the person. */
  async assignedIn(threadKey: string, person: PersonKeys): Promise<boolean> {
    const rows = await this.sql.query(`SELECT 1 FROM cki_interrupts WHERE thread_key = $1 AND ${assignedSql('$2', '$3')} LIMIT 1`, [
      threadKey,
      person.id,
      [...person.roles],
    ]);
    return rows.length > 0;
  }

  /** Ended runs' events of many callers' threads, read at once (each caller's rows in order). */
  private readonly historyReads = new ReadBatch<{ threadKey: string; except: readonly number[] }, StoredEventRow[]>(async (args) => {
    const rows = await this.sql.query<StoredEventRow & { n: unknown }>(
      `SELECT u.n, e.run_pk, e.seq, e.payload
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(thread_key, except_pks, n)
         JOIN cki_runs r ON r.thread_key = u.thread_key AND r.status = ANY($3::text[]) AND NOT (r.run_pk = ANY(u.except_pks::bigint[]))
         JOIN cki_events e ON e.run_pk = r.run_pk
        ORDER BY u.n, r.run_pk, e.seq`,
      [args.map((a) => a.threadKey), args.map((a) => `{${a.except.map((pk) => Number(pk)).join(',')}}`), ENDED_RUN_STATUSES],
    );
    const found = args.map((): StoredEventRow[] => []);
    for (const { n, ...row } of rows) found[Number(n) - 1]!.push(row);
    return found;
  });

  /** The stored events of a thread's ended runs, in order, leaving out the runs `except`. */
  endedRunEvents(threadKey: string, except: readonly number[] = []): Promise<StoredEventRow[]> {
    return this.historyReads.load({ threadKey, except });
  }

  /** A run's status with its thread's heartbeat, read before its events (a run ends in the transaction that saves its last events). */
  async runProgress(runPk: number): Promise<{ status: RunStatus; heartbeat_at: unknown; running_run_pk: unknown } | undefined> {
    const [row] = await this.sql.query<{ status: RunStatus; heartbeat_at: unknown; running_run_pk: unknown }>(
      `SELECT r.status, t.heartbeat_at, t.running_run_pk FROM cki_runs r JOIN cki_threads t ON t.thread_key = r.thread_key WHERE r.run_pk = $1`,
      [runPk],
    );
    return row;
  }

  runEventsAfter(runPk: number, afterSeq: number): Promise<Array<{ seq: unknown; payload: string }>> {
    return this.sql.query(`SELECT seq, payload FROM cki_events WHERE run_pk = $1 AND seq > $2 ORDER BY seq`, [runPk, afterSeq]);
  }

  /**
   * Marks this instance's runs alive; returns their threads, with any stop asked for them. The rows
   * are locked in key order, as a group commit locks its threads: the two never wait on each other
   * crosswise.
   */
  heartbeat(owner: string, runPks: readonly number[], now: number): Promise<Array<{ thread_key: string; stop_requested: boolean }>> {
    // Not sent again when its connection is lost: the next beat comes soon, and a missed one is harmless.
    return this.db.query(
      `UPDATE cki_threads t SET heartbeat_at = $1
         FROM (SELECT thread_key FROM cki_threads WHERE running_owner = $2 AND running_run_pk = ANY($3::bigint[]) ORDER BY thread_key FOR UPDATE) l
        WHERE t.thread_key = l.thread_key
        RETURNING t.thread_key, t.stop_requested`,
      [now, owner, runPks],
    );
  }

  /** Interrupt rows in a stable order (raised, thread, place in the set), filtered and paged in SQL. */
  listInterrupts(filter: InterruptFilter): Promise<InterruptRow[]> {
    const { after, assignedTo, viewer } = filter;
    // $11/$12: assigned to (unset: any row); $13/$14: the viewer whose rows are `theirs`, $15: only theirs.
    const theirs = `(owner_id = $13 OR ${assignedSql('$13', '$14')})`;
    return this.sql.query<InterruptRow>(
      `SELECT ${INTERRUPT_COLUMNS}, coalesce(${theirs}, false) AS theirs FROM cki_interrupts
        WHERE ($1::text IS NULL OR thread_key = $1) AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR agent_id = $3)
          AND ($4::double precision IS NULL OR (raised_at, thread_key, position, interrupt_hash) > ($4, $5::text, $6::integer, $7::text))
          AND ($9::text IS NULL OR owner_id = $9) AND ($10::text IS NULL OR answered_by_id = $10)
          AND (($11::text IS NULL AND $12::text[] IS NULL) OR ${assignedSql('$11', '$12')})
          AND ($15::boolean IS NOT TRUE OR ${theirs})
        ORDER BY raised_at, thread_key, position, interrupt_hash
        LIMIT $8`,
      [
        filter.threadKey ?? null,
        filter.status ?? null,
        filter.agentId ?? null,
        after?.[0] ?? null,
        after?.[1] ?? null,
        after?.[2] ?? null,
        after?.[3] ?? null,
        filter.limit ?? null,
        filter.ownerKey ?? null,
        filter.answeredByKey ?? null,
        assignedTo ? assignedTo.id : null,
        assignedTo ? [...assignedTo.roles] : null,
        viewer?.id ?? null,
        viewer ? [...viewer.roles] : null,
        viewer?.only ?? false,
      ],
    );
  }

  /** Threads that have run at least once, most recently updated first, paged in SQL. */
  listThreads(filter: {
    agentId?: string;
    ownerKey?: string;
    /** Only threads with an interrupt (open or closed) assigned to this person. */
    assignedTo?: PersonKeys;
    /** Only threads with an interrupt this person (the JSON text of their id) answered. */
    answeredByKey?: string;
    /**
     * Rows are marked `theirs` for this person (a thread they own, or with an interrupt, open or
     * answered, assigned to them); with `only`, only those rows are listed.
     */
    viewer?: PersonKeys & { only: boolean };
    after?: ThreadCursor;
    limit?: number;
  }): Promise<ThreadRow[]> {
    const { after, assignedTo, viewer } = filter;
    // $10/$11: the viewer whose threads are `theirs`; $12: only theirs.
    const theirs = `(t.owner_id = $10 OR EXISTS (SELECT 1 FROM cki_interrupts v WHERE v.thread_key = t.thread_key AND ${assignedSql('$10', '$11', 'v.')}))`;
    return this.sql.query<ThreadRow>(
      `SELECT thread_key, agent_id, owner_id, created_at, updated_at, coalesce(${theirs}, false) AS theirs FROM cki_threads t
        WHERE ($1::text IS NULL OR agent_id = $1) AND ($6::text IS NULL OR owner_id = $6)
          AND ($12::boolean IS NOT TRUE OR ${theirs})
          AND (($7::text IS NULL AND $8::text[] IS NULL)
               OR EXISTS (SELECT 1 FROM cki_interrupts i WHERE i.thread_key = t.thread_key AND ${assignedSql('$7', '$8', 'i.')}))
          AND ($9::text IS NULL OR EXISTS (SELECT 1 FROM cki_interrupts i WHERE i.thread_key = t.thread_key AND i.answered_by_id = $9))
          AND ($2::double precision IS NULL OR (updated_at < $2 OR (updated_at = $2 AND thread_key > $3::text)))
          AND EXISTS (SELECT 1 FROM cki_runs r WHERE r.thread_key = t.thread_key AND r.status = ANY($5::text[]))
        ORDER BY updated_at DESC, thread_key
        LIMIT $4`,
      [
        filter.agentId ?? null,
        after?.[0] ?? null,
        after?.[1] ?? null,
        filter.limit ?? null,
        ENDED_RUN_STATUSES,
        filter.ownerKey ?? null,
        assignedTo ? assignedTo.id : null,
        assignedTo ? [...assignedTo.roles] : null,
        filter.answeredByKey ?? null,
        viewer?.id ?? null,
        viewer ? [...viewer.roles] : null,
        viewer?.only ?? false,
      ],
    );
  }

  // ---- interrupt events: the outbox the delivery worker drains ----

  /**
   * Claims up to `limit` events due for delivery, for `leaseMs` by the store's clock: the oldest
   * waiting event of each thread (a thread's next one waits until it is delivered or given up), and
   * none another instance holds (`SKIP LOCKED`, then the claim itself). A claim whose holder died
   * runs out and the event is claimed again.
   */
  claimEvents(owner: string, leaseMs: number, limit: number): Promise<InterruptEventRow[]> {
    return this.db.query<InterruptEventRow>(
      `UPDATE cki_interrupt_events SET claimed_by = $1, claimed_until = ${DB_NOW} + $2, attempts = attempts + 1
        WHERE event_pk IN (
          SELECT e.event_pk FROM cki_interrupt_events e
           WHERE e.failed_at IS NULL AND e.next_attempt_at <= ${DB_NOW} AND (e.claimed_until IS NULL OR e.claimed_until < ${DB_NOW})
             AND NOT EXISTS (SELECT 1 FROM cki_interrupt_events p
                              WHERE p.thread_key = e.thread_key AND p.event_pk < e.event_pk AND p.failed_at IS NULL)
           ORDER BY e.event_pk
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [owner, leaseMs, limit],
    );
  }

  /**
   * Records how an attempt ended, only while `owner` still holds the claim: a delivered event is
   * deleted, a failed one waits `retryInMs`, one given up is kept (with its error) for an operator.
   */
  async settleEvent(eventPk: unknown, owner: string, outcome: EventOutcome): Promise<void> {
    if ('delivered' in outcome) {
      await this.db.query(`DELETE FROM cki_interrupt_events WHERE event_pk = $1 AND claimed_by = $2`, [eventPk, owner]);
      return;
    }
    const retry = 'retryInMs' in outcome;
    await this.db.query(
      `UPDATE cki_interrupt_events
          SET claimed_by = NULL, claimed_until = NULL, last_error = $3,
              next_attempt_at = CASE WHEN $4::boolean THEN ${DB_NOW} + $5 ELSE next_attempt_at END,
              failed_at = CASE WHEN $4::boolean THEN NULL ELSE ${DB_NOW} END
        WHERE event_pk = $1 AND claimed_by = $2`,
      [eventPk, owner, retry ? outcome.error : outcome.gaveUp, retry, retry ? outcome.retryInMs : 0],
    );
  }

  /** Gives back claims of an instance that stops: those events are due again at once, for whoever runs next. */
  async releaseEvents(owner: string, eventPks: readonly unknown[]): Promise<void> {
    if (eventPks.length === 0) return;
    await this.db.query(
      `UPDATE cki_interrupt_events SET claimed_by = NULL, claimed_until = NULL, next_attempt_at = ${DB_NOW}
        WHERE claimed_by = $1 AND event_pk = ANY($2::bigint[])`,
      [owner, eventPks.map(Number)],
    );
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
