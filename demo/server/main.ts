// `npm run demo` runs this (bundled by demo/run.mjs after the page is built).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseDemoModel } from './agent';
import { DEFAULT_DEMO_DATA_DIR, startDemoServer } from './index';

const DEFAULT_PORT = 3000;

/**
 * The secret `normalizeInterrupts()` signs interrupt ids with (the page build leaves
 * NODE_ENV=production, where one is required). Without COPILOTKIT_INTERRUPTS_SECRET the demo keeps
 * one in its data folder, so a card open across a restart still answers. Several servers on one
 * database need the same secret: set the variable on each.
 */
function interruptsSecret(dataDir: string): string {
  const file = join(dataDir, 'interrupts-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

async function main() {
  const requested = process.env.PORT;
  const port = requested === undefined || requested === '' ? DEFAULT_PORT : Number(requested);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${requested}".`);
  // `npm run demo` sets DEMO_STARTED_AT when it starts building: each step shows the time so far.
  const startedAt = Number(process.env.DEMO_STARTED_AT) || Date.now();
  const onProgress = (step: string) => console.log(`${step} [${Math.round((Date.now() - startedAt) / 1000)} s]`);
  const { kind, model } = await chooseDemoModel();
  // The data folder (threads, Mastra's storage, LangGraph's files) outlives the process: stop the
  // demo with a card open, start it again, and the card can still be answered.
  const dataDir = process.env.DEMO_DATA_DIR || DEFAULT_DEMO_DATA_DIR;
  const databaseUrl = process.env.DATABASE_URL || undefined;
  process.env.COPILOTKIT_INTERRUPTS_SECRET ||= interruptsSecret(dataDir);
  const start = (p: number) =>
    startDemoServer({ port: p, model, staticDir: process.env.DEMO_STATIC_DIR, dataDir, databaseUrl, onProgress });
  let demo;
  try {
    demo = await start(port);
  } catch (error) {
    // Only the default port falls back to a free one; an explicit PORT that is taken is an error.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || requested) throw error;
    console.log(`Port ${DEFAULT_PORT} is taken; using a free port instead.`);
    demo = await start(0);
  }
  onProgress('Ready.');
  console.log('');
  console.log(`  copilotkit-interrupts demo: ${demo.url}`);
  console.log(`  model: ${kind === 'openai' ? 'OpenAI (DEMO_MODEL=openai)' : 'scripted (no network, no key)'}`);
  console.log(`  threads: ${demo.storage}`);
  console.log('  Ctrl-C stops it.');
  console.log('');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the demo server…`);
    demo.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
