import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// A comment or a doc that sends the reader to a document outside the repository (the product
// spec, the research notes, the source documents) is a dead end for everyone else.
const root = join(__dirname, '../../..');
const OUTSIDE = /\bSPEC(\.md)?\b(?!\w)|REFERENCE\.md|\bseeds\/|\b[Tt]he seed('s)?\b|\b[Ss]eed (article|document)/;

const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs', '*.js', '*.md', '*.css', '.ci/run'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file && !file.startsWith('examples/nextjs/node_modules') && file !== 'test/unit/docs/no-outside-citations.test.ts');

describe('citations', () => {
  it('given the tracked sources and docs, should cite no document outside the repository', () => {
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
