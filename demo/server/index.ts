import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CopilotRuntime, createCopilotRuntimeHandler } from '@copilotkit/runtime/v2';
import { createCopilotNodeHandler } from '@copilotkit/runtime/v2/node';
import { LangGraphAgent } from '@copilotkit/runtime/langgraph';
import { createDemoAgents, createDemoMastra } from './agent';
import { DEMO_GRAPH_ID, createDemoGraph } from './langgraph-agent';
import { withHitlRoute } from './langchain-hitl-agent';
import { serveGraphs } from './langgraph-server';
import { openDemoStorage } from './storage';
import { endStreamsOnDisconnect } from './end-streams-on-disconnect';
import { createInboxHandler } from '../../src/runner';
import { withNormalizedInterrupts } from '../../src/runtime';
import { ApprovalStore, type ApprovalStoreOptions } from './approvals';
import { DEMO_USER_COOKIE, DEMO_USERS, demoUserOf, mayWorkTickets, ticketRefusal, unknownDemoUserMessage } from './users';
import type { TimePickerToolOptions } from '../../src/mastra';

export { ApprovalStore } from './approvals';
export { DEFAULT_DEMO_DATA_DIR } from './storage';
export { DEMO_QUESTIONS, GREETING, decide } from './scripted-model';
export { DEMO_USERS, DEMO_USER_COOKIE, DEPLOY_APPROVER_ROLE, type DemoUser } from './users';

/** Where CopilotRuntime is mounted. */
export const RUNTIME_PATH = '/api/copilotkit';
/**
 * Where the demo's approval system is mounted: `GET :sn` (any demo user), `POST :sn/refresh` and
 * `POST :sn/cancel` (only someone on call: a ticket waits for them). A cookie that names no demo
 * user is refused 401 `unknown_demo_user`, anyone else 403 `not_an_approver`.
 */
export const APPROVALS_PATH = '/api/approvals';
/** Where the inbox is mounted: `GET` lists the interrupts that wait, from the durable runner's rows. */
export const INBOX_PATH = '/api/inbox';
/** `GET`: who the browser is (`{ user, users, cookie }`), or 401 `{ error, code, users, cookie }` for a cookie that names no demo user. */
export const DEMO_USER_PATH = '/api/demo-user';
/** Loopback only: the demo is never reachable from the network. */
export const DEMO_HOST = '127.0.0.1';

export interface DemoServerOptions {
  /** Port to listen on; `0` picks a free one. Default 0. */
  port?: number;
  /** The built page (`vite build` output). Default `demo/dist` next to this folder. */
  staticDir?: string;
  /** The language model. Default: the deterministic scripted model. */
  model?: unknown;
  /** Options of the in-process approval system (how many refreshes approve a ticket). */
  approvals?: ApprovalStoreOptions;
  /** The time picker's candidate slots. Default: the four relative slots (Tomorrow 10:00 AM, …). */
  timeSlots?: TimePickerToolOptions['slots'];
  /**
   * Serve the LangGraph agent too (agent `langgraph`). Default true. The LangGraph API server's
   * workers poll forever, so a process that must exit on its own after `close()` (a test runner's
   * main process) passes false.
   */
  langgraph?: boolean;
  /** Told what the start is doing, step by step (`npm run demo` prints it). */
  onProgress?: (step: string) => void;
  /**
   * The folder the demo keeps its data in: the threads (`threads/`, the durable runner's embedded
   * store), Mastra's storage (`mastra.db`), the LangGraph server's files (`langgraph/`) and the
   * approval tickets (`approvals.json`). Start a server again on the same folder and its threads,
   * open cards included, are still there. Unset: a fresh temporary folder, removed on `close()`.
   * One process at a time per folder.
   */
  dataDir?: string;
  /** `postgres://…`: the threads and Mastra's storage in PostgreSQL (several servers may share it). */
  databaseUrl?: string;
  /** Told each line the demo logs while it serves: an approval raised ("Dana, an approval waits for you: …"). Default: the console. */
  log?: (line: string) => void;
}

export interface DemoServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Where the threads live, for the console: `embedded, in <folder>` or `PostgreSQL at <url, password hidden>`. */
  storage: string;
  /** The in-process approval system, for tests. */
  approvals: ApprovalStore;
  /** Stops accepting requests, ends open connections, resolves when closed. */
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

