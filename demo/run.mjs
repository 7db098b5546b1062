// `npm run demo`: builds the page with Vite, bundles the TypeScript server with esbuild, starts it.
// `node demo/run.mjs --build-only` only builds (the page into demo/dist, the server into .demo-build).
import { build as buildPage } from 'vite';
import { build as bundle } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';

process.env.COPILOTKIT_TELEMETRY_DISABLED ??= 'true';
process.env.MASTRA_TELEMETRY_DISABLED ??= 'true';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const serverFile = here('../.demo-build/server.mjs');

// The start takes a while (the build, then loading and starting the runtimes): each step says so.
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

/**
 * The page build is the long step. This Vite plugin says how far it got: every `HEARTBEAT_MS`
 * while modules are transformed ("… 1,234 modules transformed [40 s]"), and once when the bundle is
 * being written. Between the two Rollup tree-shakes without a pause, so no line can come then.
 */
const HEARTBEAT_MS = 10_000;
function buildProgress() {
  let modules = 0;
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
        console.log(`  … ${count()} modules transformed and tree-shaken; writing the bundle [${seconds()}]`);
      },
    },
    stop: () => clearInterval(timer),
  };
}

console.log('Building the demo page (Vite)…');
const progress = buildProgress();
try {
  await buildPage({ configFile: here('./vite.config.ts'), logLevel: 'warn', plugins: [progress.plugin] });
} finally {
  progress.stop();
}
console.log(`Bundling the demo server (esbuild)… [${seconds()}]`);
await bundle({
  entryPoints: [here('./server/main.ts')],
  outfile: serverFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});

if (process.argv.includes('--build-only')) {
  console.log('Built demo/dist and .demo-build/server.mjs.');
} else {
  process.env.DEMO_STATIC_DIR ??= here('./dist');
  process.env.DEMO_STARTED_AT ??= String(started);
  console.log(`Loading the server's modules (CopilotKit runtime, Mastra, LangGraph)… [${seconds()}]`);
  await import(pathToFileURL(serverFile).href);
}
