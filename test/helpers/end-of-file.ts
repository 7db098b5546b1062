/**
 * Clean-ups a helper schedules for the end of the current test file, run by the shared setup file
 * (test/setup/dom.ts) after the file's own `afterAll`s. For state a helper leaves outside what the
 * file itself starts and stops: the integration files share one module graph and one window per
 * worker (`isolate: false`), so what one file leaves in a module's state is there for the next.
 * This module imports nothing, so the setup file loads no helper's dependencies through it.
 */
const cleanups = new Set<() => void | Promise<void>>();

/** Runs `cleanup` once, when the current test file is done. */
export function atEndOfFile(cleanup: () => void | Promise<void>): void {
  cleanups.add(cleanup);
}

/** Runs (and forgets) the clean-ups scheduled by the file that just finished. */
export async function runEndOfFile(): Promise<void> {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    await cleanup();
  }
}
