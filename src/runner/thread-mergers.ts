/**
 * The thread store's hot statements, each written once for many threads (one row per caller, sent
 * as arrays and read back with `unnest`): what a group commit (group-commit.ts) sends for all the
 * callers of a batch at once, and what a transaction of one thread sends for itself. Every value is
 * a parameter; the texts never change with the number of rows, so each is prepared once.
 */
import type { Merger } from './group-commit';
import type { Sql } from './database';
import { CHANGE_CHANNEL } from './notifications';
import type { RaisedInterrupt, RunStatus, ThreadLockRow } from './thread-store';

export interface TakeThreadArgs {
  threadKey: string;
  agentId: string;
  now: number;
  ownerId: string | null;
  ownerName: string | null;
}
export interface AnswerArgs {
  threadKey: string;
  hash: string;
  status: 'resolved' | 'cancelled';
  response: string | null;
  now: number;
  byId: string | null;
  byName: string | null;
  closedReason: 'expired' | null;
}
export interface StartRunArgs {
  threadKey: string;
  runKey: string;
  agentId: string;
  now: number;
  owner: string;
  answered: readonly string[];
}
export interface LockAndAppendArgs {
  threadKey: string;
  runPk: number;
  payloads: readonly string[];
  firstSeq: number;
}
export interface RaiseArgs {
  threadKey: string;
  agentId: string;
  runPk: number;
  raised: readonly RaisedInterrupt[];
  now: number;
}
export interface EndRunArgs {
  threadKey: string;
  runPk: number;
  status: RunStatus;
  now: number;
}

/** A bumped thread's row: its key and its new change number. */
type Bumped = { thread_key: string; change_seq: unknown };

/** Each caller's row by its thread key (one caller per thread in a batch); undefined for a thread with no row. */
function byThread<A extends { threadKey: string }, R extends { thread_key: string }>(args: readonly A[], rows: readonly R[]) {
  const found = new Map(rows.map((row) => [row.thread_key, row]));
  return args.map((arg) => found.get(arg.threadKey));
}

/**
 * The column list that announces each bumped thread on PostgreSQL (`{ thread, seq }` on the change
 * channel, delivered only if the transaction commits), from `alias`'s thread_key and change_seq.
 */
const announce = (notify: boolean, param: string, alias = '') =>
  notify ? `, pg_notify(${param}, '{"thread":' || ${alias}thread_key || ',"seq":' || ${alias}change_seq || '}')` : '';

/** Creates each thread on its first run (owned by whoever started it) and locks its row, in key order. */
const takeThread: Merger<Sql> = async (sql, list) => {
  const args = list as readonly TakeThreadArgs[];
  const rows = await sql.query<ThreadLockRow & { thread_key: string; created: boolean }>(
    `INSERT INTO cki_threads (thread_key, agent_id, created_at, updated_at, owner_id, owner_name)
     SELECT k, a, n, n, o, o_name FROM unnest($1::text[], $2::text[], $3::float8[], $4::text[], $5::text[]) AS u(k, a, n, o, o_name) ORDER BY k
     ON CONFLICT (thread_key) DO UPDATE SET stop_requested = cki_threads.stop_requested
     RETURNING thread_key, running_run_pk, heartbeat_at, running_owner, stop_requested, owner_id, change_seq, (xmax = 0) AS created`,
    [
      args.map((a) => a.threadKey),
      args.map((a) => a.agentId),
      args.map((a) => a.now),
      args.map((a) => a.ownerId),
      args.map((a) => a.ownerName),
    ],
  );
  return byThread(args, rows);
};

/** Closes each open interrupt with its answer; per caller, the interrupt as raised, or undefined when it was not open. */
const answer: Merger<Sql> = async (sql, list) => {
  const args = list as readonly AnswerArgs[];
  const rows = await sql.query<{ n: unknown; interrupt: string | null }>(
    `UPDATE cki_interrupts i SET status = u.status, response = u.response, answered_at = u.at, answered_by_id = u.by_id,
            answered_by_name = u.by_name, closed_reason = u.reason
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::text[], $7::text[], $8::text[])
            WITH ORDINALITY AS u(thread_key, hash, status, response, at, by_id, by_name, reason, n)
      WHERE i.thread_key = u.thread_key AND i.interrupt_hash = u.hash AND i.status = 'open'
      RETURNING u.n, i.interrupt`,
    [
      args.map((a) => a.threadKey),
      args.map((a) => a.hash),
      args.map((a) => a.status),
      args.map((a) => a.response),
      args.map((a) => a.now),
      args.map((a) => a.byId),
      args.map((a) => a.byName),
      args.map((a) => a.closedReason),
    ],
  );
  const found = new Map(rows.map((row) => [Number(row.n), { interrupt: row.interrupt }]));
  return args.map((_, index) => found.get(index + 1));
};

