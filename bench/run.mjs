// `npm run bench [-- --json] [-- --only size,unwrap,...]`: bundles bench/main.ts with esbuild
// (the repo has no TypeScript runner) into node_modules/.cache and runs it with Node.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'node_modules', '.cache', 'copilotkit-interrupts-bench');
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, 'main.mjs');
await build({
  entryPoints: [join(root, 'bench', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(result.status ?? 1);
