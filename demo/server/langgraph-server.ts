import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where the in-process graphs wait for the server's loader (see {@link serveGraphs}). */
const REGISTRY = Symbol.for('copilotkit-interrupts.langgraph-graphs');
type Registry = Map<string, unknown>;
const registry = (): Registry => {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (holder[REGISTRY] ??= new Map());
};

export interface ServedGraphs {
  /** `http://127.0.0.1:<port>`: the `deploymentUrl` LangGraphAgent talks to. */
  url: string;
  /** Stops the server, writing its files out first; removes its working folder when it was temporary. */
  close(): Promise<void>;
}

export interface ServeGraphsOptions {
  /**
   * The server's working folder. @langchain/langgraph-api keeps its threads, runs and checkpoints
   * in `.langgraph_api/*.json` there: read at start, written 3 s after the last change and on
   * `close()`. Unset: a fresh temporary folder, removed on `close()`.
   */
  dir?: string;
}

/**
 * Serves LangGraph graphs built in this process with @langchain/langgraph-api, on 127.0.0.1 and
 * a free port, with its storage in `options.dir` (a temporary folder by default). The server loads graphs by file path, so a
 * two-line module in that folder hands it the graph objects from a process-wide registry.
 * Only one LangGraph API server can run per process (its graph registry is module state).
 *
 * @example
 * const served = await serveGraphs({ interrupts: graph });
 * const agent = new LangGraphAgent({ deploymentUrl: served.url, graphId: 'interrupts' }).use(normalizeInterrupts());
 */
export async function serveGraphs(graphs: Record<string, unknown>, options: ServeGraphsOptions = {}): Promise<ServedGraphs> {
  process.env.LOG_LEVEL ??= 'error';
  process.env.LANGSMITH_TRACING ??= 'false';
  const { startServer } = await import('@langchain/langgraph-api/server');
  const temporary = options.dir === undefined;
  const cwd = temporary ? await mkdtemp(join(tmpdir(), 'copilotkit-interrupts-langgraph-')) : resolve(options.dir!);
  await mkdir(cwd, { recursive: true });
  const specs: Record<string, string> = {};
  for (const [graphId, graph] of Object.entries(graphs)) {
    registry().set(graphId, graph);
    specs[graphId] = `./graphs.mjs:${graphId.replace(/[^A-Za-z0-9_]/g, '_')}`;
  }
  const exportsText = Object.keys(graphs)
    .map(
      (graphId) =>
        `export const ${graphId.replace(/[^A-Za-z0-9_]/g, '_')} = () => globalThis[Symbol.for('copilotkit-interrupts.langgraph-graphs')].get(${JSON.stringify(graphId)});`,
    )
    .join('\n');
  await writeFile(join(cwd, 'graphs.mjs'), `${exportsText}\n`);
  // Each of the API's queue workers looks for a new run, finds none, and sleeps a random 0 to 1 s
  // before it looks again: with two, a run waited a third of a second on average before it
  // started; with ten, a tenth. A worker that finds nothing costs a lookup in memory.
  const { host, cleanup } = await startServer({ port: 0, nWorkers: 10, host: '127.0.0.1', cwd, graphs: specs });
  const port = host.slice(host.lastIndexOf(':') + 1);
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await cleanup();
      for (const graphId of Object.keys(graphs)) registry().delete(graphId);
      if (temporary) await rm(cwd, { recursive: true, force: true });
    },
  };
}
