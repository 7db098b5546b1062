// @vitest-environment node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// docs/nextjs.md's files are the example's files, which `npm test` builds and runs: what a
// newcomer copies is what was tested.
const root = join(__dirname, '../../..');
const doc = readFileSync(join(root, 'docs/nextjs.md'), 'utf8');

/** The code block right after `<!-- path -->` in the doc. */
function blockFor(path: string): string | undefined {
  const marker = `<!-- ${path} -->\n`;
  const at = doc.indexOf(marker);
  if (at < 0) return undefined;
  const match = /^```\w*\n([\s\S]*?)```/.exec(doc.slice(at + marker.length));
  return match?.[1];
}

describe('docs/nextjs.md code taken from examples/', () => {
  const marked = [...doc.matchAll(/<!-- (examples\/[^ ]+) -->/g)].map((m) => m[1]);

  it('marks at least the Next.js page and runtime route', () => {
    expect(marked).toEqual(
      expect.arrayContaining(['examples/nextjs/app/page.tsx', 'examples/nextjs/app/api/copilotkit/[[...slug]]/route.ts']),
    );
  });

  it.each(marked)('shows %s exactly as the file is', (path) => {
    expect(blockFor(path)).toBe(readFileSync(join(root, path), 'utf8'));
  });
});
