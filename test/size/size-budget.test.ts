/**
 * Size budgets (gzipped, minified, peers external), enforced in `npm test`. Size is not a timing:
 * it is deterministic, so it may fail the build. The numbers come from the same code as
 * `npm run bench` (bench/size.ts), which bundles each package export from source with esbuild;
 * no `dist/` needed. Budgets live in `SIZE_BUDGETS`; see bench/README.md before changing them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CARD_ALONE, measureSizes, SIZE_BUDGETS, TYPICAL_APP, type SizeResult } from '../../bench/size';

let sizes: SizeResult[];

beforeAll(async () => {
  sizes = await measureSizes();
});

describe('size budgets (min + gzip)', () => {
  for (const [entry, budget] of Object.entries(SIZE_BUDGETS)) {
    it(`${entry} <= ${budget} bytes`, () => {
      const size = sizes.find((item) => item.entry === entry);
      expect(size, `${entry} is not in package.json exports`).toBeDefined();
      if (!size) return;
      expect(size.gzipped, `${entry} (${size.source}) is ${size.gzipped} B gzipped`).toBeLessThanOrEqual(budget);
    });
  }

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
