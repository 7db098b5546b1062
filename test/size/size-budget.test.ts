/**
 * Size ceilings (gzipped, minified, peers external), enforced in `npm test`. Size is not a timing:
 * it is deterministic, so it may fail the build. The numbers come from the same code as
 * `npm run bench` (bench/size.ts), which bundles each package export from source with esbuild;
 * no `dist/` needed. Each ceiling is the entry's measurement in `SIZE_MEASURED` plus 10 %: a fix
 * that needs more raises that line, with the new measurement in its commit. CopilotKit's chat,
 * the bench's yardstick, is not bundled here (it takes seconds).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CARD_ALONE, exportSources, measureSizes, SIZE_BUDGETS, SIZE_MEASURED, TYPICAL_APP, type SizeResult } from '../../bench/size';

let sizes: SizeResult[];

beforeAll(async () => {
  sizes = await measureSizes();
});

describe('size ceilings (min + gzip)', () => {
  for (const [entry, budget] of Object.entries(SIZE_BUDGETS)) {
    it(`given ${entry}, should weigh at most ${budget} B gzipped (${SIZE_MEASURED[entry]} B measured + 10 %)`, () => {
      const size = sizes.find((item) => item.entry === entry);
      expect(size, `${entry} is not in package.json exports`).toBeDefined();
      if (!size) return;
      expect(size.gzipped, `${entry} (${size.source}) is ${size.gzipped} B gzipped`).toBeLessThanOrEqual(budget);
    });
  }

  it('given every entry package.json exports, should have a ceiling (one line in SIZE_MEASURED)', () => {
    const unbudgeted = exportSources()
      .map(({ entry }) => entry)
      .filter((entry) => SIZE_BUDGETS[entry] === undefined);
    expect(unbudgeted, 'entries that ship without a size ceiling').toEqual([]);
  });

  it('tree-shaking: one card imported alone weighs less than the whole entry', () => {
    const whole = sizes.find((item) => item.entry === CARD_ALONE.entry);
    const alone = sizes.find((item) => item.entry === CARD_ALONE.label);
    expect(whole).toBeDefined();
    expect(alone).toBeDefined();
    expect(alone!.gzipped).toBeLessThan(whole!.gzipped);
  });

  it('on demand: an app using the hook loads no card until the hook mounts', () => {
    const typical = sizes.find((item) => item.entry === TYPICAL_APP.label);
    const cards = typical?.modules.filter((path) => /^components\/[^/]+-card\//.test(path));
    expect(cards, 'card modules in the first load').toEqual([]);
    expect(typical?.modules).toContain('components/interrupt-renderers.tsx');
    expect(typical?.onDemand).toBeGreaterThan(0);
  });
});
