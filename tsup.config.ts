import { readdirSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

// `treeshake` stays off: it strips the "use client" banner (checked on tsup's output).
const shared: Options = {
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  target: 'es2022',
  outDir: 'dist',
  external: [
    /^react($|\/)/,
    /^react-dom($|\/)/,
    /^@copilotkit\//,
    /^@ag-ui\//,
    /^@mastra\//,
    /^rxjs($|\/)/,
    /^zod($|\/)/,
    /^pg($|\/)/,
    /^@electric-sql\//,
  ],
};

// One entry per locale module: `src/i18n/locales/<tag>.ts` builds `dist/locales/<tag>.js`, so a new
// language is its module plus its line in package.json `exports` (a test checks the two agree).
const locales = Object.fromEntries(
  readdirSync('src/i18n/locales')
    .filter((file) => file.endsWith('.ts'))
    .map((file) => [`locales/${file.slice(0, -3)}`, `src/i18n/locales/${file}`]),
);

export default defineConfig([
  // Framework-free entries: no "use client".
  { ...shared, entry: { core: 'src/index.ts', ...locales } },
  // Server half: CopilotRuntime middleware, Mastra tool factories, the durable runner (Node only).
  { ...shared, entry: { runtime: 'src/runtime/index.ts', mastra: 'src/mastra/index.ts' } },
  { ...shared, platform: 'node', entry: { runner: 'src/runner/index.ts' } },
  // React entries: client components. The ESM build is split, so the cards the hook fetches on
  // demand stay in their own chunks (shared with `./cards`) instead of riding in `index.js`.
  // CommonJS has no chunks: there `import()` inlines the card.
  ...(['esm', 'cjs'] as const).map((format) => ({
    ...shared,
    format: [format],
    splitting: format === 'esm',
    entry: { index: 'components/index.ts', cards: 'components/cards.ts' },
    banner: { js: '"use client";' },
  })),
]);
