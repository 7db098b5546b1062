/**
 * Figures 2-4 in headless Chromium (Debian's chromium package, launched by the shared test helper).
 * The page (bench/pages/main.tsx) is bundled with esbuild in production mode and served from
 * memory through Playwright's request routing: no port is opened and nothing leaves the machine.
 * Both sides of each comparison load the same bundle; they alternate page loads so that a busy
 * neighbour on the machine slows both alike.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/chromium';
import { ROOT } from './size';

const ORIGIN = 'http://bench.localhost';

export interface PageBundle {
  js: Buffer;
  css: Buffer;
}

/**
 * The expression in CopilotKit's chat that estimates a row not yet measured: the average height of
 * the rows measured so far. Figure 4d replaces it (see `fixedRowEstimate`).
 */
const AVERAGE_ROW_ESTIMATE = 'sizes.size > 0 ? Math.max(1, Math.round(total / sizes.size)) : 100';

/** Figure 4d's estimate for a row not yet measured: about one short message. */
export const FIXED_ROW_ESTIMATE_PX = 60;

/**
 * Figure 4d's change to CopilotKit (in the bench page only, never shipped): a new row is estimated
 * at a fixed height instead of the average of the measured rows. Answered cards make the average
 * large, so every appended row is first laid out far too tall and then shrinks, and the virtualizer
 * drops and remounts the rows at the top of its overscan on the way (bench/README). Fails the
 * figure, rather than measuring the unchanged chat, when a CopilotKit upgrade moved the expression.
 */
function fixedRowEstimate(): Plugin {
  let replaced = 0;
  return {
    name: 'fixed-row-estimate',
    setup(build) {
      build.onLoad({ filter: /@copilotkit[\\/]react-core[\\/]dist[\\/].*\.mjs$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(AVERAGE_ROW_ESTIMATE)) return undefined;
        replaced++;
        return { contents: source.replace(AVERAGE_ROW_ESTIMATE, String(FIXED_ROW_ESTIMATE_PX)), loader: 'js' };
      });
      build.onEnd(() => {
        if (replaced === 0) {
          throw new Error(
            "CopilotKit's row estimate (the average of the measured rows) was not found in @copilotkit/react-core: figure 4d needs updating for this version",
          );
        }
      });
    },
  };
}

/**
 * The bench page, production React (its profiling build, so `<Profiler>` counts renders); with
 * `fixedEstimate`, figure 4d's page (CopilotKit's row estimate fixed).
 */
export async function buildPage(fixedEstimate = false): Promise<PageBundle> {
  const outdir = join(ROOT, 'node_modules', '.cache', 'copilotkit-interrupts-bench', fixedEstimate ? 'page-fixed-estimate' : 'page');
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { main: join(ROOT, 'bench', 'pages', 'main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: { 'react-dom/client': 'react-dom/profiling' },
    loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
    plugins: fixedEstimate ? [fixedRowEstimate()] : [],
    logLevel: 'error',
  });
  return { js: readFileSync(join(outdir, 'main.js')), css: readFileSync(join(outdir, 'main.css')) };
}

/** The page's two builds: CopilotKit as shipped, and figure 4d's (its row estimate fixed). */
export type PageBuild = 'shipped' | 'fixed-estimate';

const html = (dir: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>
<link rel="stylesheet" href="${dir}/main.css"></head><body style="margin:0"><div id="root"></div>
<script type="module" src="${dir}/main.js"></script></body></html>`;

/** Serves each build under its own folder (`/` for the shipped one); `?build=` picks one. */
async function serve(context: BrowserContext, bundles: Partial<Record<PageBuild, PageBundle>>): Promise<void> {
  const dir = (name: PageBuild) => (name === 'shipped' ? '' : `/${name}`);
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname === '/') {
      const name = (url.searchParams.get('build') ?? 'shipped') as PageBuild;
      return route.fulfill({ body: html(dir(name)), contentType: 'text/html' });
    }
    for (const [name, bundle] of Object.entries(bundles) as Array<[PageBuild, PageBundle]>) {
      if (url.pathname === `${dir(name)}/main.js`) return route.fulfill({ body: bundle.js, contentType: 'text/javascript' });
      if (url.pathname === `${dir(name)}/main.css`) return route.fulfill({ body: bundle.css, contentType: 'text/css' });
    }
    return route.fulfill({ status: 404, body: '' });
  });
}

async function openPage(context: BrowserContext, query: string): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${ORIGIN}/?${query}`);
  try {
    await page.waitForFunction(() => window.__bench?.ready(), undefined, { timeout: 20_000 });
  } catch (error) {
    throw new Error(`bench page ${query} did not start: ${errors.join('; ') || String(error)}`);
  }
  return page;
}

