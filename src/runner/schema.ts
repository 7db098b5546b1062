import type { Database } from './database';

/** The schema this version of the runner reads and writes. */
export const SCHEMA_VERSION = 1;

/**
 * Ids and payloads are stored as JSON text (`JSON.stringify`): PostgreSQL text cannot hold NUL, and
 * JSON writes it (and any lone surrogate) as an escape, so every string round-trips unchanged.
 * Timestamps are milliseconds since the epoch.
 */
const CREATE = [
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
];

/**
 * Creates the schema on first use and checks its version. A database written by a newer version of
 * the runner is refused untouched. Two instances starting at once take turns (an advisory lock).
 */
export async function ensureSchema(db: Database): Promise<void> {
  await db.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock(7231962051)');
    const [meta] = await sql.query<{ n: unknown }>(`SELECT to_regclass('cki_meta') IS NOT NULL AS n`);
    if (meta?.n) {
      const [row] = await sql.query<{ value: string }>(`SELECT value FROM cki_meta WHERE key = 'schema_version'`);
      const found = row ? Number(row.value) : NaN;
      if (Number.isInteger(found) && found > SCHEMA_VERSION) {
        throw new Error(
          `copilotkit-interrupts runner: the thread store at ${db.location} has schema version ${found}, written by a newer copilotkit-interrupts; this version reads version ${SCHEMA_VERSION}. ` +
            'Upgrade copilotkit-interrupts, or point the runner at another database. Nothing was changed.',
        );
      }
      if (found === SCHEMA_VERSION) return;
      if (row) {
        throw new Error(
          `copilotkit-interrupts runner: the thread store at ${db.location} has an unreadable schema version (${JSON.stringify(row.value)}). Nothing was changed.`,
        );
      }
    }
    for (const statement of CREATE) await sql.query(statement);
    await sql.query(`INSERT INTO cki_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO NOTHING`, [
      String(SCHEMA_VERSION),
    ]);
  });
}
