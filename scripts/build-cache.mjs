// The demo's build cache: whether the last build of a part (the page, the server bundle) can be
// reused. A part's stamp, written beside its output after a successful build, holds a hash of every
// input file the build could read; the next start hashes them again and reuses the build when all
// match. Content hashes, not modification times: a checkout, a `git stash` round trip or a touch
// that leaves the content as it was does not rebuild, and a changed file always does.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const STAMP_VERSION = 1;

/** Folders never hashed: installed packages (package-lock.json stands for them) and build output. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist']);

const sha = (data) => createHash('sha256').update(data).digest('hex');

/** Every file under `path` (a file or a folder), relative to `root`, with `/` separators. */
function listFiles(root, path, into) {
  const absolute = join(root, path);
  if (!existsSync(absolute)) return;
  if (!statSync(absolute).isDirectory()) {
    into.push(path.split(sep).join('/'));
    return;
  }
  for (const entry of readdirSync(absolute)) {
    if (SKIPPED_DIRS.has(entry)) continue;
    listFiles(root, join(path, entry), into);
  }
}

/**
 * The content hash of each input: every file under the `inputs` (files or folders, relative to
 * `root`), plus `extra` files. A listed input that does not exist is recorded as missing, so its
 * appearing later counts as a change.
 */
export function hashInputs(root, inputs, extra = []) {
  const files = [];
  for (const input of [...inputs, ...extra]) listFiles(root, input, files);
  const hashes = {};
  for (const file of files.sort()) hashes[file] = sha(readFileSync(join(root, file)));
  for (const input of [...inputs, ...extra]) {
    if (!existsSync(join(root, input))) hashes[input.split(sep).join('/')] = 'missing';
  }
  return hashes;
}

/** The files whose hash differs between two hash maps (changed, added or removed), sorted. */
export function changedFiles(before, now) {
  const names = new Set([...Object.keys(before), ...Object.keys(now)]);
  return [...names].filter((name) => before[name] !== now[name]).sort();
}

/**
 * Files a build read that lie in the repository but outside its declared inputs and outside
 * `node_modules` (an import the declared folders do not cover): the stamp keeps them as inputs too.
 */
export function undeclaredInputs(root, read, inputs) {
  const covered = (file) => inputs.some((input) => file === input || file.startsWith(`${input}/`));
  const extra = new Set();
  for (const path of read) {
    const clean = path.split('?')[0];
    if (clean.startsWith('\0') || !clean.startsWith(root + sep)) continue;
    const file = relative(root, clean).split(sep).join('/');
    if (file.split('/').includes('node_modules') || covered(file) || !existsSync(clean)) continue;
    extra.add(file);
  }
  return [...extra].sort();
}

/**
 * What to do for one part: `{ reuse: true, builtAt }` when its stamp matches the inputs as they
 * are now and its output is the one the stamp describes; otherwise `{ reuse: false, reason }`.
 * `stamp` is the parsed stamp or undefined; `current` the hash map of the inputs now (computed with
 * the stamp's extra inputs); `outputHash` the hash of the output's marker file, or undefined when
 * it is missing.
 */
export function decide(stamp, current, outputHash) {
  if (!stamp || stamp.version !== STAMP_VERSION) return { reuse: false, reason: 'no earlier build' };
  if (outputHash === undefined || outputHash !== stamp.output)
    return { reuse: false, reason: 'the last build is incomplete or was replaced' };
  const changed = changedFiles(stamp.files, current);
  if (changed.length === 0) return { reuse: true, builtAt: stamp.builtAt };
  const shown = changed.slice(0, 3).join(', ');
  const more = changed.length > 3 ? ` and ${changed.length - 3} more` : '';
  return { reuse: false, reason: `changed since the last build: ${shown}${more}` };
}

/** The hash of a build's marker file (its `index.html`, the bundle), or undefined if missing. */
export function outputHash(file) {
  return existsSync(file) ? sha(readFileSync(file)) : undefined;
}

/** The parsed stamp at `file`, or undefined when it is missing or unreadable. */
export function readStamp(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Writes a stamp (atomically: a half-written stamp never reads as a valid one). */
export function writeStamp(file, { files, extra, output }) {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ version: STAMP_VERSION, builtAt: Date.now(), output, extra, files }, null, 2));
  renameSync(temporary, file);
}

/** Forgets a stamp before its part is rebuilt, so a build cut off halfway is never reused. */
export function removeStamp(file) {
  rmSync(file, { force: true });
}

/** "5 Dec 2026, 13:10:02": when the reused build was made, in local time. */
export function formatBuiltAt(ms) {
  return new Date(ms).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `path` was last changed more than `ms` ago (never, without `ms` or once it is gone). */
function isOlderThan(path, ms) {
  if (ms === undefined) return false;
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

/** Whether the process that wrote `pidFile` still runs (true while the pid is not written yet). */
function holderAlive(pidFile) {
  let pid;
  try {
    pid = Number(readFileSync(pidFile, 'utf8'));
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

/**
 * Runs `work` holding a lock (a folder: creating one is atomic, with its holder's pid), so
 * processes that would write the same thing take turns: two starts of the demo never write the
 * same build (the second waits, then finds the first one's build fresh), two suites never build
 * Storybook at once. A lock whose process is gone (killed mid-way), or older than `staleAfterMs`,
 * is taken over. `onWait` is called once if the lock is held; `what` names what is waited for in
 * the error thrown after `timeoutMs`.
 */
export async function withLock(
  lock,
  work,
  { onWait = () => {}, timeoutMs = 20 * 60_000, pollMs = 500, staleAfterMs, what = 'another build of the demo' } = {},
) {
  mkdirSync(dirname(lock), { recursive: true });
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (!holderAlive(join(lock, 'pid')) || isOlderThan(lock, staleAfterMs)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > timeoutMs) throw new Error(`Waited ${Math.round(timeoutMs / 60_000)} minutes for ${what} (lock ${lock}).`);
      if (!told) onWait();
      told = true;
      await sleep(pollMs);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
