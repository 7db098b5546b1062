// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The dependency direction is one way: src <- hooks <- components <- demo/stories.
const root = join(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  const abs = join(root, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(abs, name);
    if (statSync(path).isDirectory()) return sourceFiles(relative(root, path));
    return /\.(ts|tsx)$/.test(name) ? [relative(root, path)] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

/** The folders under components/ that hold one card each (all but the shared kit and the host). */
function cardFolders(): string[] {
  return readdirSync(join(root, 'components'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'shared' && entry.name !== 'host')
    .map((entry) => entry.name);
}

function offenders(dir: string, forbidden: RegExp): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden.test(spec))
      .map((spec) => `${file} imports ${spec}`),
  );
}

/**
 * The floors of src/, lowest first. A part of src/ (a folder; the files at its top together;
 * the core entry) imports only parts on a lower floor: never one on its own floor or above, so
 * the parts cannot import each other in a circle. A new folder gets a floor here.
 */
const SRC_FLOORS: readonly (readonly string[])[] = [
  // The published protocol, and the leaves every part may use (the console prefix, listeners, error text).
  ['protocol', 'top files'],
  // What the browser and the server both read of an interrupt: guards, reasons and ids, shapes, untrusted JSON.
  ['wire'],
  ['unwrap', 'backends', 'session', 'i18n'],
  ['registry', 'history', 'time-slots', 'notice', 'runtime'],
  ['controller', 'mastra'],
  ['inbox'],
  ['runner'],
  ['core entry'],
];

/** The part of src/ a file or import target belongs to: its folder, or one of the files at the top. */
function partOf(path: string): string {
  const rest = path.slice('src/'.length).replace(/\.(ts|tsx)$/, '');
  if (rest.includes('/')) return rest.slice(0, rest.indexOf('/'));
  if (rest === 'index') return 'core entry';
  return statSync(join(root, 'src', rest), { throwIfNoEntry: false })?.isDirectory() ? rest : 'top files';
}

const floorOf = (part: string): number | undefined => {
  const floor = SRC_FLOORS.findIndex((parts) => parts.includes(part));
  return floor === -1 ? undefined : floor;
};

