import { randomUUID } from 'node:crypto';
import { compactEvents, EventType, type AbstractAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
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
import { DEFAULT_EMBEDDED_DIR, describe, isPostgresUrl, openEmbedded, openPostgres, redactUrl, type Database, type Sql } from './database';
import { ensureSchema } from './schema';
import { ResumeRefusal } from '../protocol/constants';

export interface InterruptRunnerOptions {
  /**
   * `postgres://user:password@host:5432/db`: threads in PostgreSQL (several runtime instances may
   * share it). Unset: an embedded PostgreSQL (PGlite) keeping its files in `dataDir`.
   */
  url?: string;
  /** The embedded store's folder. Default: `.copilotkit-interrupts` in the working directory. */
  dataDir?: string;
  /** How often a connect that joins a run held by another instance reads its new events (ms). Default 100. */
  pollIntervalMs?: number;
  /** A run whose instance has not written a heartbeat for this long is considered dead (ms). Default 30 000. */
  staleAfterMs?: number;
  /** PostgreSQL connections per instance. Default 10. */
  poolSize?: number;
}

/**
 * `changed`: answered, but the agent refused the answer because the request had changed since its
 * card was drawn (`interrupt_changed`); the request as it is now is a new open interrupt.
 */
export type InterruptStatus = 'open' | 'resolved' | 'cancelled' | 'changed';

/** One interrupt raised on a thread, as `listInterrupts` reads it. */
export interface InterruptRecord {
  threadId: string;
  interruptId: string;
  reason: string;
  /** ISO 8601. */
  raisedAt: string;
  /** The interrupt's own `expiresAt`, when it had one. */
  expiresAt: string | null;
  status: InterruptStatus;
  /** The resume payload that answered it (`null` while open or when cancelled without one). */
  response: unknown;
  /** ISO 8601, or `null` while open. */
  answeredAt: string | null;
  /** The interrupt's own `message` (what the agent asks), when it had one. */
  message: string | null;
  /**
   * The interrupt exactly as the run raised it (from the run's stored `RUN_FINISHED` event), or
   * `null` when that event can no longer be read.
   */
  interrupt: unknown;
}

export interface ListInterruptsQuery {
  threadId?: string;
  status?: InterruptStatus;
}

interface LocalRun {
  runPk: number;
  runId: string;
  agent: AbstractAgent;
  events: ReplaySubject<BaseEvent>;
  stopRequested: boolean;
  finished: Promise<void>;
}

type ResumeEntry = { interruptId?: unknown; status?: unknown; payload?: unknown };
type StoredRow = { run_pk: unknown; seq: unknown; payload: string };

const STATUSES: readonly InterruptStatus[] = ['open', 'resolved', 'cancelled', 'changed'];
const FINAL_RUN_STATUSES = ['finished', 'error', 'stopped'];
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
export class InterruptRunner extends AgentRunner {
  private readonly database: Promise<Database>;
  private readonly instanceId = randomUUID();
  private readonly local = new Map<string, LocalRun>();
  /** Claims on one thread from this instance, one after the other (see `claim`). */
  private readonly claims = new Map<string, Promise<unknown>>();
  private readonly pollIntervalMs: number;
  private readonly staleAfterMs: number;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private closing: Promise<void> | undefined;

  constructor(options: InterruptRunnerOptions = {}) {
    super();
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.staleAfterMs = options.staleAfterMs ?? 30_000;
    this.database = openStore(options);
    // Reported once here; every run and connect also reports it on its own stream.
    this.database.catch((error: unknown) => console.error(describe(error)));
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
    else void this.execute(request, events);
    return events.asObservable();
  }

  connect(request: AgentRunnerConnectRequest): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      const control = { closed: false };
      void this.replay(request.threadId, subscriber, control).catch((error: unknown) => {
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
    const run = this.local.get(threadId);
    if (run) {
      if ((runId !== undefined && run.runId !== runId) || run.stopRequested) return false;
      return this.abort(run);
    }
    if (threadIdProblem(threadId)) return false;
    // A run held by another instance: ask it through the thread row; its heartbeat carries it out.
    const db = await this.database;
    const rows = await db.query(
      `UPDATE cki_threads t SET stop_requested = true
         FROM cki_runs r
        WHERE t.thread_key = $1 AND r.run_pk = t.running_run_pk AND ($2::text IS NULL OR r.run_key = $2)
          AND t.heartbeat_at > $3 AND NOT t.stop_requested
        RETURNING t.thread_key`,
      [encode(threadId), runId === undefined ? null : encode(runId), Date.now() - this.staleAfterMs],
    );
    return rows.length > 0;
  }

  /** The interrupts raised on threads, oldest first, for audits and inboxes. */
  async listInterrupts(query: ListInterruptsQuery = {}): Promise<InterruptRecord[]> {
    const { threadId, status } = query;
    if (status !== undefined && !STATUSES.includes(status)) {
      throw new Error(`${PREFIX} listInterrupts: status must be one of ${STATUSES.join(', ')} (got ${JSON.stringify(status)}).`);
    }
    if (threadId !== undefined) {
      const problem = threadIdProblem(threadId);
      if (problem) throw new Error(problem);
    }
    const db = await this.database;
    const rows = await db.query<{
      thread_key: string;
      interrupt_key: string;
      reason: string;
      raised_at: unknown;
      expires_at: string | null;
      status: InterruptStatus;
      response: string | null;
      answered_at: unknown;
      raised_run_pk: unknown;
    }>(
      `SELECT thread_key, interrupt_key, reason, raised_at, expires_at, status, response, answered_at, raised_run_pk
         FROM cki_interrupts
        WHERE ($1::text IS NULL OR thread_key = $1) AND ($2::text IS NULL OR status = $2)
        ORDER BY raised_at, thread_key, interrupt_key`,
      [threadId === undefined ? null : encode(threadId), status ?? null],
    );
    const raised = await raisedInterrupts(
      db,
      rows.map((row) => row.raised_run_pk),
    );
    const records: InterruptRecord[] = rows.map((row) => {
      const read = (text: string | null, field: string): unknown => {
        if (text === null) return null;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new Error(
            `${PREFIX} the stored interrupt ${row.interrupt_key} of thread ${row.thread_key} has a ${field} that no longer parses as JSON.`,
          );
        }
      };
      const record = {
        threadId: read(row.thread_key, 'thread id') as string,
        interruptId: read(row.interrupt_key, 'id') as string,
        reason: read(row.reason, 'reason') as string,
        raisedAt: new Date(Number(row.raised_at)).toISOString(),
        expiresAt: read(row.expires_at, 'expiry') as string | null,
        status: row.status,
        response: read(row.response, 'response') ?? null,
        answeredAt: row.answered_at === null ? null : new Date(Number(row.answered_at)).toISOString(),
      };
      const interrupt = raised.get(Number(row.raised_run_pk))?.get(record.interruptId) ?? null;
      const message = isObject(interrupt) && typeof interrupt.message === 'string' ? interrupt.message : null;
      return { ...record, message, interrupt };
    });
    // Interrupts raised together (same thread, same moment) keep the order the run raised them in.
    const position = new Map<InterruptRecord, number>();
    records.forEach((record, index) => {
      const ids = raised.get(Number(rows[index]!.raised_run_pk));
      position.set(record, ids ? [...ids.keys()].indexOf(record.interruptId) : -1);
    });
    const together = (a: number, b: number) => rows[a]!.raised_at === rows[b]!.raised_at && rows[a]!.thread_key === rows[b]!.thread_key;
    for (let first = 0; first < records.length;) {
      let end = first + 1;
      while (end < records.length && together(first, end)) end++;
      if (end - first > 1) {
        records.splice(first, end - first, ...records.slice(first, end).sort((a, b) => position.get(a)! - position.get(b)!));
      }
      first = end;
    }
    return records;
  }

  /** Stops this instance's runs, waits until they are saved, and closes the store. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const runs = [...this.local.values()];
      for (const run of runs) this.abort(run);
      await Promise.all(runs.map((run) => run.finished));
      this.stopHeartbeat();
      const db = await this.database.catch(() => undefined);
      await db?.close();
    })();
    return this.closing;
  }

  // ---- running ----

  private async execute({ threadId, agent, input }: AgentRunnerRunRequest, events: ReplaySubject<BaseEvent>): Promise<void> {
    let db: Database;
    try {
      db = await this.database;
    } catch (error) {
      refuse(events, describe(error));
      return;
    }
    let release!: () => void;
    const finished = new Promise<void>((resolve) => (release = resolve));
    let run: LocalRun;
    try {
      run = await this.serialize(threadId, async () => {
        const runPk = await this.claim(db, threadId, agent, input);
        const claimed: LocalRun = { runPk, runId: input.runId, agent, events, stopRequested: false, finished };
        this.local.set(threadId, claimed);
        return claimed;
      });
    } catch (error) {
      if (error instanceof Refusal) refuse(events, error.message, { code: error.code, ...error.extra });
      else refuse(events, storeLost(db, 'before the run started', error));
      return;
    }
    this.startHeartbeat();
    try {
      const historic = await this.historicMessageIds(db, threadId, run.runPk);
      const writer = new EventWriter(db, run.runPk);
      const seen: BaseEvent[] = [];
      // The run's end (RUN_FINISHED, RUN_ERROR and anything after) is held back and sent only once
      // the run, with the interrupts it raised, is saved: a client never answers an interrupt the
      // store does not hold yet, and never hears "finished" of a run that was not kept.
      const held: BaseEvent[] = [];
      let storeError: unknown;
      writer.onFailure = (error) => {
        storeError ??= error;
        try {
          agent.abortRun();
        } catch {
          // the run is reported as lost either way
        }
      };
      let interruption: string | undefined;
      try {
        await agent.runAgent(input, {
          onEvent: ({ event }) => {
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
          },
        });
      } catch (error) {
        interruption = describe(error);
      }
      await writer.drain();
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
        await this.finish(db, threadId, run, tail, [...seen, ...tail.slice(held.length)], interruption);
      } catch (error) {
        lost('while saving the run; it was not saved', error);
        return;
      }
      for (const event of tail) events.next(event);
      events.complete();
    } catch (error) {
      events.next(runError(`${PREFIX} the run on thread ${quote(threadId)} failed: ${describe(error)}`));
      events.complete();
    } finally {
      if (this.local.get(threadId) === run) this.local.delete(threadId);
      if (this.local.size === 0) this.stopHeartbeat();
      release();
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
   * One transaction: takes the thread, closes the interrupts the resume answers (each only while it
   * is open on this thread), and records the run. Either all of it happens or the run is refused.
   */
  private claim(db: Database, threadId: string, agent: AbstractAgent, input: RunAgentInput): Promise<number> {
    const threadKey = encode(threadId);
    return db.transaction(async (sql) => {
      const now = Date.now();
      await sql.query(
        `INSERT INTO cki_threads (thread_key, agent_id, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT (thread_key) DO NOTHING`,
        [threadKey, agent.agentId ?? 'default', now],
      );
      const [thread] = await sql.query<{ running_run_pk: unknown; heartbeat_at: unknown; running_owner: string | null }>(
        `SELECT running_run_pk, heartbeat_at, running_owner FROM cki_threads WHERE thread_key = $1 FOR UPDATE`,
        [threadKey],
      );
      const answers = await this.answer(sql, threadId, input, now);
      const held = thread?.running_run_pk != null ? Number(thread.running_run_pk) : undefined;
      const busy =
        held !== undefined &&
        (thread!.running_owner === this.instanceId ? this.holds(held) : Number(thread!.heartbeat_at) > now - this.staleAfterMs);
      if (busy) throw new Refusal(`${PREFIX} Thread already running: ${quote(threadId)} has a run in progress.`);
      if (thread?.running_run_pk != null) {
        // The instance that held it stopped (crash, restart): its unfinished run is never replayed.
        await sql.query(`UPDATE cki_runs SET status = 'abandoned', finished_at = $2 WHERE run_pk = $1 AND status = 'running'`, [
          thread.running_run_pk,
          now,
        ]);
      }
      const [created] = await sql.query<{ run_pk: unknown }>(
        `INSERT INTO cki_runs (thread_key, run_key, agent_id, status, started_at) VALUES ($1, $2, $3, 'running', $4) RETURNING run_pk`,
        [threadKey, encode(input.runId), agent.agentId ?? 'default', now],
      );
      const runPk = Number(created!.run_pk);
      if (answers.length > 0) {
        await sql.query(`UPDATE cki_interrupts SET answered_run_pk = $1 WHERE thread_key = $2 AND interrupt_hash = ANY($3::text[])`, [
          runPk,
          threadKey,
          answers,
        ]);
      }
      await sql.query(
        `UPDATE cki_threads SET running_run_pk = $2, running_owner = $3, heartbeat_at = $4, updated_at = $4, stop_requested = false, agent_id = $5 WHERE thread_key = $1`,
        [threadKey, runPk, this.instanceId, now, agent.agentId ?? 'default'],
      );
      return runPk;
    });
  }

  /** Closes each interrupt the resume answers, or refuses the whole resume naming the id and why. */
  private async answer(sql: Sql, threadId: string, input: RunAgentInput, now: number): Promise<string[]> {
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
      const claimed = await sql.query(
        `UPDATE cki_interrupts SET status = $3, response = $4, answered_at = $5
          WHERE thread_key = $1 AND interrupt_hash = $2 AND status = 'open' RETURNING interrupt_hash`,
        [threadKey, hash, status, entry.payload === undefined ? null : encode(entry.payload), now],
      );
      if (claimed.length === 1) {
        hashes.push(hash);
        continue;
      }
      const [existing] = await sql.query<{ status: string; response: string | null }>(
        `SELECT status, response FROM cki_interrupts WHERE thread_key = $1 AND interrupt_hash = $2`,
        [threadKey, hash],
      );
      if (!existing) {
        throw new Refusal(
          `${PREFIX} interrupt ${quote(id)} is not open on thread ${quote(threadId)}: no such interrupt was raised there. The run was refused.`,
          ResumeRefusal.NotOpen,
        );
      }
      if (existing.status === 'changed') {
        // As the agent's own refusal does: the requests as they are now, for the card to show.
        const open = await sql.query<{ interrupt_key: string; raised_run_pk: unknown }>(
          `SELECT interrupt_key, raised_run_pk FROM cki_interrupts WHERE thread_key = $1 AND status = 'open' ORDER BY raised_at`,
          [threadKey],
        );
        const raised = await raisedInterrupts(
          sql,
          open.map((row) => row.raised_run_pk),
        );
        const interrupts = open.flatMap((row) => raised.get(Number(row.raised_run_pk))?.get(JSON.parse(row.interrupt_key) as string) ?? []);
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

  /** One transaction: the run's last events, its status, the interrupts it raised, the thread freed. */
  private finish(db: Database, threadId: string, run: LocalRun, unsaved: BaseEvent[], all: BaseEvent[], interruption: string | undefined) {
    const threadKey = encode(threadId);
    const last = all[all.length - 1];
    const status = run.stopRequested ? 'stopped' : interruption !== undefined || last?.type === EventType.RUN_ERROR ? 'error' : 'finished';
    const raise = raisedBy(all);
    return db.transaction(async (sql) => {
      const now = Date.now();
      await insertEvents(sql, run.runPk, unsaved, all.length - unsaved.length);
      await sql.query(`UPDATE cki_runs SET status = $2, finished_at = $3 WHERE run_pk = $1`, [run.runPk, status, now]);
      if (raise?.changed) {
        // The answers this run carried never applied: they were given to a request that has since
        // changed. The refusal carries the requests as they are now; those are the open ones.
        await sql.query(`UPDATE cki_interrupts SET status = 'changed' WHERE thread_key = $1 AND answered_run_pk = $2`, [
          threadKey,
          run.runPk,
        ]);
      }
      for (const interrupt of raise?.interrupts ?? []) {
        if (!isObject(interrupt) || typeof interrupt.id !== 'string') continue;
        await sql.query(
          `INSERT INTO cki_interrupts (thread_key, interrupt_hash, interrupt_key, reason, raised_at, expires_at, status, raised_run_pk)
           VALUES ($1, $2, $3, $4, $5, $6, 'open', $7)
           ON CONFLICT (thread_key, interrupt_hash) DO UPDATE SET
             reason = EXCLUDED.reason, raised_at = EXCLUDED.raised_at, expires_at = EXCLUDED.expires_at, status = 'open',
             response = NULL, answered_at = NULL, raised_run_pk = EXCLUDED.raised_run_pk, answered_run_pk = NULL`,
          [
            threadKey,
            interruptHash(interrupt.id),
            encode(interrupt.id),
            encode(typeof interrupt.reason === 'string' ? interrupt.reason : ''),
            now,
            typeof interrupt.expiresAt === 'string' ? encode(interrupt.expiresAt) : null,
            run.runPk,
          ],
        );
      }
      await sql.query(
        `UPDATE cki_threads SET running_run_pk = NULL, running_owner = NULL, heartbeat_at = NULL, stop_requested = false, updated_at = $3
          WHERE thread_key = $1 AND running_run_pk = $2`,
        [threadKey, run.runPk, now],
      );
    });
  }

  private async historicMessageIds(db: Database, threadId: string, runPk: number): Promise<Set<string>> {
    const ids = new Set<string>();
    const rows = await this.storedRows(db, threadId, runPk);
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

  // ---- replay and joining ----

  private async replay(threadId: string, subscriber: Subscriber<BaseEvent>, control: { closed: boolean }): Promise<void> {
    const problem = threadIdProblem(threadId);
    if (problem) {
      subscriber.next(runError(problem));
      subscriber.complete();
      return;
    }
    const db = await this.database;
    // Which run is live is read first, and that run is left out of the history: it is joined instead.
    const local = this.local.get(threadId);
    const remote = local ? undefined : await this.remoteRun(db, threadId);
    const liveRunPk = local?.runPk ?? remote?.runPk;
    const rows = await this.storedRows(db, threadId, liveRunPk);
    const history: BaseEvent[] = [];
    for (const row of rows) {
      try {
        history.push(JSON.parse(row.payload) as BaseEvent);
      } catch (error) {
        const message =
          `${PREFIX} thread ${quote(threadId)} cannot be replayed: its stored event #${Number(row.seq)} of run ${Number(row.run_pk)} no longer parses (${describe(error)}). ` +
          'Restore or delete that row (table cki_events); other threads are not affected.';
        console.error(message);
        if (!control.closed) {
          subscriber.next(runError(message));
          subscriber.complete();
        }
        return;
      }
    }
    if (control.closed) return;
    const emitted = new Set<string>();
    for (const event of compactEvents(history)) {
      subscriber.next(event);
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
          if (fresh(event)) subscriber.next(event);
        },
        complete: () => subscriber.complete(),
        error: (error: unknown) => subscriber.error(error),
      });
      subscriber.add(subscription);
      return;
    }
    if (remote) {
      await this.follow(db, remote.runPk, subscriber, control, fresh);
      return;
    }
    subscriber.complete();
  }

  /** Reads a run held by another instance as its events are written, until it ends. */
  private async follow(
    db: Database,
    runPk: number,
    subscriber: Subscriber<BaseEvent>,
    control: { closed: boolean },
    fresh: (event: BaseEvent) => boolean,
  ) {
    let seq = -1;
    while (!control.closed) {
      // The status is read before the events: a run is ended in the transaction that saves its last events.
      const [run] = await db.query<{ status: string; heartbeat_at: unknown; running_run_pk: unknown }>(
        `SELECT r.status, t.heartbeat_at, t.running_run_pk FROM cki_runs r JOIN cki_threads t ON t.thread_key = r.thread_key WHERE r.run_pk = $1`,
        [runPk],
      );
      const rows = await db.query<{ seq: unknown; payload: string }>(
        `SELECT seq, payload FROM cki_events WHERE run_pk = $1 AND seq > $2 ORDER BY seq`,
        [runPk, seq],
      );
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
        if (!control.closed && fresh(event)) subscriber.next(event);
      }
      if (!run || run.status !== 'running') break;
      const heldBy = Number(run.running_run_pk) === runPk && Number(run.heartbeat_at) > Date.now() - this.staleAfterMs;
      if (!heldBy) {
        subscriber.next(runError(`${PREFIX} the instance running this thread stopped answering; the run did not finish.`));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollIntervalMs));
    }
    if (!control.closed) subscriber.complete();
  }

  private async remoteRun(db: Database, threadId: string): Promise<{ runPk: number } | undefined> {
    const [row] = await db.query<{ running_run_pk: unknown; heartbeat_at: unknown; running_owner: string | null; stop_requested: boolean }>(
      `SELECT running_run_pk, heartbeat_at, running_owner, stop_requested FROM cki_threads WHERE thread_key = $1`,
      [encode(threadId)],
    );
    if (!row || row.running_run_pk == null || row.running_owner === this.instanceId) return undefined;
    if (Number(row.heartbeat_at) <= Date.now() - this.staleAfterMs) return undefined;
    return { runPk: Number(row.running_run_pk) };
  }

  /** The stored events of a thread's ended runs, in order (optionally leaving one run out). */
  private storedRows(db: Database, threadId: string, exceptRunPk: number | undefined): Promise<StoredRow[]> {
    return db.query<StoredRow>(
      `SELECT e.run_pk, e.seq, e.payload FROM cki_runs r JOIN cki_events e ON e.run_pk = r.run_pk
        WHERE r.thread_key = $1 AND r.status = ANY($2::text[]) AND r.run_pk <> $3
        ORDER BY r.run_pk, e.seq`,
      [encode(threadId), FINAL_RUN_STATUSES, exceptRunPk ?? -1],
    );
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
      const db = await this.database;
      const held = [...this.local.values()].map((run) => run.runPk);
      if (held.length === 0) return;
      const rows = await db.query<{ thread_key: string; stop_requested: boolean }>(
        `UPDATE cki_threads SET heartbeat_at = $1 WHERE running_owner = $2 AND running_run_pk = ANY($3::bigint[]) RETURNING thread_key, stop_requested`,
        [Date.now(), this.instanceId, held],
      );
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

/** Writes a run's events as they arrive, in order, batched while a write is in flight. */
class EventWriter {
  onFailure: (error: unknown) => void = () => {};
  private readonly pending: BaseEvent[] = [];
  private readonly written = new WeakSet<BaseEvent>();
  private next = 0;
  private flushing: Promise<void> | undefined;
  private failed = false;

  constructor(
    private readonly db: Database,
    private readonly runPk: number,
  ) {}

  push(event: BaseEvent) {
    if (this.failed) return;
    this.pending.push(event);
    this.flushing ??= this.flush();
  }

  has(event: BaseEvent) {
    return this.written.has(event);
  }

  async drain() {
    while (this.flushing) await this.flushing;
  }

  private async flush() {
    try {
      while (this.pending.length > 0 && !this.failed) {
        const batch = this.pending.splice(0, 200);
        await insertEvents(this.db, this.runPk, batch, this.next);
        this.next += batch.length;
        for (const event of batch) this.written.add(event);
      }
    } catch (error) {
      this.failed = true;
      this.onFailure(error);
    } finally {
      this.flushing = undefined;
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The interrupts each run raised, by run and id, read from the runs' stored `RUN_FINISHED` events
 * (one query for all the runs). A run whose event no longer parses is left out: its rows still list.
 */
async function raisedInterrupts(db: Sql, runPks: readonly unknown[]): Promise<Map<number, Map<string, unknown>>> {
  const byRun = new Map<number, Map<string, unknown>>();
  const wanted = [...new Set(runPks.filter((pk) => pk !== null && pk !== undefined).map(Number))];
  if (wanted.length === 0) return byRun;
  const rows = await db.query<{ run_pk: unknown; payload: string }>(
    `SELECT run_pk, payload FROM cki_events
      WHERE run_pk = ANY($1::bigint[]) AND (strpos(payload, '"RUN_FINISHED"') > 0 OR strpos(payload, '"RUN_ERROR"') > 0)
      ORDER BY run_pk, seq`,
    [wanted],
  );
  for (const row of rows) {
    let event: unknown;
    try {
      event = JSON.parse(row.payload);
    } catch {
      continue;
    }
    const raise = isObject(event) ? raisedBy([event]) : undefined;
    if (!raise) continue;
    // The last raise of a run is the one its rows were written from.
    const ids = new Map<string, unknown>();
    for (const interrupt of raise.interrupts) if (isObject(interrupt) && typeof interrupt.id === 'string') ids.set(interrupt.id, interrupt);
    byRun.set(Number(row.run_pk), ids);
  }
  return byRun;
}

/**
 * The interrupts a run leaves open: its last `RUN_FINISHED` outcome's, or, when the agent refused
 * its answers as given to a changed request, the requests as they are now that the refusal carries.
 */
function raisedBy(events: readonly unknown[]): { interrupts: unknown[]; changed: boolean } | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (!isObject(event)) continue;
    if (event.type === EventType.RUN_FINISHED) {
      const outcome = event.outcome;
      if (!isObject(outcome) || outcome.type !== 'interrupt' || !Array.isArray(outcome.interrupts)) return undefined;
      return { interrupts: outcome.interrupts, changed: false };
    }
    if (event.type === EventType.RUN_ERROR) {
      if (event.code !== ResumeRefusal.Changed) continue;
      return { interrupts: Array.isArray(event.interrupts) ? event.interrupts : [], changed: true };
    }
  }
  return undefined;
}

async function insertEvents(sql: Sql, runPk: number, events: readonly BaseEvent[], firstSeq: number) {
  for (let start = 0; start < events.length; start += 200) {
    const batch = events.slice(start, start + 200);
    const params: unknown[] = [runPk];
    const values = batch.map((event, index) => {
      params.push(firstSeq + start + index, encode(event));
      return `($1, $${params.length - 1}, $${params.length})`;
    });
    await sql.query(`INSERT INTO cki_events (run_pk, seq, payload) VALUES ${values.join(', ')}`, params);
  }
}

async function openStore(options: InterruptRunnerOptions): Promise<Database> {
  const { url } = options;
  if (url !== undefined && !isPostgresUrl(url)) {
    throw new Error(
      `${PREFIX} url must start with postgres:// or postgresql:// (got ${redactUrl(url)}); leave it unset for the embedded store.`,
    );
  }
  const db = url ? await openPostgres(url, options.poolSize ?? 10) : await openEmbedded(options.dataDir ?? DEFAULT_EMBEDDED_DIR);
  try {
    await ensureSchema(db);
  } catch (error) {
    await db.close().catch(() => {});
    if (error instanceof Error && error.message.startsWith(PREFIX)) throw error;
    throw new Error(`${PREFIX} cannot prepare the thread store at ${db.location}: ${describe(error)}`, { cause: error });
  }
  return db;
}

/** An id as messages show it: quoted, and abbreviated past 200 characters (it is stored whole). */
const quote = (id: string): string => JSON.stringify(id.length > 200 ? `${id.slice(0, 200)}…` : id);

const runError = (message: string, extra?: Record<string, unknown>): BaseEvent =>
  ({ type: EventType.RUN_ERROR, message, ...extra }) as BaseEvent;

function refuse(events: ReplaySubject<BaseEvent>, message: string, extra?: Record<string, unknown>) {
  events.next(runError(message, extra));
  events.complete();
}

function storeLost(db: Database, when: string, error: unknown): string {
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
