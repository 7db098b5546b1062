/**
 * Figure 1, size: every entry in package.json `exports`, bundled from source the way an app's
 * bundler ships it (esbuild, ESM, minified, tree-shaken, peers external), then gzipped (zlib level 9).
 * Used by `npm run bench` and by the size budget test (`test/size`), so both see the same numbers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import tsupConfig from '../tsup.config';

/** The nearest folder up from `start` whose package.json is this package, if any. */
function findRoot(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'copilotkit-interrupts') return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The package root: looked up from the working folder first (`npm run bench` and vitest run there),
 * then from this file. Bundled, this file runs from `node_modules/.cache`, and a `node_modules`
 * linked from another checkout would otherwise measure that checkout's sources.
 */
export const ROOT =
  findRoot(process.cwd()) ??
  findRoot(dirname(fileURLToPath(import.meta.url))) ??
  (() => {
    throw new Error(`copilotkit-interrupts' package.json not found above ${process.cwd()}`);
  })();

/** Peers and optional peers: an app already has them, so they never count. */
export const EXTERNAL = [
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  '@copilotkit/*',
  '@ag-ui/*',
  '@mastra/*',
  'zod',
  'zod/*',
  'rxjs',
  'rxjs/*',
  'pg',
  '@electric-sql/*',
  'node:*',
];

/** One card imported alone from `./cards`: what tree-shaking leaves of that entry. */
export const CARD_ALONE = { entry: './cards', label: './cards { TimePickerCard } alone', exportName: 'TimePickerCard' };

/**
 * What a typical app ships on its first load: the hook (its built-in cards follow on demand). The
 * whole `.` entry also counts exports an app's bundler drops when unused (`InterruptMessageRender`,
 * `withInterruptEcho`, ...).
 */
export const TYPICAL_APP = { entry: '.', label: '. { useInterruptRenderers } (typical app)', exportName: 'useInterruptRenderers' };

/** Slices of an entry measured alone, next to the whole entry. */
export const SLICES = [TYPICAL_APP, CARD_ALONE];

/**
 * What each entry and slice measured, gzipped, when its ceiling was last set: one line per entry.
 * A new entry in package.json `exports` needs its line here (the size test says so).
 * Measured 2026-12-05 after the durable threads, approvals and first-hour rounds, with CopilotKit's
 * own chat at 3,417,146 B next to them; `.` and the typical app 2026-12-07, after issue 40's split
 * of the controller, with the "Approve all" bar fetched on demand.
 */
export const SIZE_MEASURED: Readonly<Record<string, number>> = {
  '.': 27_896,
  [TYPICAL_APP.label]: 22_475,
  './cards': 15_170,
  [CARD_ALONE.label]: 8_537,
  './core': 4_969,
  './runtime': 12_766,
  './runner': 30_346,
  './mastra': 4_484,
  './locales/zh-CN': 2_172,
  './styles.css': 2_637,
};

/** Room above the measurement: a ceiling catches a slip, it does not hold a fix back. */
export const SIZE_HEADROOM = 0.1;

/** A ceiling: the measurement plus the headroom, rounded up to the next 100 bytes. */
export const ceilingFor = (measured: number) => Math.ceil((measured * (1 + SIZE_HEADROOM)) / 100) * 100;

/** Gzipped ceilings enforced by `test/size/size-budget.test.ts` (not the bench: it reports them). */
export const SIZE_BUDGETS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(SIZE_MEASURED).map(([entry, measured]) => [entry, ceilingFor(measured)]),
);

/**
 * The yardstick: CopilotKit's own chat, as an app's bundler ships it (the same esbuild settings
 * as the entries, with only React external: CopilotKit and what it pulls in are what an app
 * adds for a chat). The bench reports every entry as a share of its gzipped JavaScript. Its
 * stylesheet (KaTeX's and the chat's) is measured apart; fonts are left out. The size test does
 * not bundle it: 16 MB minified takes seconds.
 */
export const COPILOTKIT_CHAT = {
  label: "CopilotKit's chat (CopilotKitProvider + CopilotChat)",
  contents: "export { CopilotKitProvider, CopilotChat } from '@copilotkit/react-core/v2';",
  external: ['react', 'react/*', 'react-dom', 'react-dom/*'],
};

