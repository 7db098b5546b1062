import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MastraCompositeStore } from '@mastra/core/storage';
import { LibSQLStore } from '@mastra/libsql';
import { PostgresStore } from '@mastra/pg';
import { createInterruptRunner, type InterruptEvent, type InterruptRunner } from '../../src/runner';
import { redactUrl } from '../../src/runner/database';
import { approvalLine, demoApprovers, identifyDemoUser, ownerlessAreDefaultUsers } from './users';

/** Where `npm run demo` keeps its data unless `DEMO_DATA_DIR` says otherwise (relative to the working directory). */
export const DEFAULT_DEMO_DATA_DIR = '.demo-data';

export interface DemoStorageOptions {
  /**
   * The folder of the embedded stores: the threads (`threads/`, unless `databaseUrl`), Mastra's
   * storage (`mastra.db`, unless `databaseUrl`), the LangGraph server's files (`langgraph/`) and
   * the approval tickets (`approvals.json`).
   * Unset: a fresh temporary folder, removed on close (nothing outlives the server).
   */
  dataDir?: string;
  /** `postgres://…`: the threads and Mastra's storage in PostgreSQL instead. */
  databaseUrl?: string;
  /** Told each line the demo logs: an approval raised ("Dana, an approval waits for you: …"). Default: the console. */
  log?: (line: string) => void;
}

export interface DemoStorage {
  /** CopilotKit's runner: every thread's events and one row per interrupt. */
  runner: InterruptRunner;
  /** Mastra's storage (a suspended tool call waits there for its answer). */
  mastra: MastraCompositeStore;
  /** The LangGraph API server's working folder (it keeps threads and checkpoints there). */
  langgraphDir: string;
  /** The demo approval system's ticket file. */
  approvalsFile: string;
  /** One line for the console: where the data lives. */
  summary: string;
  close(): Promise<void>;
}

/**
 * Opens the demo's stores: the embedded ones in `dataDir` by default, PostgreSQL for the threads and
 * Mastra with `databaseUrl`. Rejects, naming the URL with its password hidden, when PostgreSQL
 * cannot be reached.
 */
export async function openDemoStorage({ dataDir, databaseUrl, log = console.log }: DemoStorageOptions = {}): Promise<DemoStorage> {
  const temporary = dataDir === undefined;
  const dir = temporary ? await mkdtemp(join(tmpdir(), 'copilotkit-interrupts-demo-')) : resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const url = databaseUrl?.trim() || undefined;
  // The runner tells of each approval raised once, whichever server of several ran it: the demo logs it,
  // where an app would send the e-mail or the chat message that brings the approver.
  const onInterruptEvent = (event: InterruptEvent) => {
    const line = approvalLine(event);
    if (line) log(line);
  };
  // The demo's people (users.ts): the cookie says who asks, each thread is its starter's, and the
  // approval tickets wait for whoever is on call.
  // Threads from before the demo had people have no owner: they are Ana's (the first user).
  const ownerless = new Set<string>();
  const people = { identify: identifyDemoUser, approvers: demoApprovers, authorize: ownerlessAreDefaultUsers(ownerless), onInterruptEvent };
  const runner = url ? createInterruptRunner({ url, ...people }) : createInterruptRunner({ dataDir: join(dir, 'threads'), ...people });
  let mastra: MastraCompositeStore | undefined;
  try {
    await runner.ready();
    // Outside any request, the runner lists every thread; a thread started from now on has an owner.
    for (const thread of await runner.listThreads()) if (thread.createdById === '') ownerless.add(thread.id);
    mastra = url
      ? new PostgresStore({ id: 'copilotkit-interrupts-demo', connectionString: url })
      : new LibSQLStore({ id: 'copilotkit-interrupts-demo', url: pathToFileURL(join(dir, 'mastra.db')).href });
    await mastra.init();
  } catch (error) {
    await runner.close().catch(() => {});
    await (mastra as { close?: () => Promise<void> } | undefined)?.close?.().catch(() => {});
    if (temporary) await rm(dir, { recursive: true, force: true });
    if (url && !String((error as Error)?.message).includes(redactUrl(url))) {
      throw new Error(`The demo cannot use PostgreSQL at ${redactUrl(url)}: ${(error as Error)?.message ?? error}`);
    }
    throw error;
  }
  const langgraphDir = join(dir, 'langgraph');
  const where = temporary ? 'a temporary folder' : dir;
  return {
    runner,
    mastra,
    langgraphDir,
    approvalsFile: join(dir, 'approvals.json'),
    summary: url ? `PostgreSQL at ${redactUrl(url)} (LangGraph: ${langgraphDir})` : `embedded, in ${where}`,
    async close() {
      await runner.close();
      await (mastra as { close?: () => Promise<void> }).close?.();
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}
