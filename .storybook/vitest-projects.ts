import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import type { TestProjectInlineConfiguration } from 'vitest/config';
// Debian's Chromium and its quiet headless flags, shared with the end-to-end helper.
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/helpers/chromium';

const configDir = path.dirname(fileURLToPath(import.meta.url));

const CHAT_STORY_DEPS = [
  '@copilotkit/react-core/v2',
  '@ag-ui/client',
  'rxjs',
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
];

/**
 * The two ways every story's play function runs in `npm test`:
 * - `stories`: portable stories (composeStories) in jsdom, with an explicit axe check per story;
 * - `storybook`: the same stories in headless Chromium through @storybook/addon-vitest, where the
 *   a11y addon (`parameters.a11y.test: 'error'`) fails a story on any axe violation, contrast included.
 */
export const storybookProjects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'stories',
      globals: true,
      environment: 'jsdom',
      include: ['test/stories/**/*.test.{ts,tsx}'],
      setupFiles: ['test/setup/dom.ts'],
      server: { deps: { inline: [/@copilotkit\//] } },
      testTimeout: 20_000,
    },
  },
  {
    plugins: [storybookTest({ configDir })],
    // Pre-bundle the chat story's dependencies up front: discovering them mid-run makes Vite
    // reload the page, which loads a second React and fails the story.
    optimizeDeps: { include: CHAT_STORY_DEPS },
    test: {
      name: 'storybook',
      testTimeout: 30_000,
      browser: {
        enabled: true,
        headless: true,
        provider: playwright({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } }),
        instances: [{ browser: 'chromium' }],
      },
    },
  },
];
