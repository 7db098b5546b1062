import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { changedFiles, decide, hashInputs, undeclaredInputs, type Stamp } from '../../../scripts/build-cache.mjs';
import { withDemoSourcesLock } from '../../helpers/demo-sources-lock';

// `npm run demo` starts from its last build when nothing it is built from changed, and says which
// it did. Run for real: `node demo/run.mjs --build-only`, as `npm run demo:build` does. The first
// run builds or reuses (another suite may have built already); the builds it leaves behind are the
// ones `npm run demo` starts from, so the end-to-end suites reuse them.
const ROOT = join(__dirname, '../../..');
const run = async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['demo/run.mjs', '--build-only'], {
    cwd: ROOT,
    env: { ...process.env, FORCE_COLOR: '0' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout + stderr;
};
const REUSED_PAGE = 'Using the last build of the demo page (nothing changed since';
const REUSED_SERVER = 'Using the last build of the demo server (nothing changed since';
const BUILT_SERVER = 'Building the demo server (esbuild; changed since the last build: demo/server/';

describe('npm run demo: the build cache, through demo/run.mjs --build-only', () => {
  it('given a build and nothing changed, should start from the last build of the page and the server', { timeout: 900_000 }, async () => {
    expect(await run()).toMatch(/(Building|Using the last build of) the demo page/);
    const second = await run();
    expect(second).toContain(REUSED_PAGE);
    expect(second).toContain(REUSED_SERVER);
    expect(second).not.toContain('Building');
  });

  it('given a source only touched (same content), should still reuse the build', { timeout: 900_000 }, async () => {
    const file = join(ROOT, 'demo/server/main.ts');
    const { atime } = statSync(file);
    utimesSync(file, atime, new Date());
    const output = await run();
    expect(output).toContain(REUSED_PAGE);
    expect(output).toContain(REUSED_SERVER);
  });

  it(
    'given a file added to the server sources, then removed, should rebuild the server each time and reuse the page',
    { timeout: 900_000 },
    () =>
      // No demo of another suite starts while the probe is in the tree (it would rebuild first).
      withDemoSourcesLock(async () => {
        // A new file in a folder the server is built from (no extension: no tool of the repository reads it).
        const probe = `demo/server/.build-cache-probe-${process.pid}`;
        try {
          writeFileSync(join(ROOT, probe), 'probe\n');
          const added = await run();
          expect(added).toContain(`${BUILT_SERVER}${probe.slice('demo/server/'.length)}`);
          expect(added).toContain(REUSED_PAGE);
        } finally {
          rmSync(join(ROOT, probe), { force: true });
        }
        const removed = await run();
        expect(removed).toContain(`${BUILT_SERVER}${probe.slice('demo/server/'.length)}`);
        expect(removed).toContain(REUSED_PAGE);
        const again = await run();
        expect(again).toContain(REUSED_SERVER);
      }),
  );
});

describe('the build cache: deciding', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'cki-build-cache-'));

  it('given a file changed, added or removed under an input folder, should name it as changed; a missing input counts too', () => {
    const root = folder();
    try {
      writeFileSync(join(root, 'a.ts'), 'a');
      const before = hashInputs(root, ['.', 'missing.json']);
      writeFileSync(join(root, 'a.ts'), 'a2');
      writeFileSync(join(root, 'b.ts'), 'b');
      expect(changedFiles(before, hashInputs(root, ['.', 'missing.json']))).toEqual(['a.ts', 'b.ts']);
      writeFileSync(join(root, 'missing.json'), '{}');
      expect(changedFiles(before, hashInputs(root, ['.', 'missing.json']))).toEqual(['a.ts', 'b.ts', 'missing.json']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('given a stamp, should reuse only when every input and the output match', () => {
    const files = { 'src/a.ts': '1', 'package-lock.json': '2' };
    const stamp: Stamp = { version: 1, builtAt: 5, output: 'out', extra: [], files };
    expect(decide(stamp, { ...files }, 'out')).toEqual({ reuse: true, builtAt: 5 });
    expect(decide(undefined, files, 'out')).toEqual({ reuse: false, reason: 'no earlier build' });
    expect(decide({ ...stamp, version: 0 }, files, 'out')).toMatchObject({ reuse: false });
    expect(decide(stamp, files, undefined)).toMatchObject({ reuse: false, reason: expect.stringContaining('incomplete') });
    expect(decide(stamp, files, 'other')).toMatchObject({ reuse: false });
    expect(decide(stamp, { ...files, 'package-lock.json': '3' }, 'out')).toEqual({
      reuse: false,
      reason: 'changed since the last build: package-lock.json',
    });
    const many = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [`src/${name}.ts`, name]));
    expect(decide(stamp, { ...files, ...many }, 'out')).toEqual({
      reuse: false,
      reason: 'changed since the last build: src/a.ts, src/b.ts, src/c.ts and 2 more',
    });
  });

  it('given the files a build read, should keep as extra inputs only those in the repository outside the declared ones and node_modules', () => {
    const read = [
      join(ROOT, 'src/index.ts'),
      join(ROOT, 'node_modules/react/index.js'),
      `${join(ROOT, 'demo/page/demo.css')}?inline`,
      '\0vite/preload-helper',
      join(ROOT, 'package.json'),
      '/elsewhere/file.ts',
      join(ROOT, 'demo/server/main.ts'),
    ];
    expect(undeclaredInputs(ROOT, read, ['src', 'demo/page'])).toEqual(['demo/server/main.ts', 'package.json']);
  });
});
