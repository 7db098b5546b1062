import type { Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchHeadfulChromium, type HeadfulChromium } from '../helpers/chromium';
import { serveStatic } from '../helpers/static-server';
import { storybookBuild } from '../helpers/storybook-build';

// The waiting notice as a user meets it in real Chromium: the agent's card opens while the user
// looks at another tab, and the tab's title says so until the card is answered. Only a headful
// Chromium (here on an Xvfb display) reports a background tab hidden.

const STORY = 'integration-waiting-notice-in-copilotchat--look-away-while-the-agent-thinks';
const PAGE_TITLE = 'Acme support';
const WAITING = `(1) Waiting for you · ${PAGE_TITLE}`;

const visibility = (page: Page) => page.evaluate(() => document.visibilityState);

describe('the waiting notice in a real, headful Chromium', () => {
  let chromium: HeadfulChromium;
  let site: { server: Server; url: string };
  let context: BrowserContext;

  beforeAll(async () => {
    // The README's static build, shared with the other suites (built once, reused while fresh).
    site = await serveStatic((await storybookBuild()).dir);
    chromium = await launchHeadfulChromium();
    context = chromium.browser.contexts()[0];
  }, 300_000);

  afterAll(async () => {
    await chromium?.close();
    site?.server.close();
  });

  it('given a card that opens while the user looks at another tab, should prefix the title until the card is answered', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${site.url}/iframe.html?id=${STORY}&viewMode=story`);
    const textarea = page.getByTestId('copilot-chat-textarea');
    await textarea.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.title()).toBe(PAGE_TITLE);
    expect(await visibility(page)).toBe('visible');

    // When the user asks, then looks at another tab while the agent thinks (three seconds)...
    await textarea.fill('Clean up the temp files');
    await page.getByTestId('copilot-send-button').click();
    const other = await context.newPage();
    await other.goto('about:blank');
    expect(await visibility(page)).toBe('hidden');
    // ...the card has not opened yet: it opens while the tab is hidden.
    expect(await page.getByTestId('approval-card').count()).toBe(0);
    expect(await page.title()).toBe(PAGE_TITLE);

    // Then the title counts the waiting card.
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(WAITING);
    expect(await page.getByTestId('approval-card').count()).toBe(1);

    // Coming back is not answering: the notice stays while the card waits.
    await page.bringToFront();
    await expect.poll(() => visibility(page)).toBe('visible');
    expect(await page.title()).toBe(WAITING);
    await expect(page.getByTestId('tab-title').textContent()).resolves.toBe(WAITING);

    // Answering puts the page's own title back, and the agent goes on.
    await page.getByTestId('approval-approve').click();
    await page.getByText('Deleted 3 files.').waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => page.title()).toBe(PAGE_TITLE);
    expect(await page.getByTestId('tab-title').textContent()).toBe(PAGE_TITLE);

    expect(errors).toEqual([]);
    await other.close();
  });
});
