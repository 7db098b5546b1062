import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type LaunchedBrowser } from '../helpers/chromium';
import { startProcess, type RunningProcess } from '../helpers/start-process';
import { storybookBuild } from '../helpers/storybook-build';

// The README's static Storybook, as a newcomer runs it: `npm run build-storybook`, then
// `npm run serve-storybook`, then a story's address in Chromium. A server that rewrites
// `/iframe.html?id=…` (clean URLs) drops the story id, and every story says "No Preview".
const root = new URL('../..', import.meta.url).pathname;

let buildOutput: string;
let server: RunningProcess;
let chromium: LaunchedBrowser;
let page: Page | undefined;

interface StoryEntry {
  id: string;
  type: string;
  title: string;
  importPath: string;
}

const stories = (): StoryEntry[] =>
  Object.values(
    (JSON.parse(readFileSync(join(root, 'storybook-static/index.json'), 'utf8')) as { entries: Record<string, StoryEntry> }).entries,
  ).filter((entry) => entry.type === 'story');

beforeAll(async () => {
  // `npm run build-storybook`, shared with the answered cards' suite: built once, reused while newer than its sources.
  buildOutput = (await storybookBuild()).output;
  [server, chromium] = await Promise.all([
    startProcess({
      command: 'npm',
      args: ['run', 'serve-storybook', '--', '--host', '127.0.0.1', '--port', '6106'],
      cwd: root,
      // Vite colours its output whenever FORCE_COLOR is set, even to 0 (start-process sets it).
      env: { NO_COLOR: '1' },
      ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/,
      name: 'npm run serve-storybook',
    }),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

afterEach(async () => {
  await page?.close();
  page = undefined;
});

/** Opens a story by its preview address and waits until it is drawn (or Storybook gives up). */
async function openStory(id: string): Promise<Page> {
  page = await chromium.browser.newPage();
  await page.goto(`${server.url}/iframe.html?id=${encodeURIComponent(id)}&viewMode=story`);
  // Drawn: the root has content. Not drawn: Storybook's "No Preview" or its error display.
  await page.waitForSelector('#storybook-root > *, body.sb-show-nopreview, body.sb-show-errordisplay', { state: 'attached' });
  return page;
}

describe('the static Storybook, built and served as the README says', () => {
  it('builds with a short summary, not a list of every output file', () => {
    expect(buildOutput).toContain('Storybook build completed successfully');
    expect(buildOutput).not.toMatch(/storybook-static\/assets\//);
    expect(buildOutput.split('\n').length).toBeLessThan(60);
  });

  it('serves every story address as the preview page itself, with no redirect', async () => {
    const all = stories();
    expect(all.length).toBeGreaterThan(0);
    for (const { id } of all) {
      const response = await fetch(`${server.url}/iframe.html?id=${encodeURIComponent(id)}&viewMode=story`, { redirect: 'manual' });
      expect({ id, status: response.status }).toEqual({ id, status: 200 });
      expect(await response.text()).toContain('id="storybook-root"');
    }
  });

  it('draws a story of every stories file from its address, not "No Preview"', async () => {
    const firstOfEachFile = [...new Map(stories().map((story) => [story.importPath, story])).values()];
    for (const story of firstOfEachFile) {
      const tab = await openStory(story.id);
      const shown = await tab.evaluate(() => ({
        body: document.body.className,
        text: document.getElementById('storybook-root')?.innerText.trim() ?? '',
      }));
      expect({ story: story.id, noPreview: /sb-show-(nopreview|errordisplay)/.test(shown.body) }).toEqual({
        story: story.id,
        noPreview: false,
      });
      expect(shown.text).not.toBe('');
      await tab.close();
      page = undefined;
    }
  });

  it('opens a story from the Storybook page address, its preview drawn in the frame', async () => {
    const [story] = stories();
    page = await chromium.browser.newPage();
    await page.goto(`${server.url}/?path=/story/${story.id}`);
    const preview = page.frameLocator('#storybook-preview-iframe');
    await preview.locator('body.sb-show-main #storybook-root > *').first().waitFor();
    expect((await preview.locator('#storybook-root').innerText()).trim()).not.toBe('');
  });
});
