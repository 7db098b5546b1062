// `npm run demo` runs this (bundled by demo/run.mjs after the page is built).
import { chooseDemoModel } from './agent';
import { DEFAULT_DEMO_DATA_DIR, startDemoServer } from './index';

const DEFAULT_PORT = 3000;

async function main() {
  const requested = process.env.PORT;
  const port = requested === undefined || requested === '' ? DEFAULT_PORT : Number(requested);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${requested}".`);
  const { kind, model } = await chooseDemoModel();
  // The data folder (threads, Mastra's storage, LangGraph's files) outlives the process: stop the
  // demo with a card open, start it again, and the card can still be answered.
  const dataDir = process.env.DEMO_DATA_DIR || DEFAULT_DEMO_DATA_DIR;
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const start = (p: number) => startDemoServer({ port: p, model, staticDir: process.env.DEMO_STATIC_DIR, dataDir, databaseUrl });
  let demo;
  try {
    demo = await start(port);
  } catch (error) {
    // Only the default port falls back to a free one; an explicit PORT that is taken is an error.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || requested) throw error;
    console.log(`Port ${DEFAULT_PORT} is taken; using a free port instead.`);
    demo = await start(0);
  }
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
