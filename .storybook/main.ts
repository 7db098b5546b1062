import type { StorybookConfig } from '@storybook/react-vite';
import { createLogger } from 'vite';

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-a11y', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true },
  // CopilotKit's modules start with "use client"; Rollup warns about each when bundling the static
  // build. The directive is meaningless in a browser bundle, so those warnings are noise.
  viteFinal: (config, { configType }) => ({
    ...config,
    // Storybook hands Vite a logger that prints Vite's info lines whatever `--quiet` says: the
    // static build listed its ~450 output files and their sizes. Give the build Vite's own logger at
    // `warn`, which still prints every warning and error.
    ...(configType === 'PRODUCTION' ? { customLogger: createLogger('warn') } : {}),
    build: {
      ...config.build,
      // The preview bundles CopilotKit's chat in one chunk for the chat stories (~1.8 MB); it is
      // served from disk, never downloaded by an app.
      chunkSizeWarningLimit: 4096,
      rollupOptions: {
        ...config.build?.rollupOptions,
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  }),
};

export default config;
