import { join } from 'node:path';
import { withLock } from '../../scripts/build-cache.mjs';

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

/** Runs `work` holding the lock, waiting (up to 10 minutes) while another holds it. */
export function withDemoSourcesLock<T>(work: () => Promise<T>): Promise<T> {
  return withLock(LOCK, work, { what: 'the demo sources lock', pollMs: 200, timeoutMs: 10 * 60_000 });
}
