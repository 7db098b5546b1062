import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One static Storybook build for the suites that need one (the README's static Storybook and the
 * answered cards' screenshots): `npm run build-storybook` into `storybook-static/`, as the README
 * says, reused while it is newer than everything it is built from. A build takes minutes on a
 * shared 2-core machine; each suite building its own cost that twice per run.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
export const STORYBOOK_STATIC = join(ROOT, 'storybook-static');
const CACHE = join(ROOT, 'node_modules', '.cache', 'copilotkit-interrupts-storybook');
/** What the last build printed, kept beside it for the suite that checks the output. */
const OUTPUT = join(CACHE, 'build-output.txt');
const LOCK = join(CACHE, 'lock');

/** What a story can draw from: a change to any of these makes the build stale. */
const SOURCES = [
  'stories',
  'components',
  'hooks',
  'src',
  '.storybook',
  'test/helpers',
  'test/fixtures',
  'package.json',
  'package-lock.json',
];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Whether the process that holds the lock still runs (true while its pid is not written yet). */
function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
  } catch {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds a lock (a folder: creating it is atomic) while building, so two suites never build at once. */
async function withLock<T>(work: () => T): Promise<T> {
  mkdirSync(CACHE, { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      break;
    } catch {
      // A lock whose process is gone (a run killed mid-build), or older than 15 minutes: take it over.
      if (!holderAlive() || (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 15 * 60_000)) {
        rmSync(LOCK, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > 20 * 60_000) throw new Error(`waited 20 minutes for another Storybook build (lock ${LOCK})`);
      await sleep(1_000);
    }
  }
  try {
    return work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

export interface StorybookBuild {
  /** The built Storybook (`storybook-static/`). */
  dir: string;
  /** What `npm run build-storybook` printed when it built it. */
  output: string;
  /** False when an earlier build was still fresh and was reused. */
  built: boolean;
}

/** The static Storybook, built now unless the last build is newer than its sources. */
export function storybookBuild(): Promise<StorybookBuild> {
  return withLock(() => {
    const index = join(STORYBOOK_STATIC, 'index.json');
    const fresh =
      existsSync(index) &&
      existsSync(OUTPUT) &&
      statSync(OUTPUT).mtimeMs >= statSync(index).mtimeMs &&
      statSync(index).mtimeMs > Math.max(...SOURCES.map((source) => newest(join(ROOT, source))));
    if (fresh) return { dir: STORYBOOK_STATIC, output: readFileSync(OUTPUT, 'utf8'), built: false };
    const output = execFileSync('npm', ['run', 'build-storybook'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    writeFileSync(OUTPUT, output);
    return { dir: STORYBOOK_STATIC, output, built: true };
  });
}
