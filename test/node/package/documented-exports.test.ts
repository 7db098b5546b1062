import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every name the README and docs/ say an entry exports is exported by that entry as built (the
// declaration files an app's editor and compiler read), so copying a line of the docs compiles.
const root = new URL('../../..', import.meta.url).pathname;
const PACKAGE = 'copilotkit-interrupts';

interface Claim {
  doc: string;
  entry: string;
  name: string;
}

const docs = () => ['README.md', ...readdirSync(join(root, 'docs')).map((file) => `docs/${file}`)].filter((file) => file.endsWith('.md'));

/** `import { a, type B, c as d } from 'copilotkit-interrupts/x'`, on one line or several. */
function importClaims(doc: string, text: string): Claim[] {
  const claims: Claim[] = [];
  for (const [, names, specifier] of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](copilotkit-interrupts[^'"]*)['"]/g)) {
    for (const part of names.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (name) claims.push({ doc, entry: specifier, name });
    }
  }
  return claims;
}

/**
 * What prose says an entry holds: a table row that starts with the entry and lists its names in
 * backticks (asides in parentheses left out), and "`Name` (`entry`)" or "`Name` (a type of `entry`)".
 */
function proseClaims(doc: string, text: string): Claim[] {
  const claims: Claim[] = [];
  const identifier = (code: string) => /^<?([A-Za-z_$][\w$]*)(?:\.[\w$]+)?(?:\(\))?\/?>?$/.exec(code.trim())?.[1];
  for (const [, entry, cell] of text.matchAll(/^\|\s*`(copilotkit-interrupts[^`]*)`\s*\|(.*)\|\s*$/gm)) {
    if (entry.endsWith('.css')) continue;
    for (const [, code] of cell.replace(/\([^()]*\)/g, '').matchAll(/`([^`]+)`/g)) {
      const name = identifier(code);
      if (name) claims.push({ doc, entry, name });
    }
  }
  for (const [, code, entry] of text.matchAll(/`([^`]+)`\s*\((?:a type of\s+)?`(copilotkit-interrupts[^`]*)`\)/g)) {
    const name = identifier(code);
    if (name) claims.push({ doc, entry, name });
  }
  return claims;
}

/** The names each entry's built declaration file exports, values and types, by entry specifier. */
function builtExports(): Map<string, Set<string>> {
  const exportsMap = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, unknown>;
  const files = new Map<string, string>();
  for (const [key, target] of Object.entries(exportsMap)) {
    const types = (target as { import?: { types?: string } }).import?.types;
    if (types) files.set(key === '.' ? PACKAGE : `${PACKAGE}/${key.slice(2)}`, join(root, types));
  }
  const missing = [...files.values()].filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`The package is not built (no ${missing[0]}): run npm run build first.`);
  // The built declarations alone (entries and the chunks they re-export from): what they name is
  // all that is asked, so the libraries they import need not be read.
  const declarations = readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.d.ts'))
    .map((file) => join(root, 'dist', file));
  const program = ts.createProgram(declarations, {
    noResolve: true,
    noLib: true,
    types: [],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  });
  const checker = program.getTypeChecker();
  return new Map(
    [...files].map(([entry, file]) => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
      return [entry, new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name))];
    }),
  );
}

describe('the names the docs say an entry exports', () => {
  const claims = docs().flatMap((doc) => {
    const text = readFileSync(join(root, doc), 'utf8');
    return [...importClaims(doc, text), ...proseClaims(doc, text)];
  });

  it('should read import lines and entry lists from the docs (the reader finds what it checks)', () => {
    expect(claims.length).toBeGreaterThan(30);
    expect(claims).toContainEqual({ doc: 'docs/security.md', entry: 'copilotkit-interrupts/runtime', name: 'normalizeInterrupts' });
    expect(claims).toContainEqual({ doc: 'docs/security.md', entry: 'copilotkit-interrupts/core', name: 'ResumeRefusal' });
  });

  it('should find every one of them exported by that entry as built', () => {
    const built = builtExports();
    const unknownEntries = claims.filter(({ entry }) => !built.has(entry));
    expect(unknownEntries).toEqual([]);
    const notExported = claims.filter(({ entry, name }) => !built.get(entry)!.has(name));
    expect(notExported).toEqual([]);
  });
});
