import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type LaunchedBrowser } from '../helpers/chromium';
import { packLibrary } from '../helpers/pack';
import { countReactCommits, settledCommits } from '../helpers/react-commits';
import { startProcess, type RunningProcess } from '../helpers/start-process';
import { DemoPage } from '../e2e/demo-page';

// examples/nextjs as a user meets it: the packed library (not the source) in a Next.js App Router
// app, `next build` then `next start`, driven in Chromium.
const root = new URL('../..', import.meta.url).pathname;
const app = join(root, 'examples/nextjs');
// `next build` evaluates the route with no secret (container builds get theirs at run time);
// `next start` serves in production, where the route's normalizeInterrupts() needs one.
const buildEnv = { NEXT_TELEMETRY_DISABLED: '1', COPILOTKIT_TELEMETRY_DISABLED: 'true' };
const env = { ...buildEnv, COPILOTKIT_INTERRUPTS_SECRET: randomBytes(32).toString('hex') };

let server: RunningProcess;
let chromium: LaunchedBrowser;
let tab: DemoPage | undefined;

/** `npm pack`s the built library and unpacks it as the app's `copilotkit-interrupts` dependency. */
function installPackedLibrary() {
  const packDir = mkdtempSync(join(tmpdir(), 'cki-pack-'));
  // `npm test` and `npm run test:examples` build first. Packing without `prepack` keeps that build:
  // rebuilding would empty dist/ under the tests that run alongside.
  const { tarball } = packLibrary(root, packDir, { ignoreScripts: true });
  const target = join(app, 'node_modules/copilotkit-interrupts');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  rmSync(packDir, { recursive: true, force: true });
}

beforeAll(async () => {
  installPackedLibrary();
  const outside = { ...process.env };
  delete outside.COPILOTKIT_INTERRUPTS_SECRET;
  execFileSync('npx', ['--no-install', 'next', 'build'], { cwd: app, env: { ...outside, ...buildEnv }, stdio: 'pipe' });
  [server, chromium] = await Promise.all([
    startProcess({
      command: 'npx',
      args: ['--no-install', 'next', 'start', '-p', '0', '-H', '127.0.0.1'],
      cwd: app,
      env,
      ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready/,
      name: 'next start',
    }),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

afterEach(async () => {
  const errors = tab?.errors ?? [];
  await tab?.page.close();
  tab = undefined;
  expect(errors).toEqual([]);
});

async function openApp(): Promise<DemoPage> {
  const page = await chromium.browser.newPage();
  await countReactCommits(page);
  // The page is prerendered, so its textarea is there before React hydrates it; and a message
  // sent before the client knows the runtime's agents goes nowhere. Wait for both.
  const connected = page.waitForResponse((response) => response.url().endsWith('/api/copilotkit/info') && response.ok());
  tab = await DemoPage.attach(page, server.url);
  await connected;
  await page.waitForFunction(() => (window.__ckiCommits ?? 0) > 0);
  await tab.input.waitFor();
  return tab;
}

describe('the Next.js App Router example, production build', () => {
  it('answers a question card: the reply is drawn, the answer stays, and React goes idle', async () => {
    const chat = await openApp();
    await chat.send('Ask me a question');
    const card = chat.page.getByTestId('user-question-card');
    await card.waitFor();
    // An open card is idle too: nothing re-renders while the user reads it.
    expect(await settledCommits(chat.page)).toBe(0);

    await chat.page.getByTestId('user-question-option').filter({ hasText: 'SQLite' }).click();
    await chat.page.getByTestId('user-question-submit').click();

    await chat.waitForAnswer(/You answered: SQLite\./);
    expect(await chat.page.getByTestId('user-question-answered').innerText()).toContain('SQLite');
    expect(chat.resumeRuns).toHaveLength(1);
    expect(await settledCommits(chat.page)).toBe(0);
  });

  it('books a time: the reply is drawn, the read-only card stays, and React goes idle', async () => {
    const chat = await openApp();
    await chat.send('Book a call');
    await chat.page.getByTestId('time-picker-card').waitFor();
    expect(await chat.page.getByTestId('time-picker-slot').allInnerTexts()).toEqual(['Mon 10:00', 'Mon 14:00', 'Tue 09:00', 'Tue 15:30']);
    expect(await settledCommits(chat.page)).toBe(0);

    await chat.page.getByTestId('time-picker-slot').filter({ hasText: 'Tue 09:00' }).click();

    await chat.waitForAnswer(/Scheduled "Intro call" for Tue 09:00\./);
    expect(await chat.page.getByTestId('time-picker-picked').innerText()).toContain('Tue 09:00');
    expect(chat.resumeRuns.map((run) => run.resume?.[0]?.payload)).toEqual([
      { chosen_time: '2030-01-08T09:00:00Z', chosen_label: 'Tue 09:00' },
    ]);
    expect(await settledCommits(chat.page)).toBe(0);

    // Later turns keep drawing replies (the loop this guards against starved every one of them).
    await chat.send('Hello');
    await chat.waitForAnswer(/Ask me a question, or ask me to book a call\./);
    expect(await chat.page.getByTestId('time-picker-picked').count()).toBe(1);
  });
});
