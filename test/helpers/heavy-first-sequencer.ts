import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, measured (seconds of tests, one worker, on a 2-core machine). With
 * two workers the run ends when the last file does: a long file started last leaves one core idle
 * while it finishes. Vitest orders a clean clone's files by project name and size (it has no
 * timings yet), which put these near the end; they start first here instead. Vitest's own order
 * (its cached timings when it has them) decides among the rest. A stale number costs only a little
 * idle time, never a test.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'test/node/langgraph/langgraph-interrupts.test.ts': 61,
  'test/node/langgraph/langchain-hitl.test.ts': 52,
  'test/unit/components/answered-cards.test.tsx': 47,
  'test/stories/portable-stories.test.tsx': 44,
  'test/integration/changed-request.test.tsx': 28,
  'test/node/runner/interrupt-runner.test.ts': 24,
  'test/node/demo/demo-storage.test.ts': 20,
  'test/integration/failure-paths.test.tsx': 18,
  'test/node/langgraph/stale-answer.test.ts': 17,
  'test/node/demo/demo-langgraph.test.ts': 12,
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
