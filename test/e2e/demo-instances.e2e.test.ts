import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseEvent } from '@ag-ui/client';
import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createInterruptRunner, type InterruptRunner } from '../../src/runner';
import { generateCandidateSlots } from '../../src/time-slots';
import { launchChromiumBrowser, type Browser } from '../helpers/chromium';
import { startPostgres, type PostgresCluster } from '../helpers/postgres';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy';
import { DemoPage } from './demo-page';
import { buildDemo, freePort, startBuiltDemo, type BuiltDemo, type RunningDemo } from './demo-process';

// Two demo server processes on one PostgreSQL (DATABASE_URL: the threads and Mastra's storage),
// behind a round-robin proxy, driven by separate browser contexts (separate devices) on one thread.
const THREAD_KEY = 'copilotkit-interrupts-demo:thread';
const RUN_PATH = /\/api\/copilotkit\/agent\/[^/]+\/run$/;

let built: BuiltDemo;
let chromium: Browser;
let postgres: PostgresCluster;
let runner: InterruptRunner;
let proxy: RoundRobinProxy;
const servers: RunningDemo[] = [];
const folders: string[] = [];
const contexts: BrowserContext[] = [];
const tabs: DemoPage[] = [];

beforeAll(async () => {
  [built, chromium, postgres] = await Promise.all([buildDemo('e2e-instances'), launchChromiumBrowser(), startPostgres()]);
  const databaseUrl = await postgres.createDatabase('demo');
  // One after the other: the first creates the schemas, the second finds them.
  for (const name of ['instance 0', 'instance 1']) {
    const dataDir = mkdtempSync(join(tmpdir(), 'cki-instance-'));
    folders.push(dataDir);
    servers.push(await startBuiltDemo(built, { port: await freePort(), dataDir, databaseUrl, name: `demo server (${name})` }));
  }
  proxy = await startRoundRobinProxy(servers.map((server) => server.url));
  runner = createInterruptRunner({ url: databaseUrl });
});

afterEach(async () => {
  tabs.splice(0);
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await runner?.close();
  await proxy?.close();
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  await chromium?.close();
  await postgres?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A new device: its own browser context; `threadId` opens that conversation (as the tab would after a reload). */
async function device(threadId?: string): Promise<DemoPage> {
  const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  if (threadId) {
    await page.addInitScript(([key, id]) => window.sessionStorage.setItem(key, id), [THREAD_KEY, threadId] as const);
  }
  const tab = await DemoPage.attach(page, `${proxy.url}/`);
  tabs.push(tab);
  return tab;
}

const backendOfLastRun = () => [...proxy.log].reverse().find((entry) => entry.method === 'POST' && RUN_PATH.test(entry.path))!.backend;

/** The thread as the database holds it: every event CopilotKit replays on connect. */
async function storedEvents(threadId: string): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await new Promise<void>((resolve, reject) =>
    runner.connect({ threadId }).subscribe({ next: (event) => void events.push(event), error: reject, complete: resolve }),
  );
  return events;
}
const resumeRuns = (events: BaseEvent[]) =>
  events.filter((event) => event.type === 'RUN_STARTED' && ((event as { input?: { resume?: unknown[] } }).input?.resume?.length ?? 0) > 0);

async function raiseCard(): Promise<{ first: DemoPage; threadId: string; raisedOn: number }> {
  const first = await device();
  await first.send('Book an intro call with the sales team to discuss pricing.');
  await first.transcript.getByTestId('time-picker-card').waitFor();
  const raisedOn = backendOfLastRun();
  const threadId = await first.page.evaluate((key) => window.sessionStorage.getItem(key), THREAD_KEY);
  expect(threadId).toEqual(expect.any(String));
  return { first, threadId: threadId!, raisedOn };
}

describe('two demo servers on one PostgreSQL behind a round-robin proxy', () => {
  it('given a card raised through one instance, when another device answers it through the other, the run completes and a third device sees the answer', async () => {
    const labels = generateCandidateSlots().map((slot) => slot.label);
    const { threadId, raisedOn } = await raiseCard();

    const second = await device(threadId);
    const card = second.transcript.getByTestId('time-picker-card');
    await card.waitFor();
    proxy.next = 1 - raisedOn; // the answer goes to the instance that did not raise the card
    await card.getByTestId('time-picker-slot').filter({ hasText: labels[2] }).click();
    await second.waitForAnswer(new RegExp(`Scheduled ".+" for ${labels[2]}`));
    expect(backendOfLastRun()).toBe(1 - raisedOn);

    const third = await device(threadId);
    await third.waitForAnswer(new RegExp(`Scheduled ".+" for ${labels[2]}`));
    await third.screenshot('instances-third-device');
    expect(await third.transcript.getByTestId('time-picker-card').count()).toBe(0);

    expect(await runner.listInterrupts({ threadId })).toEqual([
      expect.objectContaining({ status: 'resolved', response: expect.objectContaining({ chosen_label: labels[2] }) }),
    ]);
    expect(tabs.flatMap((tab) => tab.errors)).toEqual([]);
  });

  it('given one open card on two devices, when both answer at once (one through each instance), exactly one answer reaches the agent and the other is refused', async () => {
    const labels = generateCandidateSlots().map((slot) => slot.label);
    const { threadId } = await raiseCard();
    const [left, right] = await Promise.all([device(threadId), device(threadId)]);
    const leftSlot = left.transcript.getByTestId('time-picker-slot').filter({ hasText: labels[0] });
    const rightSlot = right.transcript.getByTestId('time-picker-slot').filter({ hasText: labels[3] });
    await Promise.all([leftSlot.waitFor(), rightSlot.waitFor()]);

    const runsBefore = proxy.log.length;
    await Promise.all([leftSlot.click(), rightSlot.click()]);
    const reply = /Scheduled ".+" for/;
    // One device gets the agent's reply; the database holds one answer and one resumed run.
    const replies = async () =>
      (await left.assistantMessages().filter({ hasText: reply }).count()) +
      (await right.assistantMessages().filter({ hasText: reply }).count());
    await expect.poll(replies, { timeout: 30_000 }).toBe(1);
    const answerRuns = proxy.log.slice(runsBefore).filter((entry) => entry.method === 'POST' && RUN_PATH.test(entry.path));
    expect(answerRuns.map((entry) => entry.backend).sort()).toEqual([0, 1]);

    const [row] = await runner.listInterrupts({ threadId });
    expect(row.status).toBe('resolved');
    const won = (row.response as { chosen_label: string }).chosen_label;
    expect([labels[0], labels[3]]).toContain(won);
    const events = await storedEvents(threadId);
    expect(resumeRuns(events)).toHaveLength(1);

    const [winner, loser] = won === labels[0] ? [left, right] : [right, left];
    await winner.waitForAnswer(new RegExp(`Scheduled ".+" for ${won}`));
    await winner.screenshot('instances-race-winner');
    await loser.screenshot('instances-race-refused');
    // The refused device says so in the chat (the runner's message names the interrupt and why).
    await expect.poll(() => loser.transcript.innerText()).toMatch(/already answered|answered on another device/i);
    expect(await loser.assistantMessages().filter({ hasText: reply }).count()).toBe(0);

    // A later device replays one answer and one reply.
    const later = await device(threadId);
    await later.waitForAnswer(new RegExp(`Scheduled ".+" for ${won}`));
    expect(await later.assistantMessages().filter({ hasText: reply }).count()).toBe(1);
  });
});