const pause = (page: Page, ms: number) => page.waitForTimeout(ms);

export type InterruptVariant = 'ours' | 'plain';

export interface InterruptSamples {
  /** Figure 2: RUN_FINISHED emitted -> interactive card in the DOM, ms. */
  toCard: number[];
  /** Figure 3: click on a slot -> the resume run's input reaches the agent, ms. */
  toResume: number[];
  /** Figure 3: per click, was the read-only card painted, and did the card ever vanish. */
  readOnly: Array<{ painted: boolean; vanished: boolean }>;
  /** Figure 3: every resume carried the picked slot. */
  resumeShapesOk: boolean;
}

/** One page load: `iterations` ask -> card -> click -> resume turns; the first is a warm-up. */
async function interruptRound(context: BrowserContext, variant: InterruptVariant, iterations: number, into: InterruptSamples) {
  const page = await openPage(context, `scenario=interrupt&variant=${variant}`);
  try {
    for (let i = 0; i < iterations; i++) {
      await page.evaluate(() => window.__bench.ask());
      await page.waitForFunction((n) => window.__bench.interruptLog.cardAt.length > n, i, { timeout: 10_000 });
      await pause(page, 60);
      await page.locator('[data-testid="time-picker-card"] [data-testid="time-picker-slot"]').first().click();
      await page.waitForFunction((n) => window.__bench.interruptLog.answered > n, i, { timeout: 10_000 });
      // Keep watching a little after the resume run ended: a card that vanishes late still counts.
      await pause(page, 150);
      await page.evaluate(() => window.__bench.endWatch());
    }
    const { log, resumes } = await page.evaluate(() => ({ log: window.__bench.interruptLog, resumes: window.__bench.resumes() }));
    if (log.cardAt.length !== iterations || log.clickAt.length !== iterations || resumes.length !== iterations) {
      throw new Error(
        `${variant}: expected ${iterations} cards/clicks/resumes, got ${log.cardAt.length}/${log.clickAt.length}/${resumes.length}`,
      );
    }
    for (let i = 1; i < iterations; i++) {
      into.toCard.push(log.cardAt[i] - log.finishedAt[i]);
      into.toResume.push(resumes[i].at - log.clickAt[i]);
      into.readOnly.push(log.readOnly[i]);
    }
    for (const { resume } of resumes) {
      const payload = resume?.[0]?.payload as { chosen_time?: string } | undefined;
      if (resume?.[0]?.status !== 'resolved' || typeof payload?.chosen_time !== 'string') into.resumeShapesOk = false;
    }
  } finally {
    await page.close();
  }
}

export interface TranscriptSamples {
  /** Wall time from the run's start to the text in the DOM, ms (skewed by other load on the machine). */
  appendMs: number[];
  streamMs: number[];
  /** CPU time of the page's main thread over the whole turn (JS, style, layout, paint), ms. */
  appendCpuMs: number[];
  streamCpuMs: number[];
  /** The same for answering a new interrupt (ask, pick a slot, resume, answer). */
  answerMs: number[];
  answerCpuMs: number[];
  answerRenders: number[];
  /** Renders of resolved cards during the timed turns (summed per turn kind). */
  appendRenders: number[];
  /** Figure 4b: rows the virtualizer unmounted and mounted again during each turn, by turn kind. */
  appendRemounts: number[];
  answerRemounts: number[];
  streamRenders: number[];
  /** Figure 4b only: scrolling up through the conversation. */
  scrollMs: number[];
  scrollCpuMs: number[];
  scrollRenders: number[];
  scrollRemounts: number[];
  /**
   * Where each turn's main-thread time went, by turn kind: running script, and style + layout
   * (Chromium's own accounting, wall time of those activities). The rest is paint, compositing
   * and the browser's other work.
   */
  scriptMs: Partial<Record<TurnKind, number[]>>;
  layoutMs: Partial<Record<TurnKind, number[]>>;
  echoesInDom: number;
}

