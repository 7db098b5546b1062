import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A throwaway PostgreSQL server: a fresh cluster on a free port, removed by `stop()`. */
export interface PostgresCluster {
  /** `postgres://postgres:…@127.0.0.1:<port>/postgres` */
  url: string;
  /** A URL for another, fresh database on the same server. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server, keeping its data (the database goes away under its clients). */
  halt(): Promise<void>;
  /** Starts the halted server again on the same port and data. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Debian's PostgreSQL binaries (the `postgresql` package), newest version first. */
export function findPostgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  throw new Error('PostgreSQL is not installed: the runner suite needs initdb and postgres (apt-get install postgresql).');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'cki-pg-'));
  const data = join(dir, 'data');
  // initdb refuses to run as root: run the server as the `postgres` user, which must own the folder.
  const asRoot = process.getuid?.() === 0;
  const user = asRoot
    ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) }
    : undefined;
  if (user) chownSync(dir, user.uid, user.gid);
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], {
    stdio: 'pipe',
    ...(user ?? {}),
  });
  const port = await freePort();
  const url = `postgres://postgres:s3cret-pw@127.0.0.1:${port}/postgres`;
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'];
  const speed = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

  let server: ChildProcess;
  let exited: Promise<void>;
  const launch = async () => {
    server = spawn(join(bin, 'postgres'), [...args, ...speed], { stdio: ['ignore', 'ignore', 'pipe'], ...(user ?? {}) });
    let log = '';
    server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.end();
        return;
      } catch (error) {
        await client.end().catch(() => {});
        if (Date.now() > deadline || server.exitCode !== null) {
          server.kill('SIGKILL');
          throw new Error(`PostgreSQL did not start: ${String(error)}\n${log}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const halt = async () => {
    if (server.exitCode !== null) return;
    server.kill('SIGINT'); // fast shutdown: open connections are dropped
    // The wait's timer is cleared once the server exits, so it does not outlive the file (the
    // files of a worker share one process).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    clearTimeout(timer);
    if (server.exitCode === null) {
      server.kill('SIGKILL');
      await exited;
    }
  };
  try {
    await launch();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      await client.end();
      return url.replace(/\/postgres$/, `/${encodeURIComponent(name)}`);
    },
    halt,
    resume: launch,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
