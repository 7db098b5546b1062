// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The Layout in docs/contributing.md is how a newcomer finds their way: it must name every folder of the tree
// (and the card folders under components/), and name nothing that is not there.
const root = join(__dirname, '../../..');
const doc = readFileSync(join(root, 'docs/contributing.md'), 'utf8');
const layout = /<!-- layout -->\n```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';

/** The folder each Layout line starts with, e.g. `components/host/`. */
const listed = layout
  .split('\n')
  .map((line) => /^(\S+\/)\s/.exec(line)?.[1])
  .filter((path): path is string => path !== undefined);

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const foldersAt = (prefix: string) => [
  ...new Set(
    tracked
      .filter((file) => file.startsWith(prefix) && file.slice(prefix.length).includes('/'))
      .map((file) => prefix + file.slice(prefix.length).split('/')[0] + '/'),
  ),
];

describe('docs/contributing.md Layout', () => {
  it('given docs/contributing.md, should have a Layout block listing folders', () => {
    expect(listed.length).toBeGreaterThan(5);
  });

  it('should name every top-level folder of the repository', () => {
    expect(foldersAt('').filter((folder) => !listed.includes(folder))).toEqual([]);
  });

  it('should name every folder under components/, one line per card folder or the <card> pattern', () => {
    const cards = foldersAt('components/').filter((folder) => folder !== 'components/shared/' && folder !== 'components/host/');
    expect(listed).toEqual(expect.arrayContaining(['components/shared/', 'components/host/']));
    // The card folders are named on the `components/<card>/` line.
    const cardLine = layout.split('\n').findIndex((line) => line.startsWith('components/<card>/'));
    const cardText = layout
      .split('\n')
      .slice(cardLine, cardLine + 2)
      .join(' ');
    expect(cards.filter((folder) => !cardText.includes(folder.slice('components/'.length)))).toEqual([]);
  });

  it('should name no folder that does not exist', () => {
    expect(listed.filter((folder) => !folder.includes('<') && !existsSync(join(root, folder)))).toEqual([]);
  });
});
