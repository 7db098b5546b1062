import { mkdtempSync, rmSync } from 'node:fs';
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

const CASES = [
  // The Mastra agent's suspended run is in its LibSQL file, the thread in the runner's embedded store.
  { agent: 'Mastra', query: '', signal: 'SIGKILL' as const, how: 'killed (SIGKILL)' },
  // The LangGraph server writes its checkpoints to files 3 s after a change and when it stops.
  { agent: 'LangGraph', query: '?agent=langgraph', signal: 'SIGTERM' as const, how: 'stopped (SIGTERM, as Ctrl-C)' },
];

describe('the demo server restarted mid-interrupt on the same data folder', () => {
  it.each(CASES)(
    'given a $agent card open and the server $how, when it starts again and the page reloads, the card is answerable and the answer completes the run',
    async ({ query, signal }) => {
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
        await tab.screenshot(`restart-${query ? 'langgraph' : 'mastra'}-answered`);

        expect(tab.resumeRuns).toHaveLength(1);
        expect(tab.resumeRuns[0].resume).toEqual([expect.objectContaining({ status: 'resolved' })]);
        expect(tab.errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
