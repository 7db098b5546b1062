import type { Page } from 'playwright-core';

declare global {
  interface Window {
    __ckiCommits?: number;
  }
}

/**
 * Counts React commits in a page through the hook React DevTools uses: React calls
 * `onCommitFiberRoot` once per commit, in production builds too. Install it before the page
 * loads (it must exist when React starts).
 */
export async function countReactCommits(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__ckiCommits = 0;
    const renderers = new Map<number, unknown>();
    (window as unknown as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      isDisabled: false,
      supportsFiber: true,
      renderers,
      inject(renderer: unknown) {
        renderers.set(renderers.size + 1, renderer);
        return renderers.size;
      },
      onCommitFiberRoot() {
        window.__ckiCommits = (window.__ckiCommits ?? 0) + 1;
      },
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
      onScheduleFiberRoot() {},
      checkDCE() {},
    };
  });
}

/** How many commits React made in the page during the next `ms` milliseconds. */
export async function commitsDuring(page: Page, ms: number): Promise<number> {
  const before = await page.evaluate(() => window.__ckiCommits ?? 0);
  await page.waitForTimeout(ms);
  const after = await page.evaluate(() => window.__ckiCommits ?? 0);
  return after - before;
}

/**
 * Waits until React has been idle (no commit) for a whole `windowMs`, trying for `timeoutMs`;
 * returns the commits of the last window (0 once idle). A page that never settles returns the
 * count of its last window, so the assertion shows how busy it was.
 */
export async function settledCommits(page: Page, { windowMs = 1_000, timeoutMs = 10_000 } = {}): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = await commitsDuring(page, windowMs);
  while (last > 0 && Date.now() < deadline) last = await commitsDuring(page, windowMs);
  return last;
}
