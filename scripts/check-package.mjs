// Checks the built package the way a consumer meets it: its files, publint, arethetypeswrong,
// and a real `import()` and `require()` of every entry from a Node process.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// `npm test` builds before this script runs: packing here skips `prepack` (the build) so the
// files checked are that build's.
const noScripts = { ...process.env, npm_config_ignore_scripts: 'true' };
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit', env: noScripts });

run('npx', ['--no-install', 'publint', '--strict']);

// What a consumer downloads: the licence and the README travel with the code.
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' }));
const packedFiles = new Set(packed.files.map((file) => file.path));
for (const required of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/styles.css']) {
  if (!packedFiles.has(required)) {
    console.error(`FAIL the package would ship without ${required}`);
    process.exit(1);
  }
}
console.log(`ok the package ships ${packedFiles.size} files, LICENSE and README.md among them`);
// Stylesheet exports have no JavaScript or types for attw to resolve; the loop below skips them too.
const cssEntries = Object.keys(pkg.exports).filter((key) => key.endsWith('.css'));
run('npx', [
  '--no-install',
  'attw',
  '--pack',
  '.',
  '--profile',
  'node16',
  ...(cssEntries.length > 0 ? ['--exclude-entrypoints', ...cssEntries] : []),
]);

// Entries whose code needs a browser-ish React tree still load in Node (they only define components).
// The React entry pulls in CopilotKit's stylesheet: load CSS as empty modules, as a bundler would.
await import('./css-loader.mjs');
const require = createRequire(import.meta.url);
const entries = Object.keys(pkg.exports).filter((key) => key !== './package.json' && !key.endsWith('.css'));
let failures = 0;
for (const entry of entries) {
  const specifier = entry === '.' ? pkg.name : `${pkg.name}/${entry.slice(2)}`;
  try {
    const esm = await import(specifier);
    const cjs = require(specifier);
    const esmKeys = Object.keys(esm)
      .filter((k) => k !== 'default' && k !== 'module.exports')
      .sort();
    const cjsKeys = Object.keys(cjs).sort();
    if (esmKeys.length === 0) throw new Error('the ESM build exports nothing');
    if (esmKeys.join() !== cjsKeys.join()) throw new Error(`ESM and CJS export different names:\n  esm: ${esmKeys}\n  cjs: ${cjsKeys}`);
    console.log(`ok ${specifier}: import() and require() give the same ${esmKeys.length} exports`);
  } catch (error) {
    failures++;
    console.error(`FAIL ${specifier}: ${error instanceof Error ? error.message : error}`);
  }
}
if (failures > 0) process.exit(1);
