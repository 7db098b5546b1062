/**
 * Figure 8e: "device B answers -> device A's card turns read-only", timed in Chromium. Two demo
 * servers (the built `npm run demo`, keyless) share one PostgreSQL; device A is a browser context
 * on the first, device B another on the second. Per sample, A asks for a meeting and its time
 * picker appears; B opens the same thread and picks a slot; timed from the moment B sends the answer
 * (its run request, `resolveDelayMs` after the click, once the read-only card has painted) to the
 * moment A's page shows "Answered on another device" (A does nothing meanwhile: no reload, click or
 * focus), and from the click as well. One machine, one clock for the pages and the bench.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DemoPage } from '../test/e2e/demo-page';
import { buildDemo, freePort, startBuiltDemo, type RunningDemo } from '../test/e2e/demo-process';
import { launchChromiumBrowser } from '../test/helpers/chromium';
import { startPostgres } from '../test/helpers/postgres';
import { ROOT } from './size';

/** Where the demo page keeps the open thread's id (per tab). */
const THREAD_KEY = 'copilotkit-interrupts-demo:thread';
const ASK = 'Book an intro call with the sales team to discuss pricing.';
const RUN_PATH = /\/api\/copilotkit\/agent\/[^/]+\/run$/;

export interface DevicesResult {
  /** ms from device B sending the answer (its run request) to device A showing it read-only. */
  latencies: number[];
  /** ms from device B's click to the same moment: `latencies` plus B's `resolveDelayMs` (500 ms). */
  fromClick: number[];
  /** Samples where device A never showed it within 10 s. */
  missed: number;
  /** Console errors on either device (a figure with errors is not a pass). */
  errors: string[];
}

/** Records, in the page, when the "answered on another device" notice first appears. */
function watchForAnswer(page: Page) {
  return page.evaluate(() => {
    const state = window as unknown as { __answeredAt?: number };
    delete state.__answeredAt;
    const seen = () => document.querySelector('[data-testid="interrupt-answered-elsewhere"]') !== null;
    const observer = new MutationObserver(() => {
      if (state.__answeredAt === undefined && seen()) {
        state.__answeredAt = Date.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

async function sample(
  a: BrowserContext,
  b: BrowserContext,
  urls: [string, string],
  errors: string[],
): Promise<{ fromSend: number; fromClick: number } | null> {
  const first = await DemoPage.open(a, `${urls[0]}/`);
  let second: DemoPage | undefined;
  try {
    await first.send(ASK);
    await first.transcript.getByTestId('time-picker-card').waitFor({ timeout: 30_000 });
    const threadId = await first.page.evaluate((key) => window.sessionStorage.getItem(key), THREAD_KEY);
    const page = await b.newPage();
    await page.addInitScript(([key, id]) => window.sessionStorage.setItem(key, id), [THREAD_KEY, threadId!] as const);
    second = await DemoPage.attach(page, `${urls[1]}/`);
    const slot = second.transcript.getByTestId('time-picker-slot').first();
    await slot.waitFor({ timeout: 30_000 });
    await watchForAnswer(first.page);
    await second.page.evaluate(() => {
      const state = window as unknown as { __clickedAt?: number };
      document.addEventListener('click', () => (state.__clickedAt ??= Date.now()), { capture: true, once: true });
    });
    // The answer leaves device B with its run request, `resolveDelayMs` (500 ms by default) after
    // the click that painted it read-only. Stamped here, in Node, on the same clock as the pages'.
    let sentAt: number | undefined;
    second.page.on('request', (request) => {
      if (sentAt === undefined && request.method() === 'POST' && RUN_PATH.test(new URL(request.url()).pathname)) sentAt = Date.now();
    });
    await slot.click();
    const answered = await first.page
      .waitForFunction(() => (window as unknown as { __answeredAt?: number }).__answeredAt, undefined, { timeout: 10_000 })
      .then((handle) => handle.jsonValue() as Promise<number>)
      .catch(() => null);
    const clicked = await second.page.evaluate(() => (window as unknown as { __clickedAt?: number }).__clickedAt ?? null);
    return answered !== null && clicked !== null && sentAt !== undefined
      ? { fromSend: answered - sentAt, fromClick: answered - clicked }
      : null;
  } finally {
    errors.push(...first.errors, ...(second?.errors ?? []));
    await first.page.close();
    await second?.page.close();
  }
}

export async function measureDevices(samples = 15, warmup = 2, log: (line: string) => void = () => {}): Promise<DevicesResult> {
  const postgres = await startPostgres();
  const folders: string[] = [];
  const servers: RunningDemo[] = [];
  let browser: Browser | undefined;
  try {
    const databaseUrl = await postgres.createDatabase('devices');
    const built = await buildDemo(ROOT);
    browser = await launchChromiumBrowser();
    const secret = randomBytes(32).toString('hex');
    // One after the other: the first creates the schemas, the second finds them.
    for (const name of ['A', 'B']) {
      const dataDir = mkdtempSync(join(tmpdir(), 'cki-bench-devices-'));
      folders.push(dataDir);
      servers.push(
        await startBuiltDemo(built, { port: await freePort(), dataDir, databaseUrl, secret, name: `demo server (device ${name})` }),
      );
    }
    const [a, b] = await Promise.all([0, 1].map(() => browser!.newContext({ viewport: { width: 1280, height: 900 } })));
    const result: DevicesResult = { latencies: [], fromClick: [], missed: 0, errors: [] };
    for (let n = 0; n < warmup + samples; n++) {
      const ms = await sample(a!, b!, [servers[0]!.url, servers[1]!.url], result.errors);
      log(
        `devices: sample ${n + 1}/${warmup + samples}: ${ms === null ? 'missed' : `${ms.fromSend} ms from the send, ${ms.fromClick} from the click`}`,
      );
      if (n < warmup) continue;
      if (ms === null) result.missed++;
      else {
        result.latencies.push(ms.fromSend);
        result.fromClick.push(ms.fromClick);
      }
    }
    return result;
  } finally {
    await browser?.close();
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await postgres.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}
