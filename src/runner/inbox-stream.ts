import { errorMessage } from '../error-message';
import type { ThreadChange, ThreadChangeSource } from './notifications';
import type { InboxInterrupt } from '../wire/inbox';

const PREFIX = 'copilotkit-interrupts inbox:';
const DEFAULT_HEARTBEAT_MS = 15_000;
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  // Proxies that buffer responses (nginx) pass this one through as it is written.
  'x-accel-buffering': 'no',
};

/** `Accept: text/event-stream`, which is what `EventSource` sends. */
export const wantsStream = (request: Request): boolean => (request.headers.get('accept') ?? '').includes('text/event-stream');

export const isChangeSource = (runner: object): runner is ThreadChangeSource =>
  typeof (runner as Partial<ThreadChangeSource>).subscribeChanges === 'function';

export interface InboxStreamOptions<User> {
  request: Request;
  changes: ThreadChangeSource;
  /** The rows this request may see now, or the error response to send. */
  list: () => Promise<InboxInterrupt[] | Response>;
  /** `?threadId=`: the stream is about this thread (its rows, and its `thread` events). */
  threadId: string | undefined;
  canWatchThread: ((threadId: string, user: User, request: Request) => boolean | Promise<boolean>) | undefined;
  user: User;
  heartbeatMs: number | undefined;
  /** The handler has a `filter`: thread events then need `canWatchThread`. */
  filtered: boolean;
  /**
   * Without `canWatchThread`, whether the person the runner identified may read the thread: asked
   * when the stream opens and, while it says no, again on each change (a thread not run yet becomes
   * theirs with its first run). No: not one `thread` event.
   */
  mayRead?: ((threadId: string) => Promise<boolean>) | undefined;
}

/**
 * The inbox as server-sent events. On connect, and each time a change makes the list different:
 * `event: inbox` with `{ interrupts }` (what a `GET` would answer). With `?threadId=`, also
 * `event: thread` with `{ threadId, seq }` for every committed change of that thread (an answer, a
 * run started or finished, an expiry), so a device showing it reads it again. When a list cannot
 * be read: `event: problem` with `{ error }`; the last list stays true, and the next good one is sent
 * even when it is the same. A comment every
 * `heartbeatMs` keeps proxies from closing an idle stream. It ends when the client goes away.
 */
export async function streamInbox<User>(options: InboxStreamOptions<User>): Promise<Response> {
  const { request, changes, threadId } = options;
  const list = () => readList(options.list);
  const every = options.heartbeatMs !== undefined && options.heartbeatMs > 0 ? options.heartbeatMs : DEFAULT_HEARTBEAT_MS;
  const watching = await mayWatch(threadId, options);
  if (watching instanceof Response) return watching;
  // Heard before the first list is read: a change made while it is read lists again.
  const heard: ThreadChange[] = [];
  let onChange: (change: ThreadChange) => void = (change) => heard.push(change);
  const unsubscribe = changes.subscribeChanges((change) => onChange(change));
  const first = await list();
  if (first instanceof Response || request.signal.aborted) {
    unsubscribe();
    return first instanceof Response ? first : new Response(null, { status: 499 });
  }

  const encoder = new TextEncoder();
  let last = JSON.stringify({ interrupts: first });
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const send = (event: string, data: string) => write(`event: ${event}\ndata: ${data}\n\n`);
      const relist = oneAtATime(async () => {
        const next = open ? await list() : undefined;
        if (!open || next === undefined) return;
        if (next instanceof Response) {
          send('problem', JSON.stringify({ error: await problemOf(next) }));
          // The next list is sent even if unchanged: it tells the client the problem is over.
          last = '';
          return;
        }
        const text = JSON.stringify({ interrupts: next });
        if (text !== last) {
          last = text;
          send('inbox', text);
        }
      });
      const tell = threadTeller(options, watching, send);
      const react = (change: ThreadChange) => {
        if (threadId !== undefined && change.threadId !== threadId) return;
        if (threadId !== undefined) tell(change);
        void relist();
      };
      const heartbeat = setInterval(() => write(': keep-alive\n\n'), every);
      heartbeat.unref?.();
      const close = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        unsubscribe();
        request.signal.removeEventListener('abort', close);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      cleanup = close;
      request.signal.addEventListener('abort', close);
      // A client that loses the stream tries again after a second (EventSource's own retry).
      write('retry: 1000\n\n');
      send('inbox', last);
      onChange = react;
      for (const change of heard.splice(0)) react(change);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, { status: 200, headers: STREAM_HEADERS });
}

/**
 * Tells a stream's thread events in the order of their changes, each once the person may read the
 * thread: asked again on each change until they may (an owner's first run makes the thread theirs).
 */
function threadTeller<User>(options: InboxStreamOptions<User>, watching: boolean, send: (event: string, data: string) => void) {
  let watchThread = watching;
  let telling = Promise.resolve();
  return (change: ThreadChange) => {
    const { mayRead } = options;
    if (!watchThread && !mayRead) return;
    telling = telling.then(async () => {
      if (!watchThread && mayRead && !options.canWatchThread) watchThread = await mayRead(change.threadId).catch(() => false);
      if (watchThread) send('thread', JSON.stringify({ threadId: change.threadId, seq: change.seq }));
    });
  };
}

/** Whether the stream also tells of `threadId`'s changes, or the error response to send instead. */
async function mayWatch<User>(threadId: string | undefined, options: InboxStreamOptions<User>): Promise<boolean | Response> {
  if (threadId === undefined) return false;
  const { canWatchThread, user, request, filtered, mayRead } = options;
  try {
    if (canWatchThread) return await canWatchThread(threadId, user, request);
    if (mayRead) return await mayRead(threadId);
    return !filtered;
  } catch (error) {
    console.error(`${PREFIX} canWatchThread failed: ${errorMessage(error)}`);
    return errorResponse(500, `${PREFIX} could not tell whether this thread is yours.`);
  }
}

/** The list, or the error response a list that threw is answered with. */
const readList = (list: () => Promise<InboxInterrupt[] | Response>) =>
  list().catch((error: unknown) => errorResponse(503, `${PREFIX} cannot read the interrupts (${errorMessage(error)}).`));

/** The error an error response carries, for a `problem` event. */
const problemOf = (response: Response): Promise<string> =>
  response.json().then(
    (parsed: { error?: unknown }) => String(parsed.error ?? response.status),
    () => String(response.status),
  );

/** `task`, run once at a time: a call while it runs makes it run once more afterwards. */
function oneAtATime(task: () => Promise<void>): () => Promise<void> {
  let running = false;
  let again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await task();
      } while (again);
    } finally {
      running = false;
    }
  };
}

function errorResponse(status: number, error: string): Response {
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}
