import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { storybookProjects } from './.storybook/vitest-projects';
import HeavyFirstSequencer from './test/helpers/heavy-first-sequencer';

// CopilotKit ships ESM that imports CSS; Vitest must inline it (Node cannot import .css).
const inlineCopilotKit = { server: { deps: { inline: [/@copilotkit\//] } } };

export default defineConfig({
  test: {
    globals: true,
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine.
    // Most files spend much of their time waiting (servers, PostgreSQL, Chromium, LangGraph's
    // queue): measured, the node project used 0.7 of a core per worker and e2e 0.6, so one worker
    // per core still left a core idle. One more worker than cores (3 on 2 cores) keeps both busy:
    // the node project took 246 s instead of 439 s on the same loaded 2-core machine.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    // The longest files first, so none starts last and runs on alone.
    sequence: { sequencer: HeavyFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          globals: true,
          environment: 'jsdom',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['test/setup/dom.ts'],
          // One module graph and one window per worker, not per file (see integration below): the
          // project took 35 s instead of 57 s on a loaded 2-core machine.
          isolate: false,
          // The type tests (*.test-d.ts) are compiled by `npm run typecheck` (tsc over the whole repo,
          // test/ included), which `npm test` runs first: a wrong type fails there. Vitest's own
          // typecheck would run tsc over them a second time.
        },
      },
      {
        test: {
          name: 'integration',
          globals: true,
          environment: 'jsdom',
          include: ['test/integration/**/*.test.{ts,tsx}'],
          setupFiles: ['test/setup/dom.ts'],
          ...inlineCopilotKit,
          // Most of a file's time was importing CopilotKit (and jsdom) again: the files of a worker
          // now share one module graph and one window, which took the project from about 120 s to
          // 45 s on a 2-core machine. What a file leaves behind is then there for the next one: the
          // shared setup file unmounts React trees after each test and runs the clean-ups helpers
          // schedule (test/helpers/end-of-file.ts); a file stops what it starts. Files and tests
          // pass in any order (checked with shuffled files and tests, several seeds).
          isolate: false,
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'demo',
          globals: true,
          environment: 'jsdom',
          include: ['test/demo/**/*.test.{ts,tsx}'],
          setupFiles: ['test/setup/dom.ts'],
          globalSetup: ['test/demo/global-setup.ts'],
          ...inlineCopilotKit,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'node',
          globals: true,
          environment: 'node',
          include: ['test/node/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'size',
          globals: true,
          environment: 'node',
          include: ['test/size/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // examples/nextjs: packs the library, `next build`, `next start`, Chromium. Like e2e, its
          // files run alongside the other projects' (no `fileParallelism: false`: Vitest runs such
          // a project on one worker after all the others, which left the second core idle for
          // minutes at the end of every run).
          name: 'examples',
          globals: true,
          environment: 'node',
          include: ['test/examples/**/*.test.ts'],
          hookTimeout: 600_000,
          testTimeout: 90_000,
        },
      },
      ...storybookProjects,
      {
        test: {
          // Chromium against the real `npm run demo`; one browser and one server per file. The files
          // run alongside the other projects' (see examples); each starts its own demo on a free
          // port with its own data folder, and the shared builds (the demo's, the static
          // Storybook's) are made once, under a lock.
          name: 'e2e',
          globals: true,
          environment: 'node',
          include: ['test/e2e/**/*.e2e.test.ts'],
          hookTimeout: 300_000,
          testTimeout: 90_000,
        },
      },
    ],
  },
});