function defaultStaticDir(): string {
  return fileURLToPath(new URL('../dist', import.meta.url));
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The user switcher's source: who this browser is, by its cookie, and who else it could be. */
function handleDemoUser(req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET') return sendJson(res, 405, { error: 'Use GET' });
  const users = DEMO_USERS.map(({ id, name, roles, about }) => ({ id, name, roles, about }));
  const found = demoUserOf(req.headers.cookie);
  const cookie = DEMO_USER_COOKIE;
  if ('unknown' in found)
    return sendJson(res, 401, { error: unknownDemoUserMessage(found.unknown), code: 'unknown_demo_user', users, cookie });
  return sendJson(res, 200, { user: users.find((user) => user.id === found.user.id), users, cookie });
}

function handleApprovals(req: IncomingMessage, res: ServerResponse, approvals: ApprovalStore, path: string) {
  const match = /^\/([A-Za-z0-9-]+)(?:\/(refresh|cancel))?\/?$/.exec(path.slice(APPROVALS_PATH.length));
  if (!match) return sendJson(res, 404, { error: 'Not found' });
  const [, sn, action] = match;
  if (action && req.method !== 'POST') return sendJson(res, 405, { error: `Use POST for ${action}` });
  if (!action && req.method !== 'GET') return sendJson(res, 405, { error: 'Use GET' });
  // Who asks, as the runtime and the inbox tell (the same cookie): refreshing a ticket is what
  // approves it here, so only whoever the ticket waits for may refresh or withdraw it.
  const found = demoUserOf(req.headers.cookie);
  if ('unknown' in found) return sendJson(res, 401, { error: unknownDemoUserMessage(found.unknown), code: 'unknown_demo_user' });
  if (action && !mayWorkTickets(found.user))
    return sendJson(res, 403, { error: ticketRefusal(found.user, action, sn), code: 'not_an_approver' });
  const ticket = action === 'refresh' ? approvals.refresh(sn) : action === 'cancel' ? approvals.cancel(sn) : approvals.get(sn);
  if (!ticket) return sendJson(res, 404, { error: `No approval ticket ${sn}` });
  return sendJson(res, 200, { ticket });
}

function serveStatic(req: IncomingMessage, res: ServerResponse, root: string, path: string) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { 'content-type': 'text/plain' });
    return res.end('Method not allowed');
  }
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    return res.end('The demo page is not built. Run `npm run demo` (it builds the page and starts this server).');
  }
  let file = normalize(join(root, decodeURIComponent(path)));
  if (file !== root && !file.startsWith(root + sep)) file = index;
  if (!existsSync(file) || !statSync(file).isFile()) file = index; // single page: every route is the chat
  res.writeHead(200, {
    'content-type': MIME[extname(file)] ?? 'application/octet-stream',
    'cache-control': file === index ? 'no-store' : 'public, max-age=3600',
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file).pipe(res);
}

