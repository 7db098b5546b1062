import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startProcess, type RunningProcess } from './start-process';

/** Debian's Chromium; npm cannot download a browser on this kind of machine. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep a headless Chromium quiet on a machine with no network but loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails loudly (never a silent skip) when the browser is missing. */
export function assertChromiumInstalled(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM_PATH}. Install it with ` +
        '`apt-get update && apt-get install -y chromium` (Debian), or set CHROMIUM_PATH.',
    );
  }
}

export interface LaunchedBrowser {
  browser: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium with a fresh, throw-away profile. */
export async function launchChromium(): Promise<LaunchedBrowser> {
  assertChromiumInstalled();
  const profile = mkdtempSync(join(tmpdir(), 'cki-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    browser: context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type { Browser };

/**
 * A headless Chromium whose contexts are separate "devices": each `newContext()` has its own
 * cookies and storage, as a second browser or a phone would.
 */
export async function launchChromiumBrowser(): Promise<Browser> {
  assertChromiumInstalled();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export interface HeadfulChromium {
  /** Connected without Playwright's default overrides (see below); its one context is the browser's own. */
  browser: Browser;
  close(): Promise<void>;
}

/**
 * A headful Chromium on its own Xvfb display, for what only a real window shows: a background
 * tab that reports itself hidden (`document.visibilityState`). A headless page always reports
 * visible, and so does every page of a headful Chromium that Playwright launched itself (its
 * default page overrides, focus emulation among them, keep each page visible). So Chromium is
 * started here and attached to over CDP with `noDefaults`, which leaves the browser's own
 * context without those overrides: a tab behind another then reports hidden, as for a user.
 */
export async function launchHeadfulChromium(): Promise<HeadfulChromium> {
  assertChromiumInstalled();
  try {
    execFileSync('sh', ['-c', 'command -v Xvfb'], { stdio: 'ignore' });
  } catch {
    throw new Error('Xvfb was not found. Install it with `apt-get update && apt-get install -y xvfb` (Debian).');
  }
  // Xvfb picks a free display itself and prints its number once it accepts clients.
  const display = await startProcess({
    command: 'Xvfb',
    args: ['-displayfd', '1', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'],
    cwd: process.cwd(),
    ready: /^(\d+)\s*$/m,
    name: 'Xvfb',
    timeoutMs: 30_000,
  });
  const profile = mkdtempSync(join(tmpdir(), 'cki-chromium-'));
  let chromium_: RunningProcess | undefined;
  try {
    chromium_ = await startProcess({
      command: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS.filter((arg) => arg !== '--headless'),
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
        '--window-size=1280,800',
        'about:blank',
      ],
      cwd: process.cwd(),
      env: { DISPLAY: `:${display.url}` },
      ready: /DevTools listening on (ws:\S+)/,
      name: 'headful Chromium',
      timeoutMs: 60_000,
    });
    const browser = await chromium.connectOverCDP(chromium_.url, { noDefaults: true, isLocal: true });
    const running = chromium_;
    return {
      browser,
      async close() {
        await browser.close().catch(() => undefined);
        await running.stop();
        await display.stop();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await chromium_?.stop();
    await display.stop();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