/** Records each run and hands it its thread, marking the interrupts it answers; the thread's next change number. */
const startRun =
  (notify: boolean): Merger<Sql> =>
  async (sql, list) => {
    const args = list as readonly StartRunArgs[];
    const answered = args.flatMap((a) => a.answered.map((hash) => [a.threadKey, hash] as const));
    const rows = await sql.query<{ thread_key: string; run_pk: unknown; change_seq: unknown }>(
      `WITH u AS (SELECT thread_key, run_key, agent_id, at, owner
                    FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::text[]) AS u(thread_key, run_key, agent_id, at, owner)),
            run AS (INSERT INTO cki_runs (thread_key, run_key, agent_id, status, started_at)
                    SELECT thread_key, run_key, agent_id, 'running', at FROM u ORDER BY thread_key RETURNING run_pk, thread_key),
            marked AS (UPDATE cki_interrupts i SET answered_run_pk = run.run_pk
                         FROM run, unnest($6::text[], $7::text[]) AS a(thread_key, hash)
                        WHERE a.thread_key = run.thread_key AND i.thread_key = a.thread_key AND i.interrupt_hash = a.hash),
            bumped AS (UPDATE cki_threads t SET running_run_pk = run.run_pk, running_owner = u.owner, heartbeat_at = u.at, updated_at = u.at,
                              stop_requested = false, agent_id = u.agent_id, change_seq = nextval('cki_change_seq')
                         FROM run JOIN u ON u.thread_key = run.thread_key WHERE t.thread_key = run.thread_key
                       RETURNING t.thread_key, t.change_seq)
       SELECT run.thread_key, run.run_pk, b.change_seq${notify ? `, CASE WHEN b.thread_key IS NOT NULL THEN pg_notify($8, '{"thread":' || b.thread_key || ',"seq":' || b.change_seq || '}') END` : ''}
         FROM run LEFT JOIN bumped b ON b.thread_key = run.thread_key`,
      [
        args.map((a) => a.threadKey),
        args.map((a) => a.runKey),
        args.map((a) => a.agentId),
        args.map((a) => a.now),
        args.map((a) => a.owner),
        answered.map(([key]) => key),
        answered.map(([, hash]) => hash),
        ...(notify ? [CHANGE_CHANNEL] : []),
      ],
    );
    return byThread(args, rows);
  };

/** Locks each thread's row (in key order) and writes run events with it; the thread's change number. */
const lockAndAppend: Merger<Sql> = async (sql, list) => {
  const args = list as readonly LockAndAppendArgs[];
  const events = args.flatMap((a) => a.payloads.map((payload, index) => [a.runPk, a.firstSeq + index, payload] as const));
  const rows = await sql.query<Bumped>(
    `WITH locked AS (SELECT thread_key, change_seq FROM cki_threads WHERE thread_key = ANY($1::text[]) ORDER BY thread_key FOR UPDATE),
          inserted AS (INSERT INTO cki_events (run_pk, seq, payload)
                       SELECT run_pk, seq, payload FROM unnest($2::bigint[], $3::int[], $4::text[]) AS e(run_pk, seq, payload))
     SELECT thread_key, change_seq FROM locked`,
    [args.map((a) => a.threadKey), events.map(([runPk]) => runPk), events.map(([, seq]) => seq), events.map(([, , payload]) => payload)],
  );
  return byThread(args, rows);
};

