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

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    // Array#sort is stable: equal weights keep Vitest's order.
    return ordered.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || weight(b) - weight(a));
  }
}
