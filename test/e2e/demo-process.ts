import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withDemoSourcesLock } from '../helpers/demo-sources-lock';
import { startProcess, type RunningProcess } from '../helpers/start-process';

export type RunningDemo = RunningProcess;

const REPO = new URL('../..', import.meta.url).pathname;
const READY = /copilotkit-interrupts demo: (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * Starts the real `npm run demo` (page build + server) on a free port and resolves with its URL
 * once it prints it. The suite tests exactly what a newcomer runs; its data goes to a temporary
 * folder (removed on stop), so a developer's own `.demo-data/` is left alone.
 */
export async function startDemo({ timeoutMs = 240_000 } = {}): Promise<RunningDemo> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cki-demo-data-'));
  try {
    // Held until the demo is up: `run.mjs` must not decide on its build while the build cache
    // suite has its probe file in the tree.
    const running = await withDemoSourcesLock(() =>
      startProcess({
        command: 'npm',
        args: ['run', 'demo'],
        cwd: REPO,
        env: { PORT: '0', DEMO_MODEL: '', DEMO_DATA_DIR: dataDir, DATABASE_URL: '' },
        ready: READY,
        name: 'npm run demo',
        timeoutMs,
      }),
    );
    return { ...running, stop: (signal) => running.stop(signal).finally(() => removeDataDir(dataDir)) };
  } catch (error) {
    removeDataDir(dataDir);
    throw error;
  }
}

/**
 * npm exits before the server it started has written its last files (the LangGraph server writes
 * its checkpoints as it stops), so the folder is removed with retries while those writes land.
 */
function removeDataDir(dataDir: string) {
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
}

export interface BuiltDemo {
  /** The package root it was built in (the server runs there). */
  root: string;
  /** The bundled server (`demo/server/main.ts`), what `npm run demo` runs after building. */
  serverFile: string;
  /** The built page. */
  staticDir: string;
}

/**
 * The demo as `npm run demo` builds it (`node demo/run.mjs --build-only`): its last build when
 * nothing it is built from changed, so every suite and `npm run demo` share one build. A test can
 * then start, kill and restart server processes from it without building again.
 */
export async function buildDemo(root = REPO): Promise<BuiltDemo> {
  await withDemoSourcesLock(() =>
    promisify(execFile)(process.execPath, [join(root, 'demo', 'run.mjs'), '--build-only'], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`node demo/run.mjs --build-only failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }),
  );
  return { root, serverFile: join(root, '.demo-build', 'server.mjs'), staticDir: join(root, 'demo', 'dist') };
}

/**
 * Starts the built demo server as its own process, as `npm run demo` would after its build:
 * `dataDir` is its data folder (`DEMO_DATA_DIR`), `databaseUrl` its `DATABASE_URL`, `secret` the
 * one it signs interrupt ids with (servers sharing a database need the same; unset, the demo keeps
 * one in its data folder).
 */
export function startBuiltDemo(
  built: BuiltDemo,
  {
    port,
    dataDir,
    databaseUrl = '',
    secret = '',
    name = 'demo server',
  }: { port: number; dataDir: string; databaseUrl?: string; secret?: string; name?: string },
): Promise<RunningDemo> {
  return startProcess({
    command: process.execPath,
    args: [built.serverFile],
    cwd: built.root,
    env: {
      PORT: String(port),
      DEMO_MODEL: '',
      DEMO_STATIC_DIR: built.staticDir,
      DEMO_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      COPILOTKIT_INTERRUPTS_SECRET: secret,
    },
    ready: READY,
    name,
    timeoutMs: 120_000,
  });
}

/** A port nothing listens on right now (so a restarted server can take the same one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
