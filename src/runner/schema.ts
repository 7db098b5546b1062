import { EventType } from '@ag-ui/client';
import type { Database, Sql } from './database';
import { approverKeys, ASSIGNMENT_KEY, storedAssignment } from './approvers';
import { RunnerError } from './errors';
import { ResumeRefusal } from '../protocol/constants';
import { isRecord } from '../wire/guards';

/**
 * One step of the schema. Applied in order, each in the transaction that holds the advisory lock,
 * never edited once released: a database records the last version it reached and gets the rest.
 */
export interface Migration {
  version: number;
  /** What the step changes, for a reader of this list. */
  description: string;
  statements: readonly string[];
  /** Fills new columns of existing rows when SQL alone cannot (stored JSON that PostgreSQL's jsonb refuses, such as NUL). */
  backfill?: (sql: Sql) => Promise<void>;
}

/**
 * Ids and payloads are stored as JSON text (`JSON.stringify`): PostgreSQL text cannot hold NUL, and
 * JSON writes it (and any lone surrogate) as an escape, so every string round-trips unchanged.
 * Timestamps are milliseconds since the epoch.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'threads, runs, their events, one row per interrupt',
    statements: [
      `CREATE TABLE IF NOT EXISTS cki_meta (
         key text PRIMARY KEY,
         value text NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS cki_threads (
         thread_key text PRIMARY KEY,
         agent_id text,
         created_at double precision NOT NULL,
         updated_at double precision NOT NULL,
         running_run_pk bigint,
         running_owner text,
         heartbeat_at double precision,
         stop_requested boolean NOT NULL DEFAULT false)`,
      `CREATE TABLE IF NOT EXISTS cki_runs (
         run_pk bigserial PRIMARY KEY,
         thread_key text NOT NULL REFERENCES cki_threads(thread_key),
         run_key text NOT NULL,
         agent_id text,
         status text NOT NULL,
         started_at double precision NOT NULL,
         finished_at double precision)`,
      `CREATE INDEX IF NOT EXISTS cki_runs_thread ON cki_runs (thread_key, run_pk)`,
      `CREATE TABLE IF NOT EXISTS cki_events (
         run_pk bigint NOT NULL REFERENCES cki_runs(run_pk),
         seq integer NOT NULL,
         payload text NOT NULL,
         PRIMARY KEY (run_pk, seq))`,
      `CREATE TABLE IF NOT EXISTS cki_interrupts (
         thread_key text NOT NULL REFERENCES cki_threads(thread_key),
         interrupt_hash text NOT NULL,
         interrupt_key text NOT NULL,
         reason text NOT NULL,
         raised_at double precision NOT NULL,
         expires_at text,
         status text NOT NULL,
         response text,
         answered_at double precision,
         raised_run_pk bigint,
         answered_run_pk bigint,
         PRIMARY KEY (thread_key, interrupt_hash))`,
      `CREATE INDEX IF NOT EXISTS cki_interrupts_status ON cki_interrupts (status, raised_at)`,
    ],
  },
  {
    version: 2,
    description: 'interrupt rows hold the agent, the interrupt as raised and its place in its set; listing pages by an index',
    statements: [
      `ALTER TABLE cki_interrupts ADD COLUMN agent_id text`,
      `ALTER TABLE cki_interrupts ADD COLUMN interrupt text`,
      `ALTER TABLE cki_interrupts ADD COLUMN position integer NOT NULL DEFAULT 0`,
      `UPDATE cki_interrupts i SET agent_id = r.agent_id FROM cki_runs r WHERE r.run_pk = i.raised_run_pk`,
      `UPDATE cki_interrupts i SET agent_id = t.agent_id FROM cki_threads t WHERE t.thread_key = i.thread_key AND i.agent_id IS NULL`,
      `UPDATE cki_interrupts SET agent_id = 'default' WHERE agent_id IS NULL`,
      `ALTER TABLE cki_interrupts ALTER COLUMN agent_id SET NOT NULL`,
      `DROP INDEX IF EXISTS cki_interrupts_status`,
      `CREATE INDEX cki_interrupts_listing ON cki_interrupts (status, agent_id, raised_at, thread_key, position, interrupt_hash)`,
      `CREATE INDEX cki_interrupts_order ON cki_interrupts (raised_at, thread_key, position, interrupt_hash)`,
      `CREATE INDEX cki_threads_updated ON cki_threads (updated_at DESC, thread_key)`,
    ],
    backfill: backfillRaisedInterrupts,
  },
  {
    version: 3,
    description:
      'live threads: a change number per thread, drawn from one sequence (notifications say it, a catch-up reads every thread above one), and why a cancelled interrupt was closed (expired)',
    statements: [
      `CREATE SEQUENCE cki_change_seq`,
      `ALTER TABLE cki_threads ADD COLUMN change_seq bigint NOT NULL DEFAULT 0`,
      `CREATE INDEX cki_threads_change ON cki_threads (change_seq)`,
      `ALTER TABLE cki_interrupts ADD COLUMN closed_reason text`,
    ],
  },
  {
    version: 4,
    description:
      'people: a thread has an owner, an interrupt row carries its thread owner and who answered it; listing by either pages by an index',
    statements: [
      `ALTER TABLE cki_threads ADD COLUMN owner_id text`,
      `ALTER TABLE cki_threads ADD COLUMN owner_name text`,
      `ALTER TABLE cki_interrupts ADD COLUMN owner_id text`,
      `ALTER TABLE cki_interrupts ADD COLUMN answered_by_id text`,
      `ALTER TABLE cki_interrupts ADD COLUMN answered_by_name text`,
      `CREATE INDEX cki_interrupts_owner ON cki_interrupts (owner_id, raised_at, thread_key, position, interrupt_hash)`,
      `CREATE INDEX cki_interrupts_answered_by ON cki_interrupts (answered_by_id, raised_at, thread_key, position, interrupt_hash)`,
      `CREATE INDEX cki_threads_owner ON cki_threads (owner_id, updated_at DESC, thread_key)`,
    ],
  },
  {
    version: 5,
    description:
      'interrupt events: an outbox row per raise, answer, cancel, expiry or change, written with the change, holding the interrupt row as it was; delivery claims, retries and gives up per row',
    statements: [
      `CREATE TABLE cki_interrupt_events (
         event_pk bigserial PRIMARY KEY,
         event_key text NOT NULL UNIQUE,
         event_type text NOT NULL,
         created_at double precision NOT NULL,
         thread_owner_name text,
         thread_key text NOT NULL,
         interrupt_key text NOT NULL,
         interrupt_hash text NOT NULL,
         agent_id text NOT NULL,
         reason text NOT NULL,
         raised_at double precision NOT NULL,
         expires_at text,
         status text NOT NULL,
         response text,
         answered_at double precision,
         interrupt text,
         position integer NOT NULL,
         closed_reason text,
         owner_id text,
         answered_by_id text,
         answered_by_name text,
         attempts integer NOT NULL DEFAULT 0,
         next_attempt_at double precision NOT NULL DEFAULT 0,
         claimed_by text,
         claimed_until double precision,
         last_error text,
         failed_at double precision)`,
      `CREATE INDEX cki_interrupt_events_due ON cki_interrupt_events (event_pk) WHERE failed_at IS NULL`,
      `CREATE INDEX cki_interrupt_events_thread ON cki_interrupt_events (thread_key, event_pk) WHERE failed_at IS NULL`,
    ],
  },
  {
    version: 6,
    description:
      "assigned interrupts: a row carries its approvers' ids and roles and the requester four eyes rules out, so an inbox lists what waits for a person by an index",
    statements: [
      `ALTER TABLE cki_interrupts ADD COLUMN approver_ids text[]`,
      `ALTER TABLE cki_interrupts ADD COLUMN approver_roles text[]`,
      `ALTER TABLE cki_interrupts ADD COLUMN four_eyes_id text`,
      `CREATE INDEX cki_interrupts_approver_ids ON cki_interrupts USING gin (approver_ids)`,
      `CREATE INDEX cki_interrupts_approver_roles ON cki_interrupts USING gin (approver_roles)`,
    ],
    backfill: backfillApprovers,
  },
];

/** The schema this version of the runner reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/**
 * Version 1 rows did not hold the interrupt: it is read once from each raising run's last
 * RUN_FINISHED (or the refusal of a changed request) and kept on the row with its place in the set.
 * A run whose event no longer parses leaves its rows without it (they still list).
 */
