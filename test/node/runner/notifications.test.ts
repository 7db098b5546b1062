import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded, openPostgres, type Database } from '../../../src/runner/database';
import {
  CHANGE_CHANNEL,
  InProcessChangeFeed,
  PostgresChangeFeed,
  type ChangeLog,
  type ThreadChange,
} from '../../../src/runner/notifications';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres';

// The feeds are read against a small change log of their own (a table of threads, each with the
// change number it is at); the runner's store implements the same three reads over its own rows.
const SCHEMA = [
  `CREATE SEQUENCE IF NOT EXISTS t_change_seq`,
  `CREATE TABLE IF NOT EXISTS t_threads (thread text PRIMARY KEY, seq bigint NOT NULL)`,
];

const changeLog = (db: Database): ChangeLog => ({
  async threadSeq(threadId) {
    const [row] = await db.query<{ seq: unknown }>(`SELECT seq FROM t_threads WHERE thread = $1`, [threadId]);
    return row ? Number(row.seq) : undefined;
  },
  async latestSeq() {
    const [row] = await db.query<{ seq: unknown }>(`SELECT coalesce(max(seq), 0) AS seq FROM t_threads`);
    return Number(row!.seq);
  },
  async changesAfter(after) {
    const rows = await db.query<{ thread: string; seq: unknown }>(`SELECT thread, seq FROM t_threads WHERE seq > $1`, [after]);
    return rows.map((row) => ({ threadId: row.thread, seq: Number(row.seq) }));
  },
});

/** One committed change of a thread, announced (on PostgreSQL) inside its transaction. */
async function change(db: Database, feed: { notifyIn: PostgresChangeFeed['notifyIn'] }, threadId: string): Promise<ThreadChange> {
  return db.transaction(async (sql) => {
    const [row] = await sql.query<{ seq: unknown }>(
      `INSERT INTO t_threads (thread, seq) VALUES ($1, nextval('t_change_seq'))
       ON CONFLICT (thread) DO UPDATE SET seq = nextval('t_change_seq') RETURNING seq`,
      [threadId],
    );
    const made = { threadId, seq: Number(row!.seq) };
    await feed.notifyIn(sql, made);
    return made;
  });
}

/** Everything a feed told its listener, and a wait for a condition on it. */
function record(feed: { subscribeChanges(listener: (change: ThreadChange) => void): () => void }) {
  const heard: ThreadChange[] = [];
  feed.subscribeChanges((change) => heard.push(change));
  return {
    heard,
    /** The last number heard per thread. */
    last: () => Object.fromEntries(heard.map((change) => [change.threadId, change.seq])),
    until: (check: () => boolean) => expect.poll(check, { timeout: 15_000, interval: 20 }).toBe(true),
  };
}