/** Figure 4 (`transcript`: 30 messages, 200 echoes, all mounted) or 4b (`long`: 300 messages, 1,000 echoes, virtualized). */
export type TranscriptScenario = 'transcript' | 'long';

export type TranscriptVariant = 'echoes' | 'plain';

interface TranscriptPage {
  page: Page;
  variant: TranscriptVariant;
  into: TranscriptSamples;
  /** The page's main-thread counters so far, ms: CPU time, script, style + layout. */
  metrics: () => Promise<{ thread: number; script: number; layout: number }>;
  close: () => Promise<void>;
}

/**
 * One page with the transcript loaded, its echoes mounted and checked, warmed up. In the
 * 30-message transcript every echo is mounted; in the 300-message one CopilotKit virtualizes the
 * list, so only the echoes of the rows in view (and its overscan) are.
 */
async function openTranscriptPage(
  context: BrowserContext,
  scenario: TranscriptScenario,
  variant: TranscriptVariant,
  into: TranscriptSamples,
  offset: number,
  pageBuild: PageBuild,
): Promise<TranscriptPage> {
  const page = await openPage(context, `scenario=${scenario}&variant=${variant}&build=${pageBuild}`);
  await pause(page, 200);
  await page.evaluate(() => window.__bench.loadTranscript());
  const last = await page.evaluate(() => window.__bench.lastMessageText);
  await page.waitForFunction((text) => document.body.innerText.includes(text), last, { timeout: 20_000 });
  const planned = variant === 'echoes' ? await page.evaluate(() => window.__bench.echoesPlanned) : 0;
  if (scenario === 'transcript') {
    await page.waitForFunction((n) => window.__bench.echoesInDom() === n, planned, { timeout: 20_000 });
  } else if (variant === 'echoes') {
    // Virtualized: some echoes (those of the rows in view), never all of them.
    await page.waitForFunction(() => window.__bench.echoesInDom() > 0, undefined, { timeout: 20_000 });
  }
  await pause(page, 300);
  into.echoesInDom = await page.evaluate(() => window.__bench.echoesInDom());
  if (scenario === 'long' && into.echoesInDom >= planned && planned > 0) {
    throw new Error(`all ${planned} echoes are mounted: CopilotKit did not virtualize the 300-message conversation`);
  }
  // Positive control: mounting the echoes must have been counted, or a 0 below means nothing.
  const mounted = await page.evaluate(() => window.__bench.echoRendersTotal());
  const expected = scenario === 'transcript' ? planned : into.echoesInDom;
  if (mounted < expected) throw new Error(`the Profiler counted ${mounted} card renders while mounting ${expected} echoes`);
  await page.evaluate((k) => window.__bench.append(k), offset);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return {
    page,
    variant,
    into,
    metrics: async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const ms = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? Number.NaN) * 1000;
      return { thread: ms('ThreadTime'), script: ms('ScriptDuration'), layout: ms('RecalcStyleDuration') + ms('LayoutDuration') };
    },
    close: async () => {
      const { messages, threshold } = await page.evaluate(() => ({
        messages: window.__bench.messageCount(),
        threshold: window.__bench.virtualizeThreshold,
      }));
      await cdp.detach();
      await page.close();
      if (scenario === 'transcript' && messages > threshold) {
        throw new Error(`the transcript grew to ${messages} messages: CopilotKit virtualized it mid-run`);
      }
    },
  };
}