async function backfillRaisedInterrupts(sql: Sql): Promise<void> {
  const rows = await sql.query<{ run_pk: unknown; payload: string }>(
    `SELECT e.run_pk, e.payload FROM cki_events e
      WHERE e.run_pk IN (SELECT DISTINCT raised_run_pk FROM cki_interrupts WHERE raised_run_pk IS NOT NULL)
      ORDER BY e.run_pk, e.seq`,
  );
  const byRun = new Map<number, unknown[]>();
  for (const row of rows) {
    let event: unknown;
    try {
      event = JSON.parse(row.payload);
    } catch {
      continue;
    }
    const raised = raisedInterruptsOf(event);
    if (raised) byRun.set(Number(row.run_pk), raised);
  }
  const keys = await sql.query<{ thread_key: string; interrupt_key: string; raised_run_pk: unknown }>(
    `SELECT thread_key, interrupt_key, raised_run_pk FROM cki_interrupts WHERE raised_run_pk IS NOT NULL`,
  );
  for (const row of keys) {
    const raised = byRun.get(Number(row.raised_run_pk));
    if (!raised) continue;
    const id = JSON.parse(row.interrupt_key) as string;
    const position = raised.findIndex((interrupt) => isRecord(interrupt) && interrupt.id === id);
    if (position < 0) continue;
    await sql.query(`UPDATE cki_interrupts SET interrupt = $3, position = $4 WHERE thread_key = $1 AND interrupt_key = $2`, [
      row.thread_key,
      row.interrupt_key,
      JSON.stringify(raised[position]),
      position,
    ]);
  }
}

