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

/** The package root: the nearest folder up from here whose package.json is this package (works bundled too). */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'copilotkit-interrupts') return dir;
    if (dirname(dir) === dir) throw new Error(`copilotkit-interrupts' package.json not found above ${start}`);
  }
}

export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

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
 * The sizes the issue asks for (gzipped bytes): `npm run bench` reports each entry against these.
 * Tuned down once measured, as the issue asks: the core's from 4 to 3.75 kB (~3.5 kB measured),
 * the stylesheet's from 4 to 3 kB (~2.0 kB).
 */
export const SIZE_TARGETS: Readonly<Record<string, number>> = {
  './core': 3.75 * 1024,
  // Set once measured (1,404 B): the table alone; the English labels must not ride along.
  './locales/zh-CN': 1.5 * 1024,
  '.': 16 * 1024,
  [TYPICAL_APP.label]: 15 * 1024,
  './styles.css': 3 * 1024,
};

/**
 * Gzipped ceilings enforced by `test/size/size-budget.test.ts`: the targets, except where the
 * measured entry is over its target, and a ceiling at the measured size for entries without one.
 * `.` grew from 19 kB to 25.8 kB with issues 13-18 (the session, hostile-input hardening, one
 * reader for LangGraph values, approvals, the compact echo), all of it in the first load. Issue 17
 * moved the built-in cards out of it: the hook fetches them on demand and `./cards` exports them,
 * so `.` (16.2 kB) and the typical app (14.7 kB of 15 kB) are within their targets, and enforced. History
 * of each figure: bench/README.md.
 */
export const SIZE_BUDGETS: Readonly<Record<string, number>> = {
  ...SIZE_TARGETS,
  // The four cards and their kit (12,365 B measured when the entry was made; 12,427 B after the
  // loading placeholder's label, options picked by position and own-key status lookups; 12,299 B
  // once the zh-CN status map was marked pure and shared helpers replaced copies; 13,750 B once
  // answered cards showed their answer, dates in the reader's locale, approvals every argument and
  // focus followed the answer): a ceiling, no target.
  './cards': 13_750,
  // Issue 15's sanitiser and set-wide budget (decodeUntrusted, hashValue, boxed and binary data,
  // maxInterrupts): +711 B over main (4,204 B measured); unwrapInterrupts that never throws
  // (issue 13): 4,249 B. Issue 14's one reader of LangGraph values: +183 B (4,432 B measured).
  // The 3.75 kB target stays and the bench table reports the miss.
  './core': 4.375 * 1024,
  // The table with issue 16's approval labels (1,688 B); still the table alone.
  './locales/zh-CN': 1.75 * 1024,
};

export interface SizeResult {
  entry: string;
  source: string;
  minified: number;
  gzipped: number;
  /** The enforced ceiling. */
  budget?: number;
  /** What the issue asks for. */
  target?: number;
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
function bundle(input: Input, options: { splitting?: boolean; plugins?: Plugin[] } = {}) {
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
    external: EXTERNAL,
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
    results.push({ entry, source: relative(ROOT, source), ...size, budget: SIZE_BUDGETS[entry], target: SIZE_TARGETS[entry] });
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
      target: SIZE_TARGETS[slice.label],
      budget: SIZE_BUDGETS[slice.label],
    });
  }
  return results;
}