describe('PostgresChangeFeed on a real PostgreSQL cluster', () => {
  let cluster: PostgresCluster;
  let url: string;
  let db: Database;

  beforeAll(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase('notifications');
    db = await openPostgres(url, 4);
    for (const statement of SCHEMA) await db.query(statement);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
  });

  it('given two instances listening, a change committed by one should reach both once with its number, and a rolled-back one neither', async () => {
    const a = new PostgresChangeFeed(changeLog(db), url);
    const b = new PostgresChangeFeed(changeLog(db), url);
    await Promise.all([a.start(), b.start()]);
    try {
      const heardA = record(a);
      const heardB = record(b);
      await expect(
        db.transaction(async (sql) => {
          await a.notifyIn(sql, { threadId: 'rolled-back', seq: 1 });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const first = await change(db, a, 'thread-1');
      const second = await change(db, b, 'thread-1');
      const other = await change(db, a, 'thread-2');
      await heardA.until(() => heardA.last()['thread-1'] === second.seq && heardA.last()['thread-2'] === other.seq);
      await heardB.until(() => heardB.last()['thread-1'] === second.seq && heardB.last()['thread-2'] === other.seq);
      for (const heard of [heardA.heard, heardB.heard]) {
        expect(heard.filter((c) => c.threadId === 'thread-1').map((c) => c.seq)).toEqual([first.seq, second.seq]);
        expect(heard.some((c) => c.threadId === 'rolled-back')).toBe(false);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('given notifications for unknown threads, broken payloads and repeats, none should reach a listener and the next real change still should', async () => {
    const feed = new PostgresChangeFeed(changeLog(db), url);
    await feed.start();
    const heard = record(feed);
    const known = await change(db, feed, 'known');
    await heard.until(() => heard.last().known === known.seq);
    heard.heard.length = 0;
    const notify = (payload: string) => db.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, payload]);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.record({ thread: fc.string({ minLength: 1 }).map((s) => `ghost-${s}`), seq: fc.nat() }).map((body) => JSON.stringify(body)),
            fc.record({ thread: fc.constant('known'), seq: fc.integer({ min: 0, max: known.seq }) }).map((body) => JSON.stringify(body)),
            fc.json(),
            fc.string(),
          ),
          async (payload) => {
            await notify(payload);
          },
        ),
        { numRuns: 60 },
      );
      const next = await change(db, feed, 'known');
      await heard.until(() => heard.last().known === next.seq);
      expect(heard.heard).toEqual([{ threadId: 'known', seq: next.seq }]);
    } finally {
      await feed.close();
    }
  });

  it('given its connection killed on the server, the instance should reconnect, listen again and catch up every change made meanwhile from the numbers', async () => {
    const states: string[] = [];
    const feed = new PostgresChangeFeed(changeLog(db), url, { minBackoffMs: 400, onState: (state) => states.push(state) });
    await feed.start();
    const heard = record(feed);
    try {
      const before = await change(db, feed, 'steady');
      await heard.until(() => heard.last().steady === before.seq);
      // Every listening backend of this database is ended, as a failover or an idle-killer would.
      await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`);
      await expect.poll(() => states.includes('lost'), { timeout: 5_000, interval: 10 }).toBe(true);
      expect(feed.listening).toBe(false);
      // Written while nobody listens: only the catch-up from the rows can tell of these.
      const missed = [await change(db, feed, 'steady'), await change(db, feed, 'away-1'), await change(db, feed, 'away-2')];
      await heard.until(() => feed.listening && missed.every((made) => heard.last()[made.threadId] === made.seq));
      const after = await change(db, feed, 'steady');
      await heard.until(() => heard.last().steady === after.seq);
      // Each number once, in order, for every thread.
      for (const threadId of ['steady', 'away-1', 'away-2']) {
        const seqs = heard.heard.filter((c) => c.threadId === threadId).map((c) => c.seq);
        expect(seqs).toEqual([...new Set(seqs)].sort((x, y) => x - y));
      }
    } finally {
      await feed.close();
    }
  });

  it('given the server stopped and started again, the instance should reconnect with backoff and hear changes made after it', async () => {
    const states: string[] = [];
    const feed = new PostgresChangeFeed(changeLog(db), url, {
      minBackoffMs: 50,
      maxBackoffMs: 500,
      onState: (state) => states.push(state),
    });
    await feed.start();
    const heard = record(feed);
    const writer = new pg.Pool({ connectionString: url, max: 1 });
    writer.on('error', () => {});
    try {
      await cluster.halt();
      await expect.poll(() => states.includes('lost'), { timeout: 10_000, interval: 20 }).toBe(true);
      await cluster.resume();
      // The pool's connections died with the server; a fresh one writes.
      const writes = await openPostgres(url, 1);
      try {
        const made = await change(writes, feed, 'after-restart');
        await heard.until(() => heard.last()['after-restart'] === made.seq);
        expect(states.filter((state) => state === 'listening').length).toBeGreaterThanOrEqual(1);
      } finally {
        await writes.close();
      }
    } finally {
      await writer.end();
      await feed.close();
    }
  }, 60_000);
});

describe('InProcessChangeFeed on an embedded store (PGlite in a real folder)', () => {
  let dir: string;
  let db: Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cki-feed-'));
    db = await openEmbedded(dir);
    for (const statement of SCHEMA) await db.query(statement);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given two runners on one folder, a published change should reach both once; an unknown thread and a repeat should reach neither', async () => {
    const a = new InProcessChangeFeed(changeLog(db), db.location);
    const b = new InProcessChangeFeed(changeLog(db), db.location);
    const elsewhere = new InProcessChangeFeed(changeLog(db), `${db.location}-other`);
    await Promise.all([a.start(), b.start(), elsewhere.start()]);
    const heardA = record(a);
    const heardB = record(b);
    const heardElsewhere = record(elsewhere);
    try {
      const made = await change(db, a, 'thread-1');
      a.published(made);
      a.published(made);
      a.published({ threadId: 'ghost', seq: made.seq + 5 });
      const next = await change(db, b, 'thread-1');
      b.published(next);
      await heardA.until(() => heardA.last()['thread-1'] === next.seq);
      await heardB.until(() => heardB.last()['thread-1'] === next.seq);
      expect(heardA.heard).toEqual([made, next]);
      expect(heardB.heard).toEqual([made, next]);
      expect(heardElsewhere.heard).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close(), elsewhere.close()]);
    }
  });
});
