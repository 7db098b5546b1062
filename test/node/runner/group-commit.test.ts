import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommitUnknown,
  ConnectionLost,
  openEmbedded,
  openPostgres,
  reconnecting,
  type Database,
  type Sql,
} from '../../../src/runner/database';
import { GroupCommit, QueueTimeout, ReadBatch, type Lane, type Merger } from '../../../src/runner/group-commit';
import { startCommitCuttingProxy, type CommitCuttingProxy } from '../../helpers/commit-cutting-proxy';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres';

// The group commit is tried on a small log of its own: each caller appends one value to its thread
// (a value below 0 breaks the table's check, as a bad row breaks a real statement), and counts its
// thread's appends; the runner's store sends its own statements the same way (thread-mergers.ts).
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS g_log (id bigserial PRIMARY KEY, thread text NOT NULL, value integer NOT NULL CHECK (value >= 0))`,
  `CREATE TABLE IF NOT EXISTS g_counts (thread text PRIMARY KEY, count integer NOT NULL)`,
];

type Append = { thread: string; value: number };

const mergers: Record<string, Merger<Sql>> = {
  async append(sql, list) {
    const args = list as Append[];
    const rows = await sql.query<{ id: unknown }>(
      `INSERT INTO g_log (thread, value) SELECT thread, value FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS u(thread, value, n) ORDER BY n
       RETURNING id`,
      [args.map((a) => a.thread), args.map((a) => a.value)],
    );
    return args.map((_, index) => rows[index]?.id);
  },
  async count(sql, list) {
    const args = list as Array<{ thread: string }>;
    // Threads in key order: two instances' batches lock the rows they share in the same order.
    const rows = await sql.query<{ thread: string; count: number }>(
      `INSERT INTO g_counts (thread, count) SELECT thread, 1 FROM unnest($1::text[]) AS u(thread) ORDER BY thread
       ON CONFLICT (thread) DO UPDATE SET count = g_counts.count + 1 RETURNING thread, count`,
      [args.map((a) => a.thread)],
    );
    const counts = new Map(rows.map((row) => [row.thread, Number(row.count)]));
    return args.map((a) => counts.get(a.thread));
  },
};

/** A group commit on `db`, counting the transactions it opens. */
function grouped(db: Database, maxInFlight = 1) {
  const opened = { count: 0 };
  const group = new GroupCommit<Sql>({
    transaction: (body) => {
      opened.count++;
      return db.transaction(body);
    },
    mergers,
    maxInFlight,
    aborted: (error) => (error as { code?: unknown }).code === '25P02',
    unknown: (error) => error instanceof CommitUnknown,
    lost: (error) => error instanceof ConnectionLost,
  });
  return { group, opened };
}

/** One caller: appends `value` to `thread` and counts it; throws `refuse` after its writes when given. */
const caller =
  (thread: string, value: number, refuse?: string) => async (_sql: Sql, lane: { call<R>(kind: string, args: unknown): Promise<R> }) => {
    await lane.call('append', { thread, value });
    const count = await lane.call<number>('count', { thread });
    if (refuse) throw new Error(refuse);
    return count;
  };

const logOf = async (db: Database) =>
  (await db.query<{ thread: string; value: number }>(`SELECT thread, value FROM g_log ORDER BY id`)).map(
    (row) => `${row.thread}:${row.value}`,
  );

const reset = async (db: Database) => {
  for (const statement of SCHEMA) await db.query(statement);
  await db.query(`TRUNCATE g_log, g_counts`);
};

/** A store on a new database reached through a proxy that can cut its connections; both closed after `test`. */
const throughProxy = async (name: string, test: (setup: { db: Database; proxy: CommitCuttingProxy }) => Promise<void>) => {
  cluster ??= await startPostgres();
  const proxy = await startCommitCuttingProxy(await cluster.createDatabase(`group_${name}_${Math.random().toString(36).slice(2)}`));
  const db = await openPostgres(proxy.url, 4);
  try {
    await test({ db, proxy });
  } finally {
    await db.close();
    await proxy.close();
  }
};

/** How each caller ended: the name of its error, or `fulfilled`. */
const endings = (results: PromiseSettledResult<unknown>[]) =>
  results.map((result) => (result.status === 'rejected' ? (result.reason as Error).name : 'fulfilled'));

// Warnings Node prints on the process (a driver's deprecation is one a server's log would show).
const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(warning.message));

let cluster: PostgresCluster | undefined;
const tempDirs: string[] = [];
const stores: Record<string, () => Promise<Database>> = {
  'embedded (PGlite)': async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cki-group-'));
    tempDirs.push(dir);
    return openEmbedded(dir);
  },
  PostgreSQL: async () => {
    cluster ??= await startPostgres();
    return openPostgres(await cluster.createDatabase(`group_${Math.random().toString(36).slice(2)}`), 4);
  },
};

afterAll(async () => {
  await cluster?.stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(stores))('a group commit on the %s store', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await stores[kind]!();
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it('given 20 threads writing at once, they should share one transaction and each caller should get its own row back', async () => {
    await reset(db);
    const { group, opened } = grouped(db);
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => group.submit(`t${i}`, caller(`t${i}`, i))));
    expect(counts).toEqual(Array.from({ length: 20 }, () => 1));
    expect(opened.count).toBe(1);
    expect(await logOf(db)).toEqual(Array.from({ length: 20 }, (_, i) => `t${i}:${i}`));
  });

  it('given a batch held in flight, a caller queued behind it longer than its wait should be refused and write nothing, and the batch should commit', async () => {
    await reset(db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const group = new GroupCommit<Sql>({ transaction: (body) => db.transaction(body), mergers, maxWaitMs: 100 });
    const first = group.submit('a', async (sql: Sql, lane: Lane) => {
      const count = await caller('a', 1)(sql, lane);
      started();
      await held;
      return count;
    });
    try {
      await inFlight;
      const late = group.submit('b', caller('b', 2));
      await expect(late).rejects.toThrow(QueueTimeout);
      await expect(late).rejects.toThrow(/waited 100 ms behind other transactions; nothing was written/);
    } finally {
      release();
    }
    expect(await first).toBe(1);
    expect(await logOf(db)).toEqual(['a:1']);
    // The group goes on: the next caller runs.
    expect(await group.submit('c', caller('c', 3))).toBe(1);
  });

  it('given one caller refused after its writes, the others should commit and the refused one should get its error and leave nothing', async () => {
    await reset(db);
    const { group } = grouped(db);
    const results = await Promise.allSettled([
      group.submit('a', caller('a', 1)),
      group.submit('b', caller('b', 2, 'not yours')),
      group.submit('c', caller('c', 3)),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'not yours', 1]);
    expect(await logOf(db)).toEqual(['a:1', 'c:3']);
  });

  it("given a statement that fails on one caller's row, only that caller should fail and the others should commit", async () => {
    await reset(db);
    const { group } = grouped(db);
    const results = await Promise.allSettled([
      group.submit('a', caller('a', 1)),
      group.submit('b', caller('b', -1)),
      group.submit('c', caller('c', 3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/check constraint/i);
    expect(await logOf(db)).toEqual(['a:1', 'c:3']);
  });

  it("given a caller whose own query fails while the others' queries wait behind it, only that caller should fail and the others should commit", async () => {
    await reset(db);
    const { group } = grouped(db);
    // The failing caller reaches its statement through a few calls of its own, as a runner's
    // statements do (ThreadTransaction's methods); the others read their count straight after.
    const through = async (depth: number, send: () => Promise<unknown>): Promise<unknown> =>
      depth === 0 ? send() : through(depth - 1, send);
    const reads = (thread: string) => async (sql: Sql, lane: Lane) => {
      await lane.call('append', { thread, value: 1 });
      const [row] = await sql.query<{ n: unknown }>(`SELECT count(*) AS n FROM g_log WHERE thread = $1`, [thread]);
      return Number(row!.n);
    };
    const results = await Promise.allSettled([
      group.submit('a', async (sql: Sql, lane: Lane) => {
        await lane.call('append', { thread: 'a', value: 1 });
        await through(12, () => sql.query(`INSERT INTO g_log (thread, value) VALUES ('a', -1)`));
        return 1;
      }),
      group.submit('b', reads('b')),
      group.submit('c', reads('c')),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
      expect.stringMatching(/check constraint/i),
      1,
      1,
    ]);
    expect(await logOf(db)).toEqual(['b:1', 'c:1']);
  });

  it('given callers of one batch querying the store at the same moment, each should get its own rows and the server log should stay free of driver warnings', async () => {
    await reset(db);
    const { group } = grouped(db);
    const counts = await Promise.all(
      ['p', 'q', 'r', 's'].map((thread) =>
        group.submit(thread, async (sql: Sql, lane: Lane) => {
          await lane.call('append', { thread, value: 1 });
          const [row] = await sql.query<{ n: unknown }>(`SELECT count(*) AS n FROM g_log WHERE thread = $1`, [thread]);
          return Number(row!.n);
        }),
      ),
    );
    expect(counts).toEqual([1, 1, 1, 1]);
    // Node prints a deprecation once per process: any test of this file would have set it off.
    expect(warnings.filter((warning) => /client\.query\(\)/.test(warning))).toEqual([]);
  });

  it('given any mix of callers on a few threads, each should end as a transaction of its own would, in the order it came on its thread', async () => {
    const callers = fc.array(
      fc.record({ thread: fc.constantFrom('x', 'y', 'z'), outcome: fc.constantFrom('ok', 'ok', 'ok', 'refused', 'bad') }),
      { minLength: 1, maxLength: 25 },
    );
    await fc.assert(
      fc.asyncProperty(callers, fc.integer({ min: 1, max: 2 }), async (list, inFlight) => {
        await reset(db);
        const { group } = grouped(db, inFlight);
        const results = await Promise.allSettled(
          list.map((c, i) =>
            group.submit(c.thread, caller(c.thread, c.outcome === 'bad' ? -1 : i, c.outcome === 'refused' ? 'refused' : undefined)),
          ),
        );
        // The model: a refused or bad caller fails alone; the others append once each, in order per thread.
        const kept = list.flatMap((c, i) => (c.outcome === 'ok' ? [`${c.thread}:${i}`] : []));
        const log = await logOf(db);
        for (const thread of ['x', 'y', 'z'])
          expect(log.filter((row) => row.startsWith(`${thread}:`))).toEqual(kept.filter((row) => row.startsWith(`${thread}:`)));
        expect(results.map((r) => r.status)).toEqual(list.map((c) => (c.outcome === 'ok' ? 'fulfilled' : 'rejected')));
        // Each ok caller saw its thread's count as of its own append: 1, 2, 3... in the order they came.
        for (const thread of ['x', 'y', 'z']) {
          const seen = list.flatMap((c, i) =>
            c.thread === thread && c.outcome === 'ok' ? [(results[i] as PromiseFulfilledResult<number>).value] : [],
          );
          expect(seen).toEqual(seen.map((_, n) => n + 1));
        }
      }),
      { numRuns: kind === 'PostgreSQL' ? 15 : 10 },
    );
  }, 120_000);

  it('given 30 reads asked for at once, they should be one statement and each caller should get its own rows, even when another write came first', async () => {
    await reset(db);
    const { group } = grouped(db);
    await Promise.all(['a', 'b', 'c'].map((thread, i) => group.submit(thread, caller(thread, i))));
    const statements = { count: 0 };
    const reads = new ReadBatch<string, string[]>(async (threads) => {
      statements.count++;
      const rows = await db.query<{ thread: string; value: number }>(
        `SELECT thread, value FROM g_log WHERE thread = ANY($1::text[]) ORDER BY id`,
        [threads],
      );
      return threads.map((thread) => rows.filter((row) => row.thread === thread).map((row) => String(row.value)));
    });
    const asked = Array.from({ length: 30 }, (_, i) => reads.load(['a', 'b', 'c', 'none'][i % 4]!));
    expect((await Promise.all(asked)).slice(0, 4)).toEqual([['0'], ['1'], ['2'], []]);
    expect(statements.count).toBe(1);
    // A read asked for after a commit sees it.
    await group.submit('a', caller('a', 9));
    expect(await reads.load('a')).toEqual(['0', '9']);
  });

  it('given a batched read that fails on one caller, only that caller should get the error', async () => {
    await reset(db);
    const reads = new ReadBatch<string, number>(async (values) => {
      const rows = await db.query<{ n: number }>(`SELECT v::int AS n FROM unnest($1::text[]) WITH ORDINALITY AS u(v, i) ORDER BY i`, [
        values,
      ]);
      return rows.map((row) => Number(row.n));
    });
    const results = await Promise.allSettled(['1', 'two', '3'].map((value) => reads.load(value)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([1, 'failed', 3]);
  });
});

describe('a group commit on PostgreSQL whose commit reply is lost', () => {
  it(
    'given the connection cut after the server committed a batch, no caller should run again: each should get an error that says so, and every row should be written once',
    () =>
      throughProxy('cut', async ({ db, proxy }) => {
        await reset(db);
        const { group } = grouped(db);
        const cut = proxy.cutNextCommitReply();
        const results = await Promise.allSettled(['a', 'b', 'c'].map((thread, i) => group.submit(thread, caller(thread, i))));
        await cut;
        expect(endings(results)).toEqual(['CommitUnknown', 'CommitUnknown', 'CommitUnknown']);
        expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/whether the transaction was written is unknown/);
        expect(await logOf(db)).toEqual(['a:0', 'b:1', 'c:2']);
      }),
    60_000,
  );
});

describe('a group commit on PostgreSQL whose connection is lost before its commit', () => {
  it(
    'given a batch whose statement is cut with its connection, every caller should be told so with nothing written, and sent again they should share one transaction',
    () =>
      throughProxy('lost', async ({ db, proxy }) => {
        await reset(db);
        const { group, opened } = grouped(db);
        const cut = proxy.cutAtStatement('INSERT INTO g_log (thread, value)');
        const results = await Promise.allSettled(['a', 'b', 'c'].map((thread, i) => group.submit(thread, caller(thread, i))));
        await cut;
        expect(endings(results)).toEqual(['ConnectionLost', 'ConnectionLost', 'ConnectionLost']);
        expect(await logOf(db)).toEqual([]);
        const before = opened.count;
        expect(await Promise.all(['a', 'b', 'c'].map((thread, i) => group.submit(thread, caller(thread, i))))).toEqual([1, 1, 1]);
        expect(opened.count - before).toBe(1);
        expect(await logOf(db)).toEqual(['a:0', 'b:1', 'c:2']);
      }),
    60_000,
  );
});

describe('the PostgreSQL store when a connection fails', () => {
  it('given a statement the server refuses on a live connection (a wrong parameter count, SQLSTATE 08P01), it should get its own error, once, alone or in a transaction', async () => {
    cluster ??= await startPostgres();
    const db = await openPostgres(await cluster.createDatabase(`group_refused_${Math.random().toString(36).slice(2)}`), 2);
    try {
      let attempts = 0;
      const refused = await reconnecting(() => {
        attempts++;
        return db.query('SELECT $1::int + $2::int AS n', [1]);
      }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: '08P01' });
      expect(attempts).toBe(1);
      const inTransaction = await db.transaction((sql) => sql.query('SELECT $1::int + $2::int AS n', [1])).catch((error: unknown) => error);
      expect(inTransaction).toMatchObject({ code: '08P01' });
      expect(await db.query('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it.each([
    ['cut at once on their way (a balancer in front of a server that restarts)', 'cut'],
    ['refused by PgBouncer with FATAL 08P01 (its server restarting)', 'bouncer'],
  ] as const)(
    'given new connections %s for a while, a read should be sent again until they pass',
    (_how, how) =>
      throughProxy(how, async ({ db, proxy }) => {
        const away = proxy.outage(500, how);
        const read = reconnecting(() => db.query<{ n: number }>('SELECT 1 AS n'));
        await away;
        expect(await read).toEqual([{ n: 1 }]);
      }),
    60_000,
  );
});

describe('a group commit on PostgreSQL, from two instances', () => {
  it('given two instances on one database counting the same threads at once, every count should be kept once and none should fail', async () => {
    cluster ??= await startPostgres();
    const url = await cluster.createDatabase(`group_two_${Math.random().toString(36).slice(2)}`);
    const [one, two] = await Promise.all([openPostgres(url, 4), openPostgres(url, 4)]);
    try {
      await reset(one);
      const groups = [grouped(one, 2).group, grouped(two, 2).group];
      const threads = Array.from({ length: 10 }, (_, i) => `shared-${i}`);
      const submitted = Array.from({ length: 200 }, (_, i) => {
        const thread = threads[(i * 7) % threads.length]!;
        return groups[i % 2]!.submit(thread, caller(thread, i));
      });
      const counts = await Promise.all(submitted);
      const perThread = new Map<string, number[]>();
      counts.forEach((count, i) => {
        const thread = threads[(i * 7) % threads.length]!;
        perThread.set(thread, [...(perThread.get(thread) ?? []), count]);
      });
      for (const seen of perThread.values()) expect([...seen].sort((a, b) => a - b)).toEqual(seen.map((_, n) => n + 1));
      expect((await logOf(one)).length).toBe(200);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 60_000);
});
