import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, measured (seconds per file in a full `npm test` on a 2-core machine,
 * two workers, then corrected by each file's own before/after timing where a change made it
 * cheaper). With a few workers the run ends when the last file does: a long file started last
 * leaves the cores idle while it finishes. Vitest orders a clean clone's files by project name and
 * size (it has no timings yet), which put these near the end; they start first here instead, the
 * browser and server suites (e2e, examples) among the others, since they no longer run on their
 * own after everything else. Vitest's own order (its cached timings when it has them) decides
 * among the rest. A stale number costs only a little idle time, never a test.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'test/e2e/demo.e2e.test.ts': 129,
  'test/e2e/demo-durable.e2e.test.ts': 61,
  'test/e2e/answered-cards.e2e.test.ts': 58,
  'test/examples/nextjs.test.ts': 55,
  'test/node/langgraph/langgraph-interrupts.test.ts': 54,
  'test/node/demo/demo-build-cache.test.ts': 50,
  'test/node/langgraph/langchain-hitl.test.ts': 45,
  'test/node/package/pack.test.ts': 42,
  'test/node/runner/interrupt-events.test.ts': 40,
  'test/node/runner/interrupt-runner.test.ts': 30,
  'test/node/runner/live-runner.test.ts': 30,
  'test/stories/portable-stories.test.tsx': 26,
  'test/node/demo/demo-server-log.test.ts': 24,
  'test/node/langgraph/resume-shape.test.ts': 22,
  'test/node/demo/demo-storage.test.ts': 19,
  'test/integration/changed-request.test.tsx': 19,
  'test/node/demo/demo-langgraph.test.ts': 15,
  'test/node/langgraph/stale-answer.test.ts': 14,
  'test/node/runner/inbox-scope.test.ts': 14,
  'test/integration/failure-paths.test.tsx': 14,
  'test/e2e/demo-users.e2e.test.ts': 13,
  'test/integration/remount-neighbours.test.tsx': 12,
  'test/integration/reload-echoes.test.tsx': 11,
};

const weight = (spec: TestSpecification) => {
  const file = spec.moduleId.slice(spec.project.config.root.length + 1);
  return MEASURED_SECONDS[file] ?? 0;
};

/** `files` in an order drawn from `seed` (the same seed, the same order). */
function shuffled<T>(files: readonly T[], seed: number): T[] {
  const order = [...files];
  let state = seed >>> 0;
  const next = () => {
    // mulberry32: a small, well-spread 32-bit generator.
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // `--sequence.shuffle` (with `--sequence.seed=N` to repeat an order): the files in a random
    // order too, not only the tests in each file (Vitest shuffles files only with its own
    // sequencer), so a file that depends on what another left behind shows up.
    const { shuffle, seed } = this.ctx.config.sequence;
    if (shuffle === true) return shuffled(files, seed);
    const ordered = await super.sort(files);
    // Array#sort is stable: equal weights keep Vitest's order.
    return ordered.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || weight(b) - weight(a));
  }
}