describe('layering', () => {
  it('keeps src/ free of React and of the layers above it', () => {
    expect(offenders('src', /^react(-dom)?($|\/)|^@copilotkit\/react|(^|\/)(hooks|components|demo|stories)\//)).toEqual([]);
  });

  it('keeps src/session/ free of React and CopilotKit: the lifecycle is plain TypeScript', () => {
    expect(offenders('src/session', /^react(-dom)?($|\/)|^@copilotkit\/|^@ag-ui\//)).toEqual([]);
  });

  it('keeps src/backends/ framework-free and below the middleware: no React, no CopilotKit, no middleware or agent patching', () => {
    expect(sourceFiles('src/backends').length).toBeGreaterThan(0);
    expect(
      offenders(
        'src/backends',
        /^react(-dom)?($|\/)|^@copilotkit\/|(^|\/)runtime\/(normalize-interrupts|with-normalized-interrupts|index)($|\.)/,
      ),
    ).toEqual([]);
  });

  it('keeps each backend module from importing another: they share only the files at the top of src/backends/', () => {
    const modules = readdirSync(join(root, 'src/backends'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(modules.length).toBeGreaterThan(1);
    const crossings = modules.flatMap((name) =>
      sourceFiles(`src/backends/${name}`).flatMap((file) =>
        importsOf(file)
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => normalize(join(dirname(file), spec)))
          .filter((target) =>
            modules.some((other) => other !== name && (target === `src/backends/${other}` || target.startsWith(`src/backends/${other}/`))),
          )
          .map((target) => `${file} imports ${target}`),
      ),
    );
    expect(crossings).toEqual([]);
    // The shared files import no backend module either: only the list in src/backends/index.ts names them.
    const shared = sourceFiles('src/backends').filter(
      (file) => !file.slice('src/backends/'.length).includes('/') && !file.endsWith('/index.ts'),
    );
    const sharedImports = shared.flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => normalize(join(dirname(file), spec)))
        .filter((target) => modules.some((name) => target === `src/backends/${name}` || target.startsWith(`src/backends/${name}/`)))
        .map((target) => `${file} imports ${target}`),
    );
    expect(sharedImports).toEqual([]);
  });

  it('keeps the middleware the one that imports backends: nothing in src/ but src/runtime/ does', () => {
    const importers = sourceFiles('src')
      .filter((file) => !file.startsWith('src/backends/'))
      .filter((file) =>
        importsOf(file).some((spec) => spec.startsWith('.') && normalize(join(dirname(file), spec)).startsWith('src/backends')),
      );
    expect(importers.filter((file) => !file.startsWith('src/runtime/'))).toEqual([]);
  });

  it('keeps src/wire/ safe for the browser and the server alike: no Node built-in, no package', () => {
    expect(sourceFiles('src/wire').length).toBeGreaterThan(0);
    expect(offenders('src/wire', /^(node:|[^.])/)).toEqual([]);
  });

  it('gives every part of src/ a floor', () => {
    const parts = new Set(sourceFiles('src').map(partOf));
    expect([...parts].filter((part) => floorOf(part) === undefined)).toEqual([]);
  });

  it('keeps src/ in floors: a part of src/ imports only parts on floors below its own, so no import goes up and none closes a cycle', () => {
    const crossings = sourceFiles('src').flatMap((file) => {
      const from = partOf(file);
      return importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => normalize(join(dirname(file), spec)))
        .filter((target) => target.startsWith('src/') && partOf(target) !== from)
        .filter((target) => !((floorOf(partOf(target)) ?? Infinity) < (floorOf(from) ?? -Infinity)))
        .map(
          (target) =>
            `${file} (${from}, floor ${floorOf(from)}) imports ${target} (${partOf(target)}, floor ${floorOf(partOf(target))}): ` +
            'move the shared part down a floor (src/wire/ holds what the browser and the server both read), or this part up',
        );
    });
    expect(crossings).toEqual([]);
  });

  it('keeps hooks/ to hooks and their plain helpers: no components (.tsx) live there', () => {
    expect(sourceFiles('hooks').filter((file) => file.endsWith('.tsx'))).toEqual([]);
  });

  it('keeps hooks/ to what React runs: no class lives there (a framework-free one belongs in src/)', () => {
    const classes = sourceFiles('hooks').filter((file) => /^export (abstract )?class /m.test(readFileSync(join(root, file), 'utf8')));
    expect(classes).toEqual([]);
  });

  it('keeps src/controller/ free of React: the cards read it through hooks', () => {
    expect(sourceFiles('src/controller').length).toBeGreaterThan(0);
    expect(offenders('src/controller', /^react(-dom)?($|\/)|^@copilotkit\/react/)).toEqual([]);
  });

  it('keeps hooks/ from importing components, demo or stories', () => {
    expect(offenders('hooks', /(^|\/)(components|demo|stories)\//)).toEqual([]);
  });

  it('gives every card a folder of its own, named like its component file', () => {
    const cards = cardFolders();
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.filter((folder) => !sourceFiles(`components/${folder}`).includes(`components/${folder}/${folder}.tsx`))).toEqual([]);
  });

  it('keeps each card folder from importing another card: they share components/shared and the fallback', () => {
    // The fallback card is the one exception: every card shows it for a payload it cannot read.
    const cards = cardFolders().filter((folder) => folder !== 'fallback-interrupt-card');
    const crossings = cardFolders().flatMap((folder) =>
      sourceFiles(`components/${folder}`).flatMap((file) =>
        importsOf(file)
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => normalize(join(dirname(file), spec)))
          .filter((target) => cards.some((other) => other !== folder && target.startsWith(`components/${other}/`)))
          .map((target) => `${file} imports ${target}`),
      ),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps components/ from importing demo or stories', () => {
    expect(offenders('components', /(^|\/)(demo|stories)\//)).toEqual([]);
  });
});
