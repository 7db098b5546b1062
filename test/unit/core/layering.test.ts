import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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

function offenders(dir: string, forbidden: RegExp): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden.test(spec))
      .map((spec) => `${file} imports ${spec}`),
  );
}

describe('layering', () => {
  it('keeps src/ free of React and of the layers above it', () => {
    expect(offenders('src', /^react(-dom)?($|\/)|^@copilotkit\/react|(^|\/)(hooks|components|demo|stories)\//)).toEqual([]);
  });

  it('keeps src/session/ free of React and CopilotKit: the lifecycle is plain TypeScript', () => {
    expect(offenders('src/session', /^react(-dom)?($|\/)|^@copilotkit\/|^@ag-ui\//)).toEqual([]);
  });

  it('keeps hooks/ to hooks and their plain helpers: no components (.tsx) live there', () => {
    expect(sourceFiles('hooks').filter((file) => file.endsWith('.tsx'))).toEqual([]);
  });

  it('keeps hooks/ from importing components, demo or stories', () => {
    expect(offenders('hooks', /(^|\/)(components|demo|stories)\//)).toEqual([]);
  });

  it('keeps components/ from importing demo or stories', () => {
    expect(offenders('components', /(^|\/)(demo|stories)\//)).toEqual([]);
  });
});
