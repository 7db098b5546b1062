import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The README is the front door: short, and a map to every page of docs/. A link a reader follows
// must lead somewhere.
const root = join(__dirname, '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pages = readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md'));

/** Relative link targets of a Markdown text, without their `#fragment`. */
const linksOf = (text: string) =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]);

describe('the documentation map', () => {
  it('given the README, should stay under 10 kB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(10 * 1024);
  });

  it('should link every page of docs/ from the README', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((page) => !readme.includes(`(docs/${page})`))).toEqual([]);
  });

  it.each(['README.md', ...pages.map((page) => `docs/${page}`)])('should have %s link only to files that exist', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const broken = linksOf(text).filter((target) => !existsSync(join(root, dirname(file), target)));
    expect(broken).toEqual([]);
  });
});
