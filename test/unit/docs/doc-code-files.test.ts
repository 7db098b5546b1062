// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// A code block marked `<!-- <path> -->` in a doc is that file of the repository, which the
// typecheck compiles and the tests run: what a reader copies is what was tested.
const root = join(__dirname, '../../..');
const docs = readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md'));

const marked = docs.flatMap((page) => {
  const text = readFileSync(join(root, 'docs', page), 'utf8');
  return [...text.matchAll(/<!-- ((?:src|test|examples|demo)\/[^ ]+\.\w+) -->\n```\w*\n([\s\S]*?)```/g)].map((m) => ({
    page,
    path: m[1],
    block: m[2],
  }));
});

describe('code blocks in docs/ taken from files', () => {
  it('given docs/backends.md, should show the fake backend of the tests', () => {
    expect(marked.map(({ page, path }) => `${page}: ${path}`)).toContain('backends.md: test/node/runtime/acme-backend.ts');
  });

  it.each(marked.map((item) => [`${item.page}: ${item.path}`, item] as const))('should show %s exactly as the file is', (_name, item) => {
    expect(item.block).toBe(readFileSync(join(root, item.path), 'utf8'));
  });
});
