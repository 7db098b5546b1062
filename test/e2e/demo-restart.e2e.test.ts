import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateCandidateSlots } from '../../src/time-slots';
import { launchChromiumBrowser, type Browser } from '../helpers/chromium';
import { DemoPage } from './demo-page';
import { buildDemo, freePort, startBuiltDemo, type BuiltDemo, type RunningDemo } from './demo-process';

// The demo's data outlives its process: a server stopped with a card open (killed outright, or
// stopped as Ctrl-C does) and started again on the same data folder and port serves the same
// thread, the reloaded page shows the card answerable, and answering it completes the agent's run.
let built: BuiltDemo;
let chromium: Browser;
const running: RunningDemo[] = [];
const folders: string[] = [];

beforeAll(async () => {
  [built, chromium] = await Promise.all([buildDemo('e2e-restart'), launchChromiumBrowser()]);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

afterAll(async () => {
  await chromium?.close();
});

/** The LangGraph server's checkpoint file: written 3 s after the last change, and when it stops. */
const langgraphCheckpoints = (dataDir: string) => join(dataDir, 'langgraph', '.langgraph_api', '.langgraphjs_api.checkpointer.json');
const THREAD_KEY = 'copilotkit-interrupts-demo:thread';

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
  it.each(CASES)(
    'given a $agent card open and the server $how, when it starts again and the page reloads, the card is answerable and the answer completes the run',
    async ({ query, signal, waitForFiles }) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'cki-restart-'));
      folders.push(dataDir);
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