export type TurnKind = 'append' | 'stream' | 'answer' | 'scroll';

/** The longest a timed turn may take (they take well under a second). */
const TURN_TIMEOUT_MS = 60_000;

async function timeTurn(side: TranscriptPage, kind: TurnKind, k: number): Promise<void> {
  // A page in the background gets no animation frames: the timed one is always in front.
  await side.page.bringToFront();
  await pause(side.page, 50);
  const before = await side.metrics();
  const turn = side.page.evaluate(
    ([turn, n]) =>
      turn === 'append'
        ? window.__bench.append(n)
        : turn === 'stream'
          ? window.__bench.stream(n)
          : turn === 'scroll'
            ? window.__bench.scroll()
            : window.__bench.answer(n),
    [kind, k] as const,
  );
  // A turn waits for text or frames that may never come (a page that stopped painting): it fails
  // the figure with a reason instead of hanging the run.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the ${kind} turn on the ${side.variant} page did not finish within ${TURN_TIMEOUT_MS / 1000} s`)),
      TURN_TIMEOUT_MS,
    );
  });
  const result = await Promise.race([turn, stalled]).finally(() => clearTimeout(timer));
  const after = await side.metrics();
  const cpu = after.thread - before.thread;
  const { into } = side;
  (into.scriptMs[kind] ??= []).push(after.script - before.script);
  (into.layoutMs[kind] ??= []).push(after.layout - before.layout);
  if (kind === 'scroll') {
    into.scrollCpuMs.push(cpu);
    into.scrollMs.push(result.ms);
    into.scrollRenders.push(result.renders);
    into.scrollRemounts.push(result.remounts);
    // Back to the newest message, untimed, so the next turn starts where a chat stays.
    await side.page.evaluate(() => window.__bench.toBottom());
  } else if (kind === 'append') {
    into.appendCpuMs.push(cpu);
    into.appendMs.push(result.ms);
    into.appendRenders.push(result.renders);
    into.appendRemounts.push(result.remounts);
  } else if (kind === 'stream') {
    into.streamCpuMs.push(cpu);
    into.streamMs.push(result.ms);
    into.streamRenders.push(result.renders);
  } else {
    into.answerCpuMs.push(cpu);
    into.answerMs.push(result.ms);
    into.answerRenders.push(result.renders);
    into.answerRemounts.push(result.remounts);
  }
}

/**
 * One round of figure 4: both transcripts open side by side, each kind of turn timed on one and
 * then the other (order alternating), so a change in the machine's load hits both sides alike.
 */
async function transcriptRound(
  context: BrowserContext,
  scenario: TranscriptScenario,
  turns: number,
  samples: Record<TranscriptVariant, TranscriptSamples>,
  offset: number,
  pageBuild: PageBuild = 'shipped',
) {
  const echoes = await openTranscriptPage(context, scenario, 'echoes', samples.echoes, offset, pageBuild);
  let plain: TranscriptPage | undefined;
  const kinds: readonly TurnKind[] = scenario === 'long' ? ['scroll', 'append', 'answer'] : ['append', 'stream', 'answer'];
  try {
    plain = await openTranscriptPage(context, scenario, 'plain', samples.plain, offset, pageBuild);
    for (let t = 1; t <= turns; t++) {
      for (const kind of kinds) {
        const order = t % 2 === 0 ? [echoes, plain] : [plain, echoes];
        for (const side of order) await timeTurn(side, kind, offset + t);
      }
    }
  } finally {
    await echoes.close();
    await plain?.close();
  }
}

export interface BrowserSettings {
  /** Page loads per side for figures 2-3, and turns per load (the first is a warm-up). */
  interruptRounds: number;
  interruptIterations: number;
  /** Page loads per side for figure 4, and timed turns (append + stream) per load. */
  transcriptRounds: number;
  transcriptTurns: number;
  /** Page loads per side for figure 4b (the 300-message conversation), and timed turns of each kind per load. */
  longRounds: number;
  longTurns: number;
}

