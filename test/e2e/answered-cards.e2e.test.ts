import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type LaunchedBrowser } from '../helpers/chromium';
import { serveStatic } from '../helpers/static-server';
import { storybookBuild } from '../helpers/storybook-build';

// Each card's answered state, as a user sees it in real Chromium at chat width: the story is
// drawn from a static Storybook build, the card screenshotted, and the answer checked on screen.

const root = join(__dirname, '../..');
const shots = join(root, 'test-results', 'answered-cards');
const ISO_DATE_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
interface Shot {
  /** Storybook id of the answered story. */
  story: string;
  /** The answer text the summary must show. */
  answer: string | RegExp;
  /** The whole answer fits the summary (not cut, not clipped). */
  whole: boolean;
  /** The story's play function opens the Details itself. */
  playOpensDetails?: boolean;
}

const SHOTS: Shot[] = [
  { story: 'cards-timepickercard--resolved', answer: 'Monday 3:30 PM', whole: true },
  { story: 'cards-timepickercard--resolved-without-label', answer: 'Tomorrow 2:00 PM', whole: true },
  { story: 'cards-timepickercard--resolved-unoffered-time', answer: /Dec 5, 2026/, whole: true, playOpensDetails: true },
  {
    story: 'cards-timepickercard--resolved-long-label',
    answer: 'Tomorrow 10:00 AM (Pacific Daylight Time, room 4B, subject to the booking system)',
    whole: true,
  },
  { story: 'cards-timepickercard--cancelled', answer: 'No time picked.', whole: true },
  { story: 'cards-toolapprovalcard--rejected-long-reason', answer: /^delete_files — Web app first, .* the audit ends\.$/, whole: true },
  { story: 'cards-toolapprovalcard--resolved-edited', answer: 'deploy_service — Edited arguments', whole: true, playOpensDetails: true },
  { story: 'cards-userquestioncard--answered', answer: 'optimized · Go, Rust · Nothing', whole: true },
  {
    story: 'cards-userquestioncard--answered-long',
    answer: /^optimized · Java, Go, Python · Web app first, .* the audit ends\.$/,
    whole: true,
  },
  { story: 'cards-userquestioncard--answered-date', answer: /Dec 5, 2026/, whole: true, playOpensDetails: true },
  { story: 'cards-fallbackinterruptcard--resolved', answer: 'acme:confirm_deploy', whole: true },
];

describe('answered cards in Chromium at chat width', () => {
  let browser: LaunchedBrowser;
  let site: { server: Server; url: string };
  let built: string;
  let page: Page;

  beforeAll(async () => {
    // The README's static build, shared with the suite that checks it (built once, reused while fresh).
    built = (await storybookBuild()).dir;
    site = await serveStatic(built);
    browser = await launchChromium();
    page = await browser.browser.newPage();
    // A chat sidebar's width: where a summary cut to one line lost its answer.
    await page.setViewportSize({ width: 400, height: 800 });
    mkdirSync(shots, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    site?.server.close();
  });

  it.each(SHOTS)(
    '$story: the summary shows the answer, and nothing reads as ISO text',
    async ({ story, answer, whole, playOpensDetails }) => {
      await page.goto(`${site.url}/iframe.html?id=${story}&viewMode=story`);
      const card = page.locator('.cki-card--readonly').first();
      await card.waitFor({ state: 'visible', timeout: 15_000 });
      const shown = page.getByTestId('read-only-answer').first();
      await shown.waitFor({ state: 'visible' });
      await card.screenshot({ path: join(shots, `${story}.png`) });

      const text = (await shown.textContent()) ?? '';
      if (typeof answer === 'string') expect(text).toBe(answer);
      else expect(text).toMatch(answer);
      const box = await shown.evaluate((el) => ({
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
        scrollHeight: el.scrollHeight,
        clientHeight: el.clientHeight,
        width: el.getBoundingClientRect().width,
      }));
      // On screen and laid out whole: neither cut with an ellipsis nor clipped.
      expect(box.width).toBeGreaterThan(100);
      if (whole) {
        expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
        expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight + 1);
      }
      // And the details, opened, show dates as dates.
      if (!playOpensDetails) await page.getByRole('button', { name: 'Details' }).first().click();
      await page.getByTestId('read-only-details').first().waitFor({ state: 'visible' });
      expect(await page.locator('#storybook-root').textContent()).not.toMatch(ISO_DATE_TIME);
      await card.screenshot({ path: join(shots, `${story}--details.png`) });
    },
  );

  it('a pending approval with many long arguments: each one on screen by name, without a click', async () => {
    await page.goto(`${site.url}/iframe.html?id=cards-toolapprovalcard--many-long-args&viewMode=story`);
    const card = page.getByTestId('approval-card');
    await card.waitFor({ state: 'visible', timeout: 15_000 });
    await card.screenshot({ path: join(shots, 'cards-toolapprovalcard--many-long-args.png') });
    for (const name of ['service', 'replicas', 'region', 'dryRun', 'startAt', 'notes', 'env', 'image']) {
      const term = page.locator('[data-testid="approval-args"] dt', { hasText: new RegExp(`^${name}$`) });
      expect(await term.isVisible()).toBe(true);
    }
    expect(await card.textContent()).not.toMatch(ISO_DATE_TIME);
  });
});
