import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromiumBrowser, type Browser } from '../helpers/chromium';
import { DemoPage } from './demo-page';
import { startDemo, type RunningDemo } from './demo-process';

// The demo's people, against `npm run demo`: two people on two devices (browser contexts, each
// with its own cookie). Ana asks for a deploy approval; it waits for Dana, who is on call.
let demo: RunningDemo;
let browser: Browser;
const contexts: BrowserContext[] = [];
const pages: DemoPage[] = [];

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemo(), launchChromiumBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

afterEach(async () => {
  const noticed = pages.flatMap((each) => each.errors);
  pages.splice(0);
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  // No console errors or page errors on either device.
  expect(noticed).toEqual([]);
});

/** A new device: its own browser context, so its own cookies and storage. */
async function device(): Promise<DemoPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const opened = await DemoPage.open(context, demo.url);
  pages.push(opened);
  return opened;
}

describe('demo users', () => {
  it('given Ana asks for a deploy approval, it waits for Dana: Dana switches to herself, finds it in her inbox and approves it, and Ana sees who approved it and the agent’s reply', async () => {
    // Ana: a newcomer with no cookie is the first demo user.
    const ana = await device();
    const anaUser = ana.page.getByRole('form', { name: 'Demo user' });
    await expect.poll(() => anaUser.getByLabel('You are').inputValue()).toBe('ana');
    await ana.page.getByTestId('copilot-suggestion').filter({ hasText: 'Request a deploy approval' }).click();
    const waiting = ana.page.getByTestId('interrupt-waiting-for');
    await waiting.waitFor({ timeout: 30_000 });
    expect(await waiting.textContent()).toBe('Waiting for anyone in on-call');
    // Read-only: the request is there, its controls are not hers.
    const anaCard = ana.transcript.getByTestId('approval-card');
    expect(await anaCard.textContent()).toContain('Deploy v2 to production');
    expect(await anaCard.getByTestId('approval-refresh').isDisabled()).toBe(true);
    const threadId = ana.runs[0].threadId!;
    await ana.screenshot('users-01-ana-waits-for-on-call');

    // Dana: a second device switches to her with the keyboard, and the page reloads as her.
    const dana = await device();
    const danaUser = dana.page.getByRole('form', { name: 'Demo user' });
    const select = danaUser.getByLabel('You are');
    await expect.poll(() => select.inputValue()).toBe('ana');
    await select.focus();
    await select.selectOption('dana');
    await dana.page.keyboard.press('Tab');
    const reloaded = dana.page.waitForEvent('load');
    await dana.page.keyboard.press('Enter');
    await reloaded;
    await expect.poll(() => dana.page.getByRole('form', { name: 'Demo user' }).getByLabel('You are').inputValue()).toBe('dana');

    // Her inbox lists Ana's thread; picking it opens the card, hers to answer.
    const inbox = dana.page.getByRole('region', { name: /Waiting for you/ });
    const entry = inbox.locator(`[data-testid="pending-thread"][data-thread-id="${threadId}"]`);
    await entry.waitFor({ timeout: 15_000 });
    expect(await entry.textContent()).toContain('Deploy v2 to production');
    await dana.screenshot('users-02-dana-inbox');
    await entry.click();
    const card = dana.transcript.getByTestId('approval-card');
    await card.waitFor({ timeout: 15_000 });
    expect(await dana.page.getByTestId('interrupt-waiting-for').count()).toBe(0);
    const refresh = card.getByTestId('approval-refresh');
    const resolved = dana.transcript.getByTestId('approval-card-resolved');
    for (let attempt = 0; attempt < 10 && (await resolved.count()) === 0; attempt++) {
      await expect.poll(() => refresh.isEnabled(), { timeout: 5_000 }).toBe(true);
      await refresh.click();
      await resolved.waitFor({ timeout: 3_000 }).catch(() => undefined);
    }
    await resolved.waitFor();
    await dana.waitForAnswer(/is approved/);
    expect(dana.resumeRuns.map((run) => run.threadId)).toEqual([threadId]);
    await entry.waitFor({ state: 'detached', timeout: 15_000 });

    // The server log named her, once, when the ticket was raised.
    expect(demo.output()).toContain(
      `Dana, an approval waits for you: Approval needed: Deploy v2 to production (thread ${threadId}, asked by Ana)`,
    );

    // Ana reads her thread again: the card is read-only with Dana's answer, and the run completed.
    await ana.page.reload();
    const answeredBy = ana.page.getByTestId('interrupt-answered-by');
    await answeredBy.waitFor({ timeout: 15_000 });
    expect(await answeredBy.textContent()).toMatch(/^Approved by Dana · \d/);
    // One attribution: not "Answered on another device" beside it.
    expect(await ana.page.getByTestId('interrupt-answered-elsewhere').count()).toBe(0);
    expect(await ana.transcript.getByTestId('approval-card-resolved').getByTestId('approval-status').textContent()).toMatch(/approved/i);
    await ana.waitForAnswer(/is approved/);
    expect(ana.resumeRuns).toEqual([]);
    await ana.screenshot('users-03-ana-sees-dana-approved');
  });
});
