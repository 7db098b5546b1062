import type { BaseEvent, RunAgentInput } from '@ag-ui/client';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import type { InterruptRunnerOptions } from '../../src/runner';
import { emptyEmbeddedStore } from './embedded-store';
import { startPostgres, type PostgresCluster } from './postgres';

export type StoreKind = 'embedded' | 'PostgreSQL';

/**
 * The two stores a runner suite runs on, a fresh one on each call: the embedded store in a real
 * folder (an empty cluster copied in: see embedded-store.ts), and a database of its own on a real
 * PostgreSQL cluster, started on first use. `name` tells the folders and databases of one suite
 * apart; `cleanup` (in `afterAll`) stops the cluster and removes the folders.
 */
export function runnerStores(name: string): {
  stores: Record<StoreKind, () => Promise<InterruptRunnerOptions>>;
  cleanup: () => Promise<void>;
} {
  const tempDirs: string[] = [];
  let cluster: PostgresCluster | undefined;
  let databases = 0;
  return {
    stores: {
      embedded: async () => {
        const dir = mkdtempSync(join(tmpdir(), `cki-${name}-`));
        tempDirs.push(dir);
        return { dataDir: await emptyEmbeddedStore(join(dir, 'store')) };
      },
      PostgreSQL: async () => {
        cluster ??= await startPostgres();
        return { url: await cluster.createDatabase(`${name}_${++databases}`), pollIntervalMs: 20 };
      },
    },
    cleanup: async () => {
      await cluster?.stop();
      for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every event a runner's run or connect emits, once it completes. */
export const collect = (events: Observable<BaseEvent>): Promise<BaseEvent[]> => lastValueFrom(events.pipe(toArray()));

/** A run's input on `threadId` with a fresh run id; `extra` adds messages, a resume and the like. */
export function inputFor(threadId: string, extra: Partial<RunAgentInput> & { resume?: unknown } = {}): RunAgentInput {
  return { threadId, runId: randomUUID(), messages: [], state: {}, tools: [], context: [], forwardedProps: {}, ...extra } as RunAgentInput;
}
