import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

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
