import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface FolderLockOptions {
  /** What is waited for, in the error thrown after `giveUpMs`. */
  what: string;
  /** How often to look again while another holds it. */
  pollMs: number;
  giveUpMs: number;
  /** A lock older than this is taken over even if its holder still runs. */
  staleAfterMs?: number;
}

/** Whether the process holding `lock` still runs (true while its pid is not written yet). */
function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return existsSync(lock);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `work` holding `lock`, a folder (creating one is atomic) with its holder's pid, so suites
 * in other processes take turns. A lock whose holder is gone (a run killed mid-way), or older than
 * `staleAfterMs`, is taken over.
 */
export async function withFolderLock<T>(lock: string, work: () => T | Promise<T>, options: FolderLockOptions): Promise<T> {
  mkdirSync(dirname(lock), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const stale = options.staleAfterMs !== undefined && existsSync(lock) && Date.now() - statSync(lock).mtimeMs > options.staleAfterMs;
      if (stale || !holderAlive(lock)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > options.giveUpMs) {
        throw new Error(`waited ${Math.round(options.giveUpMs / 60_000)} minutes for ${options.what} (lock ${lock})`);
      }
      await new Promise((resolve) => setTimeout(resolve, options.pollMs));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