export interface SizeResult {
  entry: string;
  source: string;
  minified: number;
  gzipped: number;
  /** The enforced ceiling. */
  budget?: number;
  /** Gzipped bytes fetched later, on demand (the built-in cards), not on the first load. */
  onDemand?: number;
  /** The source files in the first load. */
  modules: string[];
}

interface PackageJson {
  exports: Record<string, string | { import?: string | { default?: string } }>;
}

function readPackage(): PackageJson {
  return JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
}

/** `./dist/core.js` -> `core`; `./dist/styles.css` -> `styles`. */
function distBase(target: PackageJson['exports'][string]): string | undefined {
  const file = typeof target === 'string' ? target : typeof target.import === 'string' ? target.import : target.import?.default;
  if (!file) return undefined;
  return file.replace(/^\.\/dist\//, '').replace(/\.(c|m)?js$|\.css$/, '');
}

/** tsup's entry map, merged over its config array: `{core: 'src/index.ts', ...}`. */
function tsupEntries(): Record<string, string> {
  const configs = (Array.isArray(tsupConfig) ? tsupConfig : [tsupConfig]) as Array<{ entry?: unknown }>;
  const entries: Record<string, string> = {};
  for (const config of configs) {
    if (config.entry && typeof config.entry === 'object' && !Array.isArray(config.entry)) {
      Object.assign(entries, config.entry as Record<string, string>);
    }
  }
  return entries;
}

function findCssSources(dir: string, found: string[] = []): string[] {
  if (!existsSync(dir)) return found;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) findCssSources(path, found);
    else if (item.name.endsWith('.css')) found.push(path);
  }
  return found;
}

/** The source file behind each package export (`./package.json` aside). */
export function exportSources(): Array<{ entry: string; source: string }> {
  const pkg = readPackage();
  const entries = tsupEntries();
  const result: Array<{ entry: string; source: string }> = [];
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (entry === './package.json') continue;
    const base = distBase(target);
    const fromTsup = base ? entries[base] : undefined;
    if (fromTsup) {
      result.push({ entry, source: resolve(ROOT, fromTsup) });
      continue;
    }
    if (entry.endsWith('.css')) {
      // The stylesheet may be copied rather than built by tsup: take the one CSS source there is.
      const css = [...findCssSources(join(ROOT, 'components')), ...findCssSources(join(ROOT, 'src'))];
      if (css.length === 1) {
        result.push({ entry, source: css[0] });
        continue;
      }
      throw new Error(`Cannot tell which stylesheet is ${entry}: found ${css.length} CSS files.`);
    }
    throw new Error(`No tsup entry builds ${entry} (dist name ${base ?? '?'}).`);
  }
  return result;
}

type Input = { file: string } | { contents: string };

/** Bundles `input` like an app's bundler (minified, tree-shaken, peers external); `plugins` on top. */
function bundle(input: Input, options: { splitting?: boolean; plugins?: Plugin[]; external?: string[] } = {}) {
  const slice: Plugin = {
    name: 'slice',
    setup(build) {
      build.onResolve({ filter: /^slice\.ts$/ }, () => ({ path: join(ROOT, 'slice.ts'), namespace: 'slice' }));
      build.onLoad({ filter: /.*/, namespace: 'slice' }, () => ({
        contents: 'contents' in input ? input.contents : '',
        loader: 'ts',
        resolveDir: ROOT,
      }));
    },
  };
  return build({
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    treeShaking: true,
    splitting: options.splitting,
    external: options.external ?? EXTERNAL,
    // Fonts a stylesheet names are fetched by the browser when used, not shipped in the bundle.
    loader: { '.woff': 'empty', '.woff2': 'empty', '.ttf': 'empty', '.eot': 'empty', '.otf': 'empty' },
    logLevel: 'silent',
    absWorkingDir: ROOT,
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    outdir: 'out',
    entryPoints: ['file' in input ? input.file : 'slice.ts'],
    plugins: ['file' in input ? [] : [slice], options.plugins ?? []].flat(),
  });
}

