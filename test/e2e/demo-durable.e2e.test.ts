import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseEvent } from '@ag-ui/client';
import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createInterruptRunner, type InterruptRunner } from '../../src/runner';
import { generateCandidateSlots } from '../../src/time-slots';
import { launchChromiumBrowser, type Browser } from '../helpers/chromium';
import { emptyEmbeddedStore } from '../helpers/embedded-store';
import { startPostgres, type PostgresCluster } from '../helpers/postgres';
import { PIN_HEADER, startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy';
import { DemoPage } from './demo-page';
import { buildDemo, freePort, startBuiltDemo, type BuiltDemo, type RunningDemo } from './demo-process';

// The demo's data outlives its processes, and several demo servers can share it. One build of the
// demo (as `npm run demo` makes it) for the file; server processes started, killed and restarted.
const THREAD_KEY = 'copilotkit-interrupts-demo:thread';
let built: BuiltDemo;
let chromium: Browser;

beforeAll(async () => {
  [built, chromium] = await Promise.all([buildDemo(), launchChromiumBrowser()]);
});

afterAll(async () => {
  await chromium?.close();
});

// A server stopped with a card open (killed outright, or stopped as Ctrl-C does) and started again
// on the same data folder and port serves the same thread: the reloaded page shows the card
// answerable, and answering it completes the agent's run.
const running: RunningDemo[] = [];
const folders: string[] = [];

/** The LangGraph server's checkpoint file: written 3 s after the last change, and when it stops. */
const langgraphCheckpoints = (dataDir: string) => join(dataDir, 'langgraph', '.langgraph_api', '.langgraphjs_api.checkpointer.json');

const CASES = [
  // The Mastra agent's suspended run is in its LibSQL file and the thread in the runner's embedded
  // store, both written as they change: a kill right after the card appears loses nothing.
  { agent: 'Mastra', query: '', signal: 'SIGKILL' as const, how: 'killed (SIGKILL) at once', waitForFiles: false },
  // The LangGraph server writes its files when it stops (Ctrl-C sends SIGTERM)…
  {
    agent: 'LangGraph',
    query: '?agent=langgraph',
    signal: 'SIGTERM' as const,
    how: 'stopped (SIGTERM, as Ctrl-C) at once',
    waitForFiles: false,
  },
  // …and 3 s after its last change: once written, a kill loses nothing either.
  {
    agent: 'LangGraph',
    query: '?agent=langgraph',
    signal: 'SIGKILL' as const,
    how: 'killed (SIGKILL) once its files are written',
    waitForFiles: true,
  },
];

describe('the demo server restarted mid-interrupt on the same data folder', () => {
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it.each(CASES)(
    'given a $agent card open and the server $how, when it starts again and the page reloads, the card is answerable and the answer completes the run',
    async ({ query, signal, waitForFiles }) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'cki-restart-'));
      folders.push(dataDir);
      // The demo keeps its threads in the runner's embedded store in `threads/`: an empty one is
      // copied in (test/helpers/embedded-store.ts) so the server's first start skips initdb.
      await emptyEmbeddedStore(join(dataDir, 'threads'));
      const port = await freePort();
      const first = await startBuiltDemo(built, { port, dataDir, name: 'demo server (first)' });
      running.push(first);

      const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const tab = await DemoPage.open(context, `${first.url}/${query}`);
        await tab.send('Book an intro call with the sales team to discuss pricing.');
        const card = tab.transcript.getByTestId('time-picker-card');
        await card.waitFor();
        const labels = generateCandidateSlots().map((slot) => slot.label);
        expect(await card.getByTestId('time-picker-slot').allInnerTexts()).toEqual(labels);
        if (waitForFiles) {
          const threadId = await tab.page.evaluate((key) => window.sessionStorage.getItem(`${key}:langgraph`), THREAD_KEY);
          expect(threadId).toEqual(expect.any(String));
          const written = () =>
            existsSync(langgraphCheckpoints(dataDir)) && readFileSync(langgraphCheckpoints(dataDir), 'utf8').includes(threadId!);
          await expect.poll(written, { timeout: 10_000, interval: 250 }).toBe(true);
        }

        await first.stop(signal);
        const second = await startBuiltDemo(built, { port, dataDir, name: 'demo server (restarted)' });
        running.push(second);
        expect(second.url).toBe(first.url);

        // While the server was down, the page's inbox could not reach it, and a server killed
        // outright broke the inbox stream it was writing (Chromium reports both itself); that is
        // all that went wrong, and nothing may go wrong from the reload on.
        const outage = tab.errors.splice(0);
        const brokenByTheKill = signal === 'SIGKILL' ? ['net::ERR_INCOMPLETE_CHUNKED_ENCODING'] : [];
        const expected = ['net::ERR_CONNECTION_REFUSED', ...brokenByTheKill];
        expect(outage.filter((error) => !expected.some((reason) => error.includes(reason)))).toEqual([]);
        await tab.page.reload();
        await tab.transcript.getByTestId('copilot-user-message').filter({ hasText: 'Book an intro call' }).waitFor();
        const again = tab.transcript.getByTestId('time-picker-card');
        await again.waitFor();
        await again.getByTestId('time-picker-slot').filter({ hasText: labels[1] }).click();
        await tab.waitForAnswer(new RegExp(`Scheduled ".+" for ${labels[1]}`));
        await tab.screenshot(`restart-${query ? 'langgraph' : 'mastra'}-${signal.toLowerCase()}-answered`);

        expect(tab.resumeRuns).toHaveLength(1);
        expect(tab.resumeRuns[0].resume).toEqual([expect.objectContaining({ status: 'resolved' })]);
        expect(tab.errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});

// Two demo server processes on one PostgreSQL (DATABASE_URL: the threads and Mastra's storage),
// behind a round-robin proxy, driven by separate browser contexts (separate devices) on one thread.
const RUN_PATH = /\/api\/copilotkit\/agent\/[^/]+\/run$/;
let postgres: PostgresCluster;
let runner: InterruptRunner;
let proxy: RoundRobinProxy;
const servers: RunningDemo[] = [];
const instanceFolders: string[] = [];
const contexts: BrowserContext[] = [];
const tabs: DemoPage[] = [];

/**
 * A new device: its own browser context; `threadId` opens that conversation (as the tab would after
 * a reload); `instance` keeps every request of the device on that server (a sticky load balancer).
 */
async function device(threadId?: string, instance?: number): Promise<DemoPage> {
  const context = await chromium.newContext({
    viewport: { width: 1280, height: 900 },
    ...(instance === undefined ? {} : { extraHTTPHeaders: { [PIN_HEADER]: String(instance) } }),
  });
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
  beforeAll(async () => {
    postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase('demo');
    // One after the other: the first creates the schemas, the second finds them. Both sign
    // interrupt ids with one secret, as servers behind one load balancer must.
    const secret = randomBytes(32).toString('hex');
    for (const name of ['instance 0', 'instance 1']) {
      const dataDir = mkdtempSync(join(tmpdir(), 'cki-instance-'));
      instanceFolders.push(dataDir);
      servers.push(await startBuiltDemo(built, { port: await freePort(), dataDir, databaseUrl, secret, name: `demo server (${name})` }));
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
    await postgres?.stop();
    for (const folder of instanceFolders) rmSync(folder, { recursive: true, force: true });
  });

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

  it('given a card open on two devices, when one answers it through the other instance, the other device turns its card read-only with that answer by itself (its inbox stream), with no reload, click or focus', async () => {
    const labels = generateCandidateSlots().map((slot) => slot.label);
    const { first, threadId, raisedOn } = await raiseCard();
    const inboxRequests: Array<{ accept: string; at: number }> = [];
    first.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/inbox') inboxRequests.push({ accept: request.headers().accept ?? '', at: Date.now() });
    });
    // Reloaded with the listeners on, to see the inbox's stream open.
    const streamOpen = first.page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/inbox' && /^text\/event-stream/.test(response.headers()['content-type'] ?? ''),
    );
    await first.page.reload();
    await first.transcript.getByTestId('time-picker-card').waitFor();
    await streamOpen;

    // What could make the first device read its thread again other than the inbox's stream.
    await first.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __rereads: string[] }).__rereads = seen;
      window.addEventListener('focus', () => seen.push('focus'));
      document.addEventListener('visibilitychange', () => seen.push('visibilitychange'));
    });

    const second = await device(threadId);
    const slot = second.transcript.getByTestId('time-picker-slot').filter({ hasText: labels[1] });
    await slot.waitFor();
    proxy.next = 1 - raisedOn;
    const answeredAt = Date.now();
    await slot.click();

    const elsewhere = first.transcript.getByTestId('interrupt-answered-elsewhere');
    await elsewhere.waitFor({ timeout: 15_000 });
    await expect.poll(() => first.transcript.getByTestId('time-picker-card').count()).toBe(0);
    expect(await first.transcript.innerText()).toContain(labels[1]!);
    await first.screenshot('instances-answered-on-other-device-live');

    expect(await first.page.evaluate(() => (window as unknown as { __rereads: string[] }).__rereads)).toEqual([]);
    // Nothing polled the inbox meanwhile: the change came down the open stream.
    expect(inboxRequests.filter((entry) => entry.at >= answeredAt && !entry.accept.includes('text/event-stream'))).toEqual([]);
    expect(tabs.flatMap((tab) => tab.errors)).toEqual([]);
  });

  it('given one open card on two devices, when both answer at once (one through each instance), exactly one answer reaches the agent and the other is refused', async () => {
    const labels = generateCandidateSlots().map((slot) => slot.label);
    const { threadId } = await raiseCard();
    // Each device stays on its own instance: the two answers are sent through both at once, whatever
    // else (the inbox's stream, connects) the devices send meanwhile.
    const [left, right] = await Promise.all([device(threadId, 0), device(threadId, 1)]);
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
