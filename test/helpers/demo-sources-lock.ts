import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The demo's build cache suite (test/node/demo/demo-build-cache.test.ts) adds a file to the demo
 * server's sources and removes it, and checks that `node demo/run.mjs` rebuilds each time. A demo
 * started meanwhile by another suite (the end-to-end suites run alongside the node suites) would
 * see the same change, rebuild first, and leave that suite a build it did not expect. So both
 * hold this lock: the build cache suite while its file is in the tree, the end-to-end helpers
 * while `run.mjs` decides whether to build. A lock is a folder (creating one is atomic) with its
 * holder's pid; one whose holder is gone is taken over.
 */
const LOCK = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'copilotkit-interrupts-demo-sources', 'lock');

function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
  } catch {
    return existsSync(LOCK); // created, its pid not written yet
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` holding the lock, waiting (up to 10 minutes) while another holds it. */
export async function withDemoSourcesLock<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(LOCK), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!holderAlive()) {
        rmSync(LOCK, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > 10 * 60_000) throw new Error(`waited 10 minutes for the demo sources lock (${LOCK})`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
