import { defineConfig, type Options } from 'tsup';

// `treeshake` and `splitting` stay off: both strip the "use client" banner (checked on tsup's output).
const shared: Options = {
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  target: 'es2022',
  outDir: 'dist',
  external: [/^react($|\/)/, /^react-dom($|\/)/, /^@copilotkit\//, /^@ag-ui\//, /^@mastra\//, /^rxjs($|\/)/, /^zod($|\/)/],
};

export default defineConfig([
  // Framework-free entries: no "use client".
  { ...shared, entry: { core: 'src/index.ts', 'locales/zh-CN': 'src/i18n/zh-cn.ts' } },
  // Server half: CopilotRuntime middleware and Mastra tool factories.
  { ...shared, entry: { runtime: 'src/runtime/index.ts', mastra: 'src/mastra/index.ts' } },
  // React entries: client components.
  { ...shared, entry: { index: 'components/index.ts' }, banner: { js: '"use client";' } },
]);
