// `npm run demo`: builds the page with Vite, bundles the TypeScript server with esbuild, starts it.
// `node demo/run.mjs --build-only` only builds (the page into demo/dist, the server into .demo-build).
// Each part is built only when something it is built from changed since its last build: a restart
// with nothing changed starts the server from the last build (see scripts/build-cache.mjs).
import { build as buildPage } from 'vite';
import { build as bundle } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  decide,
  formatBuiltAt,
  hashInputs,
  outputHash,
  readStamp,
  removeStamp,
  undeclaredInputs,
  withLock,
  writeStamp,
} from '../scripts/build-cache.mjs';

process.env.COPILOTKIT_TELEMETRY_DISABLED ??= 'true';
process.env.MASTRA_TELEMETRY_DISABLED ??= 'true';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const ROOT = here('..');
const BUILD_DIR = join(ROOT, '.demo-build');
const serverFile = join(BUILD_DIR, 'server.mjs');
const pageDir = here('./dist');

// The start takes a while (the build, then loading and starting the runtimes): each step says so.
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

/**
 * The page build is the long step. This Vite plugin says how far it got: every `HEARTBEAT_MS`
 * while modules are transformed ("… 1,234 modules transformed [40 s]"), and once when the bundle is
 * being written. Between the two Rollup tree-shakes without a pause, so no line can come then.
 * It also collects the modules the build read, for the build cache.
 */
const HEARTBEAT_MS = 10_000;
function buildProgress() {
  let modules = 0;
  let read = [];
  const count = () => modules.toLocaleString('en-US');
  const timer = setInterval(() => console.log(`  … ${count()} modules transformed [${seconds()}]`), HEARTBEAT_MS);
  return {
    plugin: {
      name: 'demo-build-progress',
      transform() {
        modules++;
      },
      buildEnd() {
        clearInterval(timer);
        read = [...this.getModuleIds()];
        console.log(`  … ${count()} modules transformed and tree-shaken; writing the bundle [${seconds()}]`);
      },
    },
    read: () => read,
    stop: () => clearInterval(timer),
  };
}

/** What every part is built from besides its own sources: the installed packages and the build's own settings. */
const SHARED_INPUTS = [
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'tsconfig.json',
  'demo/run.mjs',
  'scripts/build-cache.mjs',
];

const PARTS = [
  {
    label: 'demo page',
    tool: 'Vite',
    // The page imports the library from its source folders.
    inputs: ['demo/page', 'demo/vite.config.ts', 'src', 'hooks', 'components', ...SHARED_INPUTS],
    stamp: join(BUILD_DIR, 'page.stamp.json'),
    output: join(pageDir, 'index.html'),
    async build() {
      const progress = buildProgress();
      try {
        await buildPage({ configFile: here('./vite.config.ts'), logLevel: 'warn', plugins: [progress.plugin] });
      } finally {
        progress.stop();
      }
      return progress.read();
    },
  },
  {
    label: 'demo server',
    tool: 'esbuild',
    inputs: ['demo/server', 'src', ...SHARED_INPUTS],
    stamp: join(BUILD_DIR, 'server.stamp.json'),
    output: serverFile,
    async build() {
      const result = await bundle({
        absWorkingDir: ROOT,
        entryPoints: [here('./server/main.ts')],
        outfile: serverFile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        logLevel: 'warning',
        metafile: true,
        write: false,
      });
      // Written whole and renamed into place: a server starting meanwhile loads the old bundle or
      // the new one, never half of one.
      mkdirSync(BUILD_DIR, { recursive: true });
      const temporary = `${serverFile}.${process.pid}.tmp`;
      writeFileSync(temporary, result.outputFiles[0].contents);
      renameSync(temporary, serverFile);
      return Object.keys(result.metafile.inputs).map((input) => join(ROOT, input));
    },
  },
];

/** Reuses the part's last build when none of its inputs changed since; otherwise builds it. */
async function buildOrReuse(part) {
  const stamp = readStamp(part.stamp);
  const decision = decide(stamp, hashInputs(ROOT, part.inputs, stamp?.extra ?? []), outputHash(part.output));
  if (decision.reuse) {
    console.log(`Using the last build of the ${part.label} (nothing changed since ${formatBuiltAt(decision.builtAt)}).`);
    return;
  }
  console.log(`Building the ${part.label} (${part.tool}; ${decision.reason})… [${seconds()}]`);
  removeStamp(part.stamp);
  // Hashed before the build: a file edited while it runs is seen as changed at the next start.
  const declared = hashInputs(ROOT, part.inputs);
  const read = await part.build();
  const extra = undeclaredInputs(ROOT, read, part.inputs);
  writeStamp(part.stamp, { files: { ...declared, ...hashInputs(ROOT, [], extra) }, extra, output: outputHash(part.output) });
}

await withLock(
  join(BUILD_DIR, 'lock'),
  async () => {
    for (const part of PARTS) await buildOrReuse(part);
  },
  { onWait: () => console.log('Another start of the demo is building it; waiting for that build…') },
);

if (process.argv.includes('--build-only')) {
  console.log(`The demo page (demo/dist) and server (.demo-build/server.mjs) are ready. [${seconds()}]`);
} else {
  process.env.DEMO_STATIC_DIR ??= pageDir;
  process.env.DEMO_STARTED_AT ??= String(started);
  console.log(`Loading the server's modules (CopilotKit runtime, Mastra, LangGraph)… [${seconds()}]`);
  await import(pathToFileURL(serverFile).href);
}
