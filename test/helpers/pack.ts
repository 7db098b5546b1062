import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface PackedLibrary {
  /** Where the tarball was written. */
  tarball: string;
  /** The tarball's file name, `copilotkit-interrupts-<version>.tgz`. */
  filename: string;
}

/**
 * `npm pack --json` in `dir`, the tarball written to `destination`. npm runs `prepack` (the build)
 * unless `ignoreScripts` says the caller has built already.
 */
export function packLibrary(dir: string, destination: string, { ignoreScripts = false } = {}): PackedLibrary {
  const args = ['pack', '--json', '--pack-destination', destination, ...(ignoreScripts ? ['--ignore-scripts'] : [])];
  const stdout = execFileSync('npm', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // npm prints the `prepack` script's output on stdout too, before the JSON.
  const [{ filename }] = JSON.parse(stdout.slice(stdout.search(/^\[$/m))) as [{ filename: string }];
  return { tarball: join(destination, filename), filename };
}

/** The files inside a tarball, relative to its `package/` folder (directories left out). */
export function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
}

/** Every file an `exports` map names, through every condition (import, require, types, default). */
export function exportedFiles(exports: unknown): string[] {
  const files = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') files.add(value.replace(/^\.\//, ''));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(exports);
  return [...files].sort();
}