/** Writes the interrupts each run raised as open rows (an id raised again opens its row again). */
const raise: Merger<Sql> = async (sql, list) => {
  const args = list as readonly RaiseArgs[];
  const rows = args.flatMap((a) => a.raised.map((row) => ({ ...row, a })));
  const column = <T>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
  const listOf = (values: readonly string[] | undefined) => (values ? JSON.stringify(values) : null);
  // Each row carries its thread's owner (which never changes), so listing by owner needs no join.
  await sql.query(
    `INSERT INTO cki_interrupts (thread_key, interrupt_hash, interrupt_key, reason, raised_at, expires_at, status, raised_run_pk, agent_id, interrupt,
                                position, owner_id, approver_ids, approver_roles, four_eyes_id)
     SELECT u.thread_key, u.hash, u.key, u.reason, u.at, u.expires_at, 'open', u.run_pk, u.agent_id, u.interrupt, u.position, t.owner_id,
            CASE WHEN u.ids IS NULL THEN NULL ELSE ARRAY(SELECT json_array_elements_text(u.ids::json)) END,
            CASE WHEN u.roles IS NULL THEN NULL ELSE ARRAY(SELECT json_array_elements_text(u.roles::json)) END, u.four_eyes
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::int[],
                   $11::text[], $12::text[], $13::text[])
            AS u(thread_key, hash, key, reason, at, expires_at, run_pk, agent_id, interrupt, position, ids, roles, four_eyes)
       LEFT JOIN cki_threads t ON t.thread_key = u.thread_key
      ORDER BY u.thread_key, u.hash
     ON CONFLICT (thread_key, interrupt_hash) DO UPDATE SET
       reason = EXCLUDED.reason, raised_at = EXCLUDED.raised_at, expires_at = EXCLUDED.expires_at, status = 'open',
       response = NULL, answered_at = NULL, raised_run_pk = EXCLUDED.raised_run_pk, answered_run_pk = NULL, closed_reason = NULL,
       agent_id = EXCLUDED.agent_id, interrupt = EXCLUDED.interrupt, position = EXCLUDED.position,
       owner_id = EXCLUDED.owner_id, answered_by_id = NULL, answered_by_name = NULL,
       approver_ids = EXCLUDED.approver_ids, approver_roles = EXCLUDED.approver_roles, four_eyes_id = EXCLUDED.four_eyes_id`,
    [
      column((r) => r.a.threadKey),
      column((r) => r.hash),
      column((r) => r.key),
      column((r) => r.reason),
      column((r) => r.a.now),
      column((r) => r.expiresAt),
      column((r) => r.a.runPk),
      column((r) => r.a.agentId),
      column((r) => r.interrupt),
      column((r) => r.position),
      column((r) => listOf(r.approvers?.ids)),
      column((r) => listOf(r.approvers?.roles)),
      column((r) => r.approvers?.fourEyes ?? null),
    ],
  );
  return args.map(() => undefined);
};

/** Ends each run with its status, frees its thread if the run still holds it; the thread's next change number. */
const endRun =
  (notify: boolean): Merger<Sql> =>
  async (sql, list) => {
    const args = list as readonly EndRunArgs[];
    const held = `t.running_run_pk = u.run_pk`;
    const rows = await sql.query<Bumped>(
      `WITH u AS (SELECT thread_key, run_pk, status, at FROM unnest($1::text[], $2::bigint[], $3::text[], $4::float8[]) AS u(thread_key, run_pk, status, at)),
            ended AS (UPDATE cki_runs r SET status = u.status, finished_at = u.at FROM u WHERE r.run_pk = u.run_pk),
            bumped AS (UPDATE cki_threads t SET
                 running_owner = CASE WHEN ${held} THEN NULL ELSE t.running_owner END,
                 heartbeat_at = CASE WHEN ${held} THEN NULL ELSE t.heartbeat_at END,
                 stop_requested = CASE WHEN ${held} THEN false ELSE t.stop_requested END,
                 updated_at = CASE WHEN ${held} THEN u.at ELSE t.updated_at END,
                 running_run_pk = CASE WHEN ${held} THEN NULL ELSE t.running_run_pk END,
                 change_seq = nextval('cki_change_seq')
               FROM u WHERE t.thread_key = u.thread_key RETURNING t.thread_key, t.change_seq)
       SELECT thread_key, change_seq${announce(notify, '$5')} FROM bumped`,
      [
        args.map((a) => a.threadKey),
        args.map((a) => a.runPk),
        args.map((a) => a.status),
        args.map((a) => a.now),
        ...(notify ? [CHANGE_CHANNEL] : []),
      ],
    );
    return byThread(args, rows);
  };

/** Gives each thread its next change number (announced on PostgreSQL). */
const bump =
  (notify: boolean): Merger<Sql> =>
  async (sql, list) => {
    const args = list as ReadonlyArray<{ threadKey: string }>;
    const rows = await sql.query<Bumped>(
      `WITH bumped AS (UPDATE cki_threads t SET change_seq = nextval('cki_change_seq') FROM unnest($1::text[]) AS u(thread_key)
                        WHERE t.thread_key = u.thread_key RETURNING t.thread_key, t.change_seq)
       SELECT thread_key, change_seq${announce(notify, '$2')} FROM bumped`,
      [args.map((a) => a.threadKey), ...(notify ? [CHANGE_CHANNEL] : [])],
    );
    return byThread(args, rows);
  };

/** The mergers of a store: `notify` on PostgreSQL, where each change is announced in its transaction. */
export function threadMergers(notify: boolean): Readonly<Record<string, Merger<Sql>>> {
  return { takeThread, answer, startRun: startRun(notify), lockAndAppend, raise, endRun: endRun(notify), bump: bump(notify) };
}