const gzipped = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

/**
 * One entry's first load: its static graph, tree-shaken, gzipped as one file. What it fetches
 * later with `import()` (the built-in cards) is left out of that and reported as `onDemand`: the
 * chunks of a split build that the entry does not import statically, each gzipped on its own.
 * (The first load is not read off the split build: esbuild puts a module that the cards use in a
 * chunk the entry imports whenever the entry re-exports it, used or not, and an app's bundler
 * drops an unused re-export first.)
 */
async function bundleSize(
  input: Input,
  css: boolean,
): Promise<{ minified: number; gzipped: number; modules: string[]; onDemand?: number }> {
  let splits = false;
  const onDemand: Plugin = {
    name: 'on-demand',
    setup(build) {
      build.onResolve({ filter: /.*/ }, ({ kind, path }) =>
        kind === 'dynamic-import' ? ((splits = true), { path, external: true }) : undefined,
      );
    },
  };
  const first = await bundle(input, { plugins: [onDemand] });
  // Only the output of the entry's kind: a JS entry importing CSS would also emit a .css file.
  const wanted = first.outputFiles.filter((file) => file.path.endsWith(css ? '.css' : '.js'));
  const bytes = Buffer.concat(wanted.map((file) => Buffer.from(file.contents)));
  const modules = Object.keys(first.metafile.inputs);
  if (!splits) return { minified: bytes.length, gzipped: gzipped(bytes), modules };
  const split = await bundle(input, { splitting: true });
  const outputs = split.metafile.outputs;
  // esbuild marks the `import()` chunks as entry points too: the entry is the one nothing imports.
  const imported = new Set(Object.values(outputs).flatMap((output) => output.imports.map((item) => item.path)));
  const entry = Object.keys(outputs).find((path) => path.endsWith('.js') && outputs[path].entryPoint !== undefined && !imported.has(path))!;
  const eager = new Set<string>();
  const visit = (path: string) => {
    if (eager.has(path)) return;
    eager.add(path);
    for (const { path: next, kind, external } of outputs[path].imports) if (kind === 'import-statement' && !external) visit(next);
  };
  visit(entry);
  const later = split.outputFiles.filter((file) => file.path.endsWith('.js') && !eager.has(relative(ROOT, file.path)));
  return {
    minified: bytes.length,
    gzipped: gzipped(bytes),
    modules,
    onDemand: later.reduce((total, file) => total + gzipped(file.contents), 0),
  };
}

/** Sizes of every export, plus the slices of the main entry. */
export async function measureSizes(): Promise<SizeResult[]> {
  const results: SizeResult[] = [];
  for (const { entry, source } of exportSources()) {
    const size = await bundleSize({ file: source }, entry.endsWith('.css'));
    results.push({ entry, source: relative(ROOT, source), ...size, budget: SIZE_BUDGETS[entry] });
  }
  for (const slice of SLICES) {
    const whole = exportSources().find((item) => item.entry === slice.entry);
    if (!whole) continue;
    const contents = `export { ${slice.exportName} } from ${JSON.stringify('./' + relative(ROOT, whole.source))};`;
    const size = await bundleSize({ contents }, false);
    results.push({
      entry: slice.label,
      source: relative(ROOT, whole.source),
      ...size,
      budget: SIZE_BUDGETS[slice.label],
    });
  }
  return results;
}

/** CopilotKit's chat, the yardstick of every share: its JavaScript and its stylesheet, gzipped. */
export async function measureCopilotKitChat(): Promise<{ label: string; minified: number; gzipped: number; cssGzipped: number }> {
  const result = await bundle({ contents: COPILOTKIT_CHAT.contents }, { external: COPILOTKIT_CHAT.external });
  const of = (suffix: string) =>
    Buffer.concat(result.outputFiles.filter((file) => file.path.endsWith(suffix)).map((file) => file.contents));
  const js = of('.js');
  return { label: COPILOTKIT_CHAT.label, minified: js.length, gzipped: gzipped(js), cssGzipped: gzipped(of('.css')) };
}