/**
 * Version 5 rows kept an interrupt's approvers only inside its interrupt JSON (which jsonb may
 * refuse: NUL): they are read here, as the runner reads them, into the version 6 columns.
 */
async function backfillApprovers(sql: Sql): Promise<void> {
  const rows = await sql.query<{ thread_key: string; interrupt_hash: string; interrupt: string }>(
    `SELECT thread_key, interrupt_hash, interrupt FROM cki_interrupts WHERE strpos(interrupt, $1) > 0`,
    [JSON.stringify(ASSIGNMENT_KEY)],
  );
  for (const row of rows) {
    const keys = approverKeys(storedAssignment(row.interrupt).assignment);
    if (!keys) continue;
    await sql.query(
      `UPDATE cki_interrupts SET approver_ids = $3::text[], approver_roles = $4::text[], four_eyes_id = $5 WHERE thread_key = $1 AND interrupt_hash = $2`,
      [row.thread_key, row.interrupt_hash, keys.ids, keys.roles, keys.fourEyes],
    );
  }
}

/** The interrupts one stored event raises: a RUN_FINISHED's interrupt outcome, or a changed request's refusal. */
function raisedInterruptsOf(event: unknown): unknown[] | undefined {
  if (!isRecord(event)) return undefined;
  if (event.type === EventType.RUN_FINISHED) {
    const outcome = event.outcome;
    return isRecord(outcome) && outcome.type === 'interrupt' && Array.isArray(outcome.interrupts) ? outcome.interrupts : undefined;
  }
  if (event.type === EventType.RUN_ERROR && event.code === ResumeRefusal.Changed) {
    return Array.isArray(event.interrupts) ? event.interrupts : [];
  }
  return undefined;
}

/**
 * Creates the schema on first use, upgrades an older one in place, and refuses (untouched) a
 * database written by a newer version. Two instances starting at once take turns (an advisory lock).
 */
export async function ensureSchema(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  const latest = migrations[migrations.length - 1]!.version;
  await db.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock(7231962051)');
    let found = 0;
    const [meta] = await sql.query<{ n: unknown }>(`SELECT to_regclass('cki_meta') IS NOT NULL AS n`);
    if (meta?.n) {
      const [row] = await sql.query<{ value: string }>(`SELECT value FROM cki_meta WHERE key = 'schema_version'`);
      const version = row ? Number(row.value) : NaN;
      if (row && !(Number.isInteger(version) && version >= 1)) {
        throw new RunnerError(
          'schema_unreadable',
          `copilotkit-interrupts runner: the thread store at ${db.location} has an unreadable schema version (${JSON.stringify(row.value)}). Nothing was changed.`,
        );
      }
      if (version > latest) {
        throw new RunnerError(
          'schema_newer',
          `copilotkit-interrupts runner: the thread store at ${db.location} has schema version ${version}, written by a newer copilotkit-interrupts; this version reads version ${latest}. ` +
            'Upgrade copilotkit-interrupts, or point the runner at another database. Nothing was changed.',
        );
      }
      if (row) found = version;
    }
    if (found === latest) return;
    for (const migration of migrations) {
      if (migration.version <= found) continue;
      for (const statement of migration.statements) await sql.query(statement);
      await migration.backfill?.(sql);
    }
    await sql.query(
      `INSERT INTO cki_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [String(latest)],
    );
  });
}
