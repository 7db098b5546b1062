/// <reference types="vite/client" />
import axe from 'axe-core';
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_LEVEL_RULES } from '../../.storybook/a11y-rules';
import * as preview from '../../.storybook/preview';

// Every story's play function, run as a portable story in jsdom, then checked by axe.
// (The same stories run in Chromium in the `storybook` project.)
setProjectAnnotations([preview]);

// axe probes <canvas> for icon contrast; jsdom has no canvas and logs for each call. Nothing to draw here.
HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

const modules = import.meta.glob<Record<string, unknown>>('../../stories/**/*.stories.tsx', { eager: true });

const axeOptions: axe.RunOptions = {
  rules: Object.fromEntries(PAGE_LEVEL_RULES.map((id) => [id, { enabled: false }])),
};

let canvases: HTMLElement[] = [];
afterEach(() => {
  for (const canvas of canvases) canvas.remove();
  canvases = [];
});

describe.each(Object.entries(modules))('%s', (_file, module) => {
  const stories = Object.entries(composeStories(module as Parameters<typeof composeStories>[0]));
  it.each(stories)('%s: play passes and axe finds no violations', async (_name, Story) => {
    const canvasElement = document.createElement('div');
    document.body.append(canvasElement);
    canvases.push(canvasElement);
    await (Story as { run: (context: { canvasElement: HTMLElement }) => Promise<void> }).run({ canvasElement });
    // A story may exclude third-party chrome it does not own, as it tells the a11y addon.
    const exclude = (Story as { parameters?: { a11y?: { context?: { exclude?: string[] } } } }).parameters?.a11y?.context?.exclude ?? [];
    const results = await axe.run({ include: [canvasElement], exclude }, axeOptions);
    const violations = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(violations).toEqual([]);
  });
});