export const DEFAULT_BROWSER_SETTINGS: BrowserSettings = {
  interruptRounds: 6,
  interruptIterations: 8,
  transcriptRounds: 3,
  transcriptTurns: 5,
  longRounds: 3,
  longTurns: 6,
};

/** Figure 4c: DOM nodes of one answered card of every kind, closed (as the transcript shows it) and opened. */
export type NodeCounts = Array<{ kind: string; closed: number; opened: number }>;

async function measureNodes(context: BrowserContext): Promise<NodeCounts> {
  const page = await openPage(context, 'scenario=nodes');
  try {
    await pause(page, 200);
    await page.evaluate(() => window.__bench.loadTranscript());
    const kinds = await page.evaluate(() => window.__bench.nodeKinds);
    await page.waitForFunction((n) => window.__bench.echoesOfEveryKind() === n, kinds, { timeout: 20_000 });
    return await page.evaluate(() => window.__bench.countNodes());
  } finally {
    await page.close();
  }
}

/** Figure 9's sides: "Approve all" on a set of 20 approvals, and Approve on a set of one. */
export type BatchVariant = 'all' | 'one';

export interface BatchSamples {
  /** Click -> the resume run's input at the agent, ms. */
  toResume: number[];
  /** Approvals in the set. */
  size: number;
  /** Turns whose one resume carried every approval as approved (the rest are failures). */
  complete: number;
  /** Turns that sent more than one resume. */
  extraResumes: number;
}

/** Figure 9: page loads per side, turns per load (the first a warm-up), and the set's size. */
export const BATCH_ROUNDS = 6;
export const BATCH_TURNS = 4;
export const BATCH_SIZE = 20;

async function batchRound(context: BrowserContext, variant: BatchVariant, into: BatchSamples) {
  const page = await openPage(context, `scenario=batch&variant=${variant}`);
  try {
    await page.bringToFront();
    await pause(page, 200);
    for (let k = 0; k < BATCH_TURNS; k++) {
      const turn = await page.evaluate(([n, size]) => window.__bench.approveAll(n, size), [k, into.size] as const);
      if (k === 0) continue;
      into.toResume.push(turn.ms);
      if (turn.decisions === into.size) into.complete++;
      if (turn.resumes > 1) into.extraResumes++;
    }
  } finally {
    await page.close();
  }
}

export interface BrowserResults {
  interrupt: Record<InterruptVariant, InterruptSamples>;
  transcript: Record<TranscriptVariant, TranscriptSamples> | null;
  transcriptError?: string;
  long: Record<TranscriptVariant, TranscriptSamples> | null;
  longError?: string;
  /** Figure 4d: figure 4b again, on the page whose CopilotKit estimates new rows at a fixed height. */
  estimate: Record<TranscriptVariant, TranscriptSamples> | null;
  estimateError?: string;
  nodes: NodeCounts | null;
  nodesError?: string;
  /** Figure 9: "Approve all" on 20 approvals, against Approve on one. */
  batch: Record<BatchVariant, BatchSamples> | null;
  batchError?: string;
}

