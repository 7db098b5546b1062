// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// One word per meaning in src/: one test of "is this an object", one way an error becomes text.
const root = join(__dirname, '../../..');

/**
 * Files that still keep a copy of their own, to be taken off once they use the shared one. The list
 * may only shrink; it is empty now.
 */
const KNOWN_COPIES: string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [relative(root, path)] : [];
  });
}

/** The files of src/ (but `home`, and the known copies) whose text matches `pattern`. */
function copiesOf(pattern: RegExp, home: string): string[] {
  return sourceFiles(join(root, 'src'))
    .filter((file) => file !== home && !KNOWN_COPIES.includes(file))
    .filter((file) => pattern.test(readFileSync(join(root, file), 'utf8')));
}

describe('one vocabulary in src/', () => {
  it('given a test of "is this an object", should find it only in src/wire/guards.ts (isRecord)', () => {
    expect(copiesOf(/typeof \w+ === 'object' && \w+ !== null/, 'src/wire/guards.ts')).toEqual([]);
  });

  it('given an error to put in a sentence, should find it turned into text only by src/error-message.ts (errorMessage)', () => {
    expect(copiesOf(/instanceof Error\s*\?|\.message\s*\|\|/, 'src/error-message.ts')).toEqual([]);
  });

  it('given the list of known copies, should hold only files that still have one', () => {
    const copy = /typeof \w+ === 'object' && \w+ !== null|instanceof Error\s*\?|\.message\s*\|\|/;
    expect(KNOWN_COPIES.filter((file) => !copy.test(readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });
});
