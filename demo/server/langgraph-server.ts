import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

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

/** Where the LangGraph SDK looks for the fetch its clients use (`overrideFetchImplementation`). */
const SDK_FETCH = Symbol.for('lg:fetch_implementation');
type Fetch = typeof fetch;

/**
 * The fetch LangGraph SDK clients use for requests to `origin`: each on a new connection, never on
 * one left idle by an earlier request. The server and its clients share this process's event loop.
 * Node's server drops a connection idle for 6 s (its keep-alive time and a second), and the client
 * stops reusing one after 3 s by its own timer, which starts counting only once the loop is free;
 * when the loop is busy, both come due at once, the server's first, and a request sent right then
 * goes out on the connection just closed ("fetch failed", caused by "other side closed"). The SDK
 * sends a POST only once, so the user would see "Unable to connect to LangGraph server". A new
 * connection to 127.0.0.1 costs next to nothing. Requests elsewhere go to the fetch the SDK had
 * before.
 */
function freshConnectionsTo(origin: string, previous: Fetch | undefined): { fetch: Fetch; stop(): void } {
  let active = true;
  const fetchFor: Fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!active || new URL(url).origin !== origin) return (previous ?? fetch)(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('connection', 'close');
    return fetch(input, { ...init, headers });
  };
  return {
    fetch: fetchFor,
    stop() {
      active = false;
    },
  };
}

type StartServer = (typeof import('@langchain/langgraph-api/server'))['startServer'];
type Storage = Parameters<StartServer>[1];

/**
 * @langchain/langgraph-api's `startServer`, with its own file-backed storage given to it so that a
 * run's stream ends as soon as the run does. The API's stream of a run waits for the run's events
 * with a 500 ms timeout and ends on a "done" message that nothing in it sends: every streamed run
 * ended only when that timeout came and the run read as finished, half a second after its last
 * event (each chat turn, each answer to a card). Here the storage's operations are the API's own
 * (`FileSystemOps` on `FileSystemPersistence`, exactly what `startServer` makes when given none),
 * and once a run is finished and its thread's status is written (the last thing the API's worker
 * does with a run), the "done" message goes to the run's stream. These classes are not among the
 * package's exports: they are loaded from its files, the server with them (one copy of the API's
 * module state); when they are not found (another version of the package), the server starts as
 * it is and streams end on the timeout.
 */
async function serverWithPromptStreamEnds(cwd: string): Promise<{ startServer: StartServer; storage?: Storage }> {
  const dist = join(dirname(createRequire(import.meta.url).resolve('@langchain/langgraph-api/package.json')), 'dist');
  // The API's own classes, untyped outside its package: used only as startServer uses them.
  type Loaded = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const load = async (file: string): Promise<Loaded | undefined> => {
    try {
      return (await import(pathToFileURL(join(dist, file)).href)) as Loaded;
    } catch {
      return undefined;
    }
  };
  const [server, ops, persist] = await Promise.all([load('server.mjs'), load('storage/ops.mjs'), load('storage/persist.mjs')]);
  const { FileSystemOps, StreamManager } = ops ?? {};
  const { FileSystemPersistence } = persist ?? {};
  if (typeof server?.startServer !== 'function' || !FileSystemOps || !StreamManager?.getQueue || !FileSystemPersistence) {
    return { startServer: (await import('@langchain/langgraph-api/server')).startServer };
  }
  // What startServer makes when given no storage.
  const conn = new FileSystemPersistence('.langgraphjs_ops.json', () => ({
    runs: {},
    threads: {},
    assistants: {},
    assistant_versions: [],
    retry_counter: {},
  }));
  await conn.initialize(cwd);
  const operations = new FileSystemOps(conn);
  /** Runs finished whose thread's status is not written yet, by thread. */
  const finished = new Map<string, string[]>();
  const { runs, threads } = operations;
  const setRunStatus = runs.setStatus.bind(runs);
  runs.setStatus = async (runId: string, status: string) => {
    await setRunStatus(runId, status);
    if (status === 'pending' || status === 'running') return;
    const threadId = await conn.with((store: { runs: Record<string, { thread_id?: string } | undefined> }) => store.runs[runId]?.thread_id);
    if (threadId) finished.set(threadId, [...(finished.get(threadId) ?? []), runId]);
  };
  const endStreams = (threadId: string) => {
    for (const runId of finished.get(threadId) ?? []) {
      StreamManager.getQueue(runId, { ifNotFound: 'create', resumable: false }).push({ topic: `run:${runId}:control`, data: 'done' });
    }
    finished.delete(threadId);
  };
  for (const name of ['setStatus', 'delete'] as const) {
    const original = threads[name].bind(threads);
    threads[name] = async (threadId: string, ...rest: unknown[]) => {
      try {
        return await original(threadId, ...rest);
      } finally {
        endStreams(threadId);
      }
    };
  }
  return { startServer: server.startServer as StartServer, storage: { ops: operations } as Storage };
}

/**
 * Serves LangGraph graphs built in this process with @langchain/langgraph-api, on 127.0.0.1 and
 * a free port, with its storage in `options.dir` (a temporary folder by default). The server loads graphs by file path, so a
 * two-line module in that folder hands it the graph objects from a process-wide registry.
 * Only one LangGraph API server can run per process (its graph registry is module state).
 * Until `close()`, the LangGraph SDK's clients in this process (CopilotKit's LangGraphAgent makes
 * one from `deploymentUrl`) send each request to this server on a new connection: see
 * {@link freshConnectionsTo}.
 *
 * @example
 * const served = await serveGraphs({ interrupts: graph });
 * const agent = new LangGraphAgent({ deploymentUrl: served.url, graphId: 'interrupts' }).use(normalizeInterrupts());
 */
export async function serveGraphs(graphs: Record<string, unknown>, options: ServeGraphsOptions = {}): Promise<ServedGraphs> {
  process.env.LOG_LEVEL ??= 'error';
  process.env.LANGSMITH_TRACING ??= 'false';
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
  const { startServer, storage } = await serverWithPromptStreamEnds(cwd);
  const { host, cleanup } = await startServer({ port: 0, nWorkers: 10, host: '127.0.0.1', cwd, graphs: specs }, storage);
  const port = host.slice(host.lastIndexOf(':') + 1);
  const url = `http://127.0.0.1:${port}`;
  const holder = globalThis as unknown as Record<symbol, Fetch | undefined>;
  const previous = holder[SDK_FETCH];
  const fresh = freshConnectionsTo(url, previous);
  holder[SDK_FETCH] = fresh.fetch;
  return {
    url,
    async close() {
      fresh.stop();
      if (holder[SDK_FETCH] === fresh.fetch) holder[SDK_FETCH] = previous;
      await cleanup();
      for (const graphId of Object.keys(graphs)) registry().delete(graphId);
      if (temporary) await rm(cwd, { recursive: true, force: true });
    },
  };
}