export async function measureBrowser(
  settings: BrowserSettings,
  log: (message: string) => void,
  parts: { interrupt: boolean; transcript: boolean; long: boolean; estimate: boolean; nodes: boolean; batch: boolean },
): Promise<BrowserResults> {
  log('browser: bundling the bench page with esbuild...');
  const bundles: Partial<Record<PageBuild, PageBundle>> = { shipped: await buildPage() };
  let estimateError: string | undefined;
  if (parts.estimate) {
    try {
      bundles['fixed-estimate'] = await buildPage(true);
    } catch (error) {
      estimateError = error instanceof Error ? error.message : String(error);
    }
  }
  const launched = await launchChromium();
  const emptyInterrupt = (): InterruptSamples => ({ toCard: [], toResume: [], readOnly: [], resumeShapesOk: true });
  const emptyTranscript = (): TranscriptSamples => ({
    appendMs: [],
    streamMs: [],
    appendCpuMs: [],
    streamCpuMs: [],
    answerMs: [],
    answerCpuMs: [],
    answerRenders: [],
    appendRenders: [],
    appendRemounts: [],
    answerRemounts: [],
    streamRenders: [],
    scrollMs: [],
    scrollCpuMs: [],
    scrollRenders: [],
    scrollRemounts: [],
    scriptMs: {},
    layoutMs: {},
    echoesInDom: 0,
  });
  const results: BrowserResults = {
    interrupt: { ours: emptyInterrupt(), plain: emptyInterrupt() },
    transcript: null,
    long: null,
    estimate: null,
    estimateError,
    nodes: null,
    batch: null,
  };
  // Figures 4b and 4d: the 300-message conversation, both sides, on one build of the page.
  const longConversation = async (pageBuild: PageBuild, label: string) => {
    const samples = { echoes: emptyTranscript(), plain: emptyTranscript() };
    for (let round = 0; round < settings.longRounds; round++) {
      log(`browser: ${label} round ${round + 1}/${settings.longRounds}, 300 messages, both sides`);
      await transcriptRound(launched.browser, 'long', settings.longTurns, samples, 1000 + round * 100, pageBuild);
    }
    return samples;
  };
  try {
    await serve(launched.browser, bundles);
    if (parts.interrupt) {
      for (let round = 0; round < settings.interruptRounds; round++) {
        const order: InterruptVariant[] = round % 2 === 0 ? ['ours', 'plain'] : ['plain', 'ours'];
        for (const variant of order) {
          log(`browser: interrupt round ${round + 1}/${settings.interruptRounds}, ${variant}`);
          await interruptRound(launched.browser, variant, settings.interruptIterations, results.interrupt[variant]);
        }
      }
    }
    if (parts.transcript) {
      const transcript = { echoes: emptyTranscript(), plain: emptyTranscript() };
      try {
        for (let round = 0; round < settings.transcriptRounds; round++) {
          log(`browser: transcript round ${round + 1}/${settings.transcriptRounds}, both transcripts side by side`);
          await transcriptRound(launched.browser, 'transcript', settings.transcriptTurns, transcript, round * 100);
        }
        results.transcript = transcript;
      } catch (error) {
        results.transcriptError = error instanceof Error ? error.message : String(error);
      }
    }
    if (parts.nodes) {
      log('browser: DOM nodes per echo, one answered card of every kind');
      try {
        results.nodes = await measureNodes(launched.browser);
      } catch (error) {
        results.nodesError = error instanceof Error ? error.message : String(error);
      }
    }
    if (parts.batch) {
      const empty = (size: number): BatchSamples => ({ toResume: [], size, complete: 0, extraResumes: 0 });
      const batch: Record<BatchVariant, BatchSamples> = { all: empty(BATCH_SIZE), one: empty(1) };
      try {
        for (let round = 0; round < BATCH_ROUNDS; round++) {
          const order: BatchVariant[] = round % 2 === 0 ? ['all', 'one'] : ['one', 'all'];
          for (const variant of order) {
            log(
              `browser: approve all round ${round + 1}/${BATCH_ROUNDS}, ${variant === 'all' ? `${BATCH_SIZE} approvals` : 'one approval'}`,
            );
            await batchRound(launched.browser, variant, batch[variant]);
          }
        }
        results.batch = batch;
      } catch (error) {
        results.batchError = error instanceof Error ? error.message : String(error);
      }
    }
    if (parts.long) {
      try {
        results.long = await longConversation('shipped', 'long conversation');
      } catch (error) {
        results.longError = error instanceof Error ? error.message : String(error);
      }
    }
    if (bundles['fixed-estimate']) {
      try {
        results.estimate = await longConversation('fixed-estimate', "long conversation, CopilotKit's row estimate fixed,");
      } catch (error) {
        results.estimateError = error instanceof Error ? error.message : String(error);
      }
    }
  } finally {
    await launched.close();
  }
  return results;
}