/**
 * Starts the demo: one HTTP server on 127.0.0.1 serving the built page, CopilotRuntime at
 * `/api/copilotkit` (a real Mastra agent on the scripted model, via @ag-ui/mastra and
 * `normalizeInterrupts()`; the durable runner from `copilotkit-interrupts/runner`), the
 * approval system at `/api/approvals`, and the inbox (`createInboxHandler`) at `/api/inbox`.
 *
 * @example
 * const demo = await startDemoServer({ port: 0 });
 * // … drive `${demo.url}` …
 * await demo.close();
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  process.env.COPILOTKIT_TELEMETRY_DISABLED ??= 'true';
  process.env.MASTRA_TELEMETRY_DISABLED ??= 'true';

  const progress = options.onProgress ?? (() => {});
  progress('Opening the demo data…');
  const storage = await openDemoStorage({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    ...(options.log ? { log: options.log } : {}),
  });
  let approvals: ApprovalStore;
  try {
    approvals = new ApprovalStore({ ...options.approvals, file: storage.approvalsFile });
  } catch (error) {
    await storage.close();
    throw error;
  }
  progress('Starting the Mastra agent…');
  const mastra = createDemoMastra({
    approvals,
    storage: storage.mastra,
    ...(options.model ? { model: options.model } : {}),
    ...(options.timeSlots ? { timeSlots: options.timeSlots } : {}),
  });
  // The same agent as a LangGraph JS graph, served in-process by @langchain/langgraph-api and
  // bridged by CopilotKit's LangGraphAgent: the page can switch to it (agent `langgraph`).
  if (options.langgraph !== false) progress('Starting the LangGraph server (in this process)…');
  const graphs =
    options.langgraph === false
      ? undefined
      : await serveGraphs(
          {
            [DEMO_GRAPH_ID]: withHitlRoute(createDemoGraph({ approvals, ...(options.timeSlots ? { timeSlots: options.timeSlots } : {}) })),
          },
          { dir: storage.langgraphDir },
        );
  const agents = graphs
    ? {
        ...createDemoAgents(mastra),
        // Kept next to the agent on every request's clone, so answers are checked against the
        // thread's open interrupts even when CopilotRuntime adds middlewares (A2UI, MCP apps, memory).
        langgraph: withNormalizedInterrupts(new LangGraphAgent({ deploymentUrl: graphs.url, graphId: DEMO_GRAPH_ID })),
      }
    : createDemoAgents(mastra);
  progress(`Starting the CopilotKit runtime and the web server on ${DEMO_HOST}…`);
  // The durable runner keeps every thread's events (and one row per interrupt) in the data folder
  // or PostgreSQL: a restarted server, or another one on the same database, replays the thread.
  const runtime = new CopilotRuntime({ agents: agents as never, runner: storage.runner });
  // `runner.route` asks the runner's `identify` once per request, with its cookies (the runtime
  // forwards none to the runner): a cookie that names no demo user gets 401, and the runs and
  // connects of the request know who asked.
  const copilot = createCopilotNodeHandler(
    storage.runner.route(
      createCopilotRuntimeHandler({
        runtime,
        basePath: RUNTIME_PATH,
        cors: true,
        activateChannels: false,
        // A stream ends with its request: without this, a client that leaves mid-run costs one
        // "Response object has been garbage collected" error in the log per event still being written.
        hooks: { onResponse: endStreamsOnDisconnect },
      }),
    ),
  );
  const root = resolve(options.staticDir ?? defaultStaticDir());
  // The inbox reads the same runner's interrupt rows; the runner's `identify` (the cookie) says
  // whose: each demo user's own threads and the approvals that wait for them.
  const inbox = createInboxHandler({ runner: storage.runner });
  // The open inbox streams: a server that stops ends them first, so a page sees its stream end
  // (and opens it again later), not break.
  const inboxStreams = new Map<AbortController, Promise<void>>();
  const serveInbox = async (req: IncomingMessage, res: ServerResponse) => {
    // The page's `Accept` picks the live stream; the client going away ends it.
    const gone = new AbortController();
    inboxStreams.set(gone, new Promise((resolveGone) => res.once('close', resolveGone)));
    res.once('close', () => {
      gone.abort();
      inboxStreams.delete(gone);
    });
    const headers = new Headers();
    if (req.headers.accept) headers.set('accept', req.headers.accept);
    if (req.headers.cookie) headers.set('cookie', req.headers.cookie);
    const response = await inbox(
      new Request(new URL(req.url ?? '/', 'http://localhost'), { method: req.method, headers, signal: gone.signal }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (req.method === 'HEAD' || !response.body) return void res.end();
    // Written as it comes: a stream ends only when the page goes.
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break;
      res.write(chunk);
    }
    res.end();
  };

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (path === RUNTIME_PATH || path.startsWith(`${RUNTIME_PATH}/`)) return void copilot(req, res);
      if (path === DEMO_USER_PATH) return handleDemoUser(req, res);
      if (path === APPROVALS_PATH || path.startsWith(`${APPROVALS_PATH}/`)) return handleApprovals(req, res, approvals, path);
      if (path === INBOX_PATH) {
        return void serveInbox(req, res).catch((error: unknown) => {
          if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
          else res.destroy();
        });
      }
      return serveStatic(req, res, root, path);
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    }
  });

  try {
    await new Promise<void>((resolveListen, rejectListen) => {
      server.once('error', rejectListen);
      server.listen(options.port ?? 0, DEMO_HOST, () => {
        server.off('error', rejectListen);
        resolveListen();
      });
    });
  } catch (error) {
    await graphs?.close();
    await storage.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${DEMO_HOST}:${port}`;
  approvals.baseUrl = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    approvals,
    storage: storage.summary,
    close() {
      closing ??= new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        const streams = [...inboxStreams];
        for (const [gone] of streams) gone.abort();
        const ended = Promise.all(streams.map(([, closed]) => closed));
        void Promise.race([ended, new Promise((wait) => setTimeout(wait, 1_000))]).then(() => server.closeAllConnections());
      })
        .then(() => graphs?.close())
        .then(() => storage.close());
      return closing;
    },
  };
}
