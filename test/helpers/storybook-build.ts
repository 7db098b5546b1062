import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withLock } from '../../scripts/build-cache.mjs';

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

/** Holds a lock while building, so two suites never build at once (one older than 15 minutes is taken over). */
function withBuildLock<T>(work: () => T): Promise<T> {
  return withLock(LOCK, work, { what: 'another Storybook build', pollMs: 1_000, staleAfterMs: 15 * 60_000 });
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
  return withBuildLock(() => {
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
