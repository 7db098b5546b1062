import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportedFiles, packLibrary, tarballFiles } from '../../helpers/pack';

// The package as `npm pack` (and so `npm publish`) makes it from a fresh clone: nothing built yet,
// so the tarball holds code only if `prepack` builds it.
const root = new URL('../../..', import.meta.url).pathname;

let work: string;
let clone: string;
let builtBeforePacking: boolean;
let packed: { tarball: string; files: string[]; exports: unknown };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'cki-clone-'));
  clone = join(work, 'repo');
  execFileSync('git', ['clone', '--quiet', '--no-checkout', root, clone]);
  execFileSync('git', ['checkout', '--quiet', execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()], {
    cwd: clone,
  });
  // The installed dependencies, not a second install from the network.
  symlinkSync(realpathSync(join(root, 'node_modules')), join(clone, 'node_modules'));
  builtBeforePacking = existsSync(join(clone, 'dist'));
  const destination = join(work, 'out');
  mkdirSync(destination);
  const { tarball } = packLibrary(clone, destination);
  packed = {
    tarball,
    files: tarballFiles(tarball),
    exports: JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).exports,
  };
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm pack on a fresh clone', () => {
  it('given a clone with nothing built, should build before packing (prepack)', () => {
    expect(builtBeforePacking).toBe(false);
    expect(packed.files.filter((file) => file.startsWith('dist/')).length).toBeGreaterThan(0);
  });

  it('should put every file package.json `exports` names into the tarball, for every condition', () => {
    const named = exportedFiles(packed.exports);
    // The map names code, types, the stylesheet and the locales: the walk found them all.
    expect(named).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/styles.css']));
    expect(named.some((file) => file.startsWith('dist/locales/'))).toBe(true);
    expect(named.filter((file) => !packed.files.includes(file))).toEqual([]);
  });

  it('should ship no empty file among those `exports` names', () => {
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', packed.tarball, '-C', unpacked, '--strip-components=1']);
    const empty = exportedFiles(packed.exports).filter((file) => statSync(join(unpacked, file)).size === 0);
    expect(empty).toEqual([]);
  });

  it('should ship the licence and the README with the code', () => {
    expect(packed.files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
  });
});
