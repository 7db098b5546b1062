// `npm run demo`: builds the page with Vite, bundles the TypeScript server with esbuild, starts it.
// `node demo/run.mjs --build-only` only builds (the page into demo/dist, the server into .demo-build).
import { build as buildPage } from 'vite';
import { build as bundle } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';

process.env.COPILOTKIT_TELEMETRY_DISABLED ??= 'true';
process.env.MASTRA_TELEMETRY_DISABLED ??= 'true';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const serverFile = here('../.demo-build/server.mjs');

console.log('Building the demo page…');
await buildPage({ configFile: here('./vite.config.ts'), logLevel: 'warn' });
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
  await import(pathToFileURL(serverFile).href);
}
