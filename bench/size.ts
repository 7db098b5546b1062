/**
 * Figure 1, size: every entry in package.json `exports`, bundled from source the way an app's
 * bundler ships it (esbuild, ESM, minified, tree-shaken, peers external), then gzipped (zlib level 9).
 * Used by `npm run bench` and by the size budget test (`test/size`), so both see the same numbers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
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
  './styles.css': 3 * 1024,
};

/**
 * Gzipped ceilings enforced by `test/size/size-budget.test.ts`: the targets, except where the
 * measured entry is over its target. `.` (five cards, the hook, history, English labels) measures
 * ~18.6 kB (19,046 B) against its 16 kB target; its ceiling, tuned down from 20 kB once trimmed,
 * stops further growth while the bench table keeps reporting the miss. Raised to 21.25 kB for
 * issue 16's approvals (edit before approving, always allow: 21,307 B measured). See bench/README.md.
 */
export const SIZE_BUDGETS: Readonly<Record<string, number>> = {
  ...SIZE_TARGETS,
  // Issue 13's interrupt session (src/session) and the steer-away/expiry rules: +1,903 B (23,210 B measured).
  // Issue 15's hostile-input hardening (one sanitiser and budget for every path, bounded hashing,
  // stored records checked field by field, the tab merge, cards that survive wrong types):
  // +1,777 B (24,987 B measured).
  // Issue 14's one reader (src/unwrap/shapes.ts: LangGraph values, the shared lift): +219 B (25,206 B measured).
  // Issues 13 and 16 (Dismissed status, the LangGraph review request) took main to 24,854 B.
  // Issue 17's compact read-only card (summary line, details on demand, the per-anchor echo
  // lookup, the one-line answers) on top: +824 B, 25,678 B measured, the ceiling set to exactly
  // that. The 16 kB target is 9.3 kB away: see bench/README.md.
  // Issue 18's lint fixes (settings and the displaced renderer no longer written during render) and
  // the session's fix for an expired interrupt's `cancelled` lost with a failed run: +92 B
  // (25,770 B measured), the ceiling set to exactly that. Issue 17's per-spot echo group (one
  // element per transcript spot, sized by its echo count): +41 B (25,811 B measured). A review
  // dropped the controller's settings comparison, which no card needed: 25,773 B.
  '.': 25_773,
  // Issue 15's sanitiser and set-wide budget (decodeUntrusted, hashValue, boxed and binary data,
  // maxInterrupts): +711 B over main (4,204 B measured); unwrapInterrupts that never throws
  // (issue 13): 4,249 B. Issue 14's one reader of LangGraph values: +183 B (4,432 B measured).
  // The 3.75 kB target stays and the bench table reports the miss.
  './core': 4.375 * 1024,
  // The table with issue 16's approval labels (1,688 B); still the table alone.
  './locales/zh-CN': 1.75 * 1024,
};

/** One card imported alone from the main entry: what tree-shaking leaves. */
export const CARD_ALONE = { label: '. { TimePickerCard } alone', exportName: 'TimePickerCard' };

/**
 * What a typical app ships: the hook with its built-in cards. The whole `.` entry also counts
 * exports an app's bundler drops when unused (`InterruptMessageRender`, `withInterruptEcho`, ...).
 */
export const TYPICAL_APP = { label: '. { useInterruptRenderers } (typical app)', exportName: 'useInterruptRenderers' };

/** Slices of the main entry measured alone, next to the whole entry. */
export const SLICES = [TYPICAL_APP, CARD_ALONE];

export interface SizeResult {
  entry: string;
  source: string;
  minified: number;
  gzipped: number;
  /** The enforced ceiling. */
  budget?: number;
  /** What the issue asks for. */
  target?: number;
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

async function bundleSize(
  stdinOrFile: { file: string } | { contents: string },
  css: boolean,
): Promise<{ minified: number; gzipped: number }> {
  const common = {
    bundle: true,
    minify: true,
    write: false,
    format: 'esm' as const,
    platform: 'browser' as const,
    target: 'es2022',
    treeShaking: true,
    external: EXTERNAL,
    logLevel: 'silent' as const,
    absWorkingDir: ROOT,
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic' as const,
  };
  const result =
    'file' in stdinOrFile
      ? await build({ ...common, entryPoints: [stdinOrFile.file], outdir: 'out' })
      : await build({
          ...common,
          stdin: { contents: stdinOrFile.contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'slice.ts' },
          outdir: 'out',
        });
  // Only the output of the kind the entry is (a JS entry importing CSS would also emit a .css file).
  const wanted = (result.outputFiles ?? []).filter((file) => (css ? file.path.endsWith('.css') : file.path.endsWith('.js')));
  const bytes = Buffer.concat(wanted.map((file) => Buffer.from(file.contents)));
  return { minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
}

/** Sizes of every export, plus the slices of the main entry. */
export async function measureSizes(): Promise<SizeResult[]> {
  const results: SizeResult[] = [];
  for (const { entry, source } of exportSources()) {
    const size = await bundleSize({ file: source }, entry.endsWith('.css'));
    results.push({ entry, source: relative(ROOT, source), ...size, budget: SIZE_BUDGETS[entry], target: SIZE_TARGETS[entry] });
  }
  const main = exportSources().find((item) => item.entry === '.');
  for (const slice of main ? SLICES : []) {
    const contents = `export { ${slice.exportName} } from ${JSON.stringify('./' + relative(ROOT, main!.source))};`;
    const size = await bundleSize({ contents }, false);
    results.push({ entry: slice.label, source: relative(ROOT, main!.source), ...size });
  }
  return results;
}
