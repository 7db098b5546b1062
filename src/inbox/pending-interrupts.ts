/**
 * The inbox's client half, framework-free: follows the runtime's inbox endpoint (its live stream,
 * or polls) and groups the open interrupts by thread. A React app reads it through `usePendingInterrupts`; anything else can use
 * `subscribe`/`getSnapshot` directly.
 */

import { threadChanged } from '../controller/thread-changes';
import { errorMessage } from '../error-message';
import { isRecord } from '../wire/guards';
import type { InboxInterrupt } from '../wire/inbox';
import { readEventStream, type ServerSentEvent } from './event-stream';

/** One interrupt that waits for the user. */
export interface PendingInterrupt extends Omit<InboxInterrupt, 'status' | 'answeredAt'> {
  /** How long it has waited (ms), as of the last check. */
  waitingFor: number;
}

/** A thread with at least one interrupt waiting. */
export interface PendingThread {
  threadId: string;
  /** Oldest first. */
  interrupts: PendingInterrupt[];
  /** When its oldest interrupt was raised (ISO 8601). */
  oldestRaisedAt: string;
}

export interface PendingInterruptsSnapshot {
  /** The threads waiting for the user, the one that has waited longest first. */
  threads: PendingThread[];
  /** What went wrong with the last check, or `null`. The threads of the last good check stay. */
  error: string | null;
  /** True until the first check has answered (or failed). */
  loading: boolean;
  /** When the last good check answered (ISO 8601), or `null`. */
  checkedAt: string | null;
  /** True while the endpoint's stream is open: a change shows as it happens, not at the next poll. */
  live: boolean;
}

export interface PendingInterruptsOptions {
  /** The inbox endpoint (`createInboxHandler` from `copilotkit-interrupts/runner`). */
  url: string;
  /**
   * Only this agent's threads (sent as `?agentId=`): a chat page lists the threads it can open, never
   * another agent's. Unset: every agent's.
   */
  agentId?: string;
  /**
   * How often to check while someone listens and no stream delivers (the endpoint does not stream,
   * or its stream is down) (ms). Default 15 000; a focus or a return to the tab checks at once.
   */
  pollIntervalMs?: number;
  /**
   * Listen to the endpoint's live stream (server-sent events, asked for with `Accept:
   * text/event-stream`): the list comes at once and again on every change. Default `true`; an
   * endpoint that does not stream is polled. `false`: poll only.
   */
  stream?: boolean;
  /** Sent with each request (headers, credentials). */
  requestInit?: RequestInit;
}

const PREFIX = 'copilotkit-interrupts inbox:';
const DEFAULT_POLL_MS = 15_000;
/** The first wait before a lost stream is opened again, unless the server sent its own `retry:`. */
const DEFAULT_RETRY_MS = 1_000;
const MIN_RETRY_MS = 250;
const MAX_RETRY_MS = 30_000;

const INITIAL: PendingInterruptsSnapshot = Object.freeze({ threads: [], error: null, loading: true, checkedAt: null, live: false });

/** The snapshot before anything was fetched (also what a server render sees). */
export const initialPendingSnapshot = (): PendingInterruptsSnapshot => INITIAL;

const optionalText = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** `url` with one query parameter set, relative or absolute alike. */
function withQuery(url: string, name: string, value: string): string {
  const [path, hash = ''] = url.split('#', 2) as [string, string?];
  const [base, query = ''] = path.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set(name, value);
  return `${base}?${params.toString()}${hash ? `#${hash}` : ''}`;
}

/** Reads one row of the endpoint's answer, or undefined when it is not one. */
function readRow(row: unknown, now: number): PendingInterrupt | undefined {
  if (!isRecord(row)) return undefined;
  const { threadId, interruptId, raisedAt } = row;
  if (typeof threadId !== 'string' || typeof interruptId !== 'string' || typeof raisedAt !== 'string') return undefined;
  const raised = Date.parse(raisedAt);
  if (Number.isNaN(raised)) return undefined;
  if (row.status !== undefined && row.status !== 'open') return undefined;
  return {
    threadId,
    interruptId,
    ...(typeof row.agentId === 'string' ? { agentId: row.agentId } : {}),
    reason: optionalText(row.reason) ?? '',
    title: optionalText(row.title),
    message: optionalText(row.message),
    raisedAt,
    expiresAt: optionalText(row.expiresAt),
    waitingFor: Math.max(0, now - raised),
  };
}

/** Groups interrupts by thread: each thread's oldest first, the longest-waiting thread first. */
export function groupByThread(interrupts: readonly PendingInterrupt[]): PendingThread[] {
  const byThread = new Map<string, PendingInterrupt[]>();
  for (const interrupt of interrupts) {
    const list = byThread.get(interrupt.threadId);
    if (list) list.push(interrupt);
    else byThread.set(interrupt.threadId, [interrupt]);
  }
  const threads = [...byThread].map(([threadId, list]) => {
    const sorted = [...list].sort((a, b) => Date.parse(a.raisedAt) - Date.parse(b.raisedAt));
    return { threadId, interrupts: sorted, oldestRaisedAt: sorted[0]!.raisedAt };
  });
  return threads.sort((a, b) => Date.parse(a.oldestRaisedAt) - Date.parse(b.oldestRaisedAt) || (a.threadId < b.threadId ? -1 : 1));
}

/** The threads whose waiting interrupts differ between two lists (a thread in one list only included). */
function changedThreads(before: readonly PendingThread[], after: readonly PendingThread[]): string[] {
  const sets = (threads: readonly PendingThread[]) =>
    new Map(threads.map((t) => [t.threadId, t.interrupts.map((i) => i.interruptId).join('\n')]));
  const was = sets(before);
  const now = sets(after);
  return [...new Set([...was.keys(), ...now.keys()])].filter((threadId) => was.get(threadId) !== now.get(threadId));
}

/**
 * Follows an inbox endpoint while at least one listener is subscribed, so answers given on another
 * device drop out of the list. An endpoint that streams (`createInboxHandler` on a runner that tells
 * of changes) sends the list at once and again on every change, whichever device or instance made
 * it. One that does not is polled every `pollIntervalMs`, and so is any endpoint while its stream is
 * down; a stream that ends is opened again after a second, then 2, 4… up to 30 s, and one that cannot
 * reach the endpoint after the next good poll. A focus or a return to the tab checks at once. A bad
 * answer never throws: it sets `error` (and warns once in the console) and keeps the last good list;
 * a stream that ends is no error.
 */
export class PendingInterruptsSource {
  private snapshot: PendingInterruptsSnapshot = INITIAL;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private warned: string | undefined;
  private detach: (() => void) | undefined;
  private readonly pollIntervalMs: number;
  /** Aborts the stream, while one is open or opening. */
  private stream: AbortController | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** The wait before the next reconnect; back to `baseRetryMs` once a stream delivers. */
  private retryMs = DEFAULT_RETRY_MS;
  /** The server's own `retry:`, or a second. */
  private baseRetryMs = DEFAULT_RETRY_MS;
  /** Streaming was turned off, or the endpoint answered a stream request with a list: polls only. */
  private streamRefused: boolean;
  /** The stream could not reach the endpoint: the next good poll opens it again. */
  private reopenAfterPoll = false;
  /** How many lists the stream has delivered: a poll sent before the latest is older than it. */
  private streamed = 0;

  constructor(private readonly options: PendingInterruptsOptions) {
    const every = options.pollIntervalMs ?? DEFAULT_POLL_MS;
    this.pollIntervalMs = Number.isFinite(every) && every > 0 ? every : DEFAULT_POLL_MS;
    this.streamRefused = options.stream === false;
  }

  getSnapshot = (): PendingInterruptsSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  };

  /** Checks now (joining a check already under way). Never rejects. */
  refresh = (): Promise<void> => {
    if (!this.inFlight) {
      const current: Promise<void> = this.check().finally(() => {
        // A check dropped by `stop` leaves the next one (a resubscribe's) alone.
        if (this.inFlight !== current) return;
        this.inFlight = undefined;
        this.schedule();
      });
      this.inFlight = current;
    }
    return this.inFlight;
  };

  private start() {
    if (this.streamRefused) void this.refresh();
    else {
      void this.connect();
      // Polled meanwhile, should the stream never deliver (a proxy that holds the response back).
      this.schedule();
    }
    if (typeof window === 'undefined' || typeof document === 'undefined') return;
    const onFocus = () => void this.refresh();
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void this.refresh();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisibility);
    this.detach = () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }

  private stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.controller?.abort();
    this.controller = undefined;
    this.stream?.abort();
    this.stream = undefined;
    this.reopenAfterPoll = false;
    this.inFlight = undefined;
    this.detach?.();
    this.detach = undefined;
    // No one listens: nothing to tell, but the next subscriber must not read a stream as open.
    if (this.snapshot.live) this.snapshot = { ...this.snapshot, live: false };
  }

  private schedule() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.listeners.size === 0) return;
    // While the stream delivers, it is the check; polling resumes while it is down or reports a problem.
    if (this.snapshot.live && this.snapshot.error === null) return;
    this.timer = setTimeout(() => void this.refresh(), this.pollIntervalMs);
  }

  private url(): string {
    const { agentId } = this.options;
    return agentId === undefined ? this.options.url : withQuery(this.options.url, 'agentId', agentId);
  }

  private async check(): Promise<void> {
    const { requestInit } = this.options;
    const url = this.url();
    const controller = new AbortController();
    this.controller = controller;
    const streamed = this.streamed;
    try {
      const headers = new Headers(requestInit?.headers);
      if (!headers.has('accept')) headers.set('accept', 'application/json');
      const response = await fetch(url, { ...requestInit, method: 'GET', headers, signal: controller.signal });
      // A list the stream delivered while this one was on its way is the newer.
      await this.read(response, url, () => controller.signal.aborted || this.streamed !== streamed);
      if (this.reopenAfterPoll && response.ok && !controller.signal.aborted) {
        this.reopenAfterPoll = false;
        if (this.listeners.size > 0 && !this.streamRefused && !this.stream) void this.connect();
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      return this.fail(`${PREFIX} ${url} could not be reached (${errorMessage(error)}).`);
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /** Reads an answer of the endpoint (the list, or why not) into the snapshot, unless it is `stale` by then. */
  private async read(response: Response, url: string, stale: () => boolean): Promise<void> {
    const raw = await response.text();
    if (stale()) return;
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
      if (response.ok) return this.fail(`${PREFIX} ${url} did not answer JSON (got ${JSON.stringify(raw.slice(0, 60))}).`);
    }
    if (!response.ok) {
      // The endpoint's own sentence, without repeating the prefix.
      const reason = isRecord(body) && typeof body.error === 'string' ? `: ${body.error.replace(PREFIX, '').trim()}` : '.';
      return this.fail(`${PREFIX} ${url} answered ${response.status}${reason}`);
    }
    this.list(body, url);
  }

  /** Takes a list the endpoint sent (`{ interrupts }`), by a poll or by the stream. */
  private list(body: unknown, url: string) {
    const { agentId } = this.options;
    if (!isRecord(body) || !Array.isArray(body.interrupts)) {
      return this.fail(`${PREFIX} ${url} answered without an "interrupts" list; is it the inbox endpoint (createInboxHandler)?`);
    }
    const now = Date.now();
    // Another agent's rows (from an endpoint that ignores `?agentId=`) are left out, not "unreadable".
    const mine = body.interrupts.filter(
      (row) => agentId === undefined || !isRecord(row) || row.agentId === undefined || row.agentId === agentId,
    );
    const rows = mine.map((row) => readRow(row, now));
    const read = rows.filter((row): row is PendingInterrupt => row !== undefined);
    const skipped = rows.length - read.length;
    const error =
      skipped > 0
        ? `${PREFIX} ${url} sent ${skipped} interrupt${skipped === 1 ? '' : 's'} that could not be read; they are left out.`
        : null;
    if (error) this.warn(error);
    else this.warned = undefined;
    const before = this.snapshot;
    const threads = groupByThread(read);
    this.publish({ threads, error, loading: false, checkedAt: new Date(now).toISOString(), live: before.live });
    // A thread whose waiting set changed since the last good check changed elsewhere (answered on
    // another device, asked again): a chat showing it reads it again. The first check only lists.
    if (before.checkedAt !== null)
      for (const threadId of changedThreads(before.threads, threads)) {
        const waiting = threads.find((thread) => thread.threadId === threadId)?.interrupts.map((i) => i.interruptId) ?? [];
        threadChanged(threadId, waiting);
      }
  }

  /** Opens the stream and follows it; when it ends, opens it again later and polls meanwhile (for good, if the endpoint does not stream). */
  private async connect(): Promise<void> {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const url = this.url();
    const controller = new AbortController();
    this.stream = controller;
    const end = await readEventStream(url, this.options.requestInit, controller.signal, (event) => this.heard(event, url));
    // Stopped by an unsubscribe, which may already have opened the next subscriber's stream.
    if (this.stream !== controller) return;
    this.stream = undefined;
    if (this.snapshot.live) this.publish({ ...this.snapshot, live: false });
    if (end.kind === 'stopped') return;
    if (end.kind === 'ended') {
      // Expected (a restart, a proxy's timeout): no error. The next stream's first list covers the
      // gap (a server going down is not asked again at once); polls only if it does not come.
      // The server's `retry:`, kept between a quarter second (no reconnect storm) and the longest wait.
      if (end.retryMs !== undefined) this.baseRetryMs = Math.min(Math.max(end.retryMs, MIN_RETRY_MS), MAX_RETRY_MS);
      this.retryLater();
      this.schedule();
    } else if (end.kind === 'unreachable') {
      // The server is down (or the network): polled as usual, and the first good poll reopens it.
      this.fail(`${PREFIX} ${url} could not be reached (${errorMessage(end.error)}).`);
      this.reopenAfterPoll = true;
      this.schedule();
    } else await this.notStreamed(end.response, url);
  }

  /** The endpoint answered a stream request with something else: a list, or an error status. */
  private async notStreamed(response: Response, url: string) {
    // 406: the runner cannot tell of changes; a list: the endpoint ignores `Accept`. Both are polled.
    if (response.status === 406 || response.ok) this.streamRefused = true;
    else this.retryLater();
    if (response.status === 406) {
      void response.body?.cancel().catch(() => {});
      await this.refresh();
      return;
    }
    // Read as a poll's answer: the same list, or the same error.
    await this.read(response, url, () => this.listeners.size === 0).catch((error: unknown) => {
      this.fail(`${PREFIX} ${url} could not be reached (${errorMessage(error)}).`);
    });
    this.schedule();
  }

  private heard(event: ServerSentEvent, url: string) {
    if (event.event === 'inbox') {
      this.streamed += 1;
      this.retryMs = this.baseRetryMs;
      let body: unknown;
      try {
        body = JSON.parse(event.data);
      } catch {
        body = undefined;
      }
      this.snapshot = { ...this.snapshot, live: true };
      this.list(body, url);
      this.schedule();
    } else if (event.event === 'problem') {
      // The endpoint could not list (its store is down): its words, the last list kept, polled meanwhile.
      let reason = event.data;
      try {
        const parsed: unknown = JSON.parse(event.data);
        if (isRecord(parsed) && typeof parsed.error === 'string') reason = parsed.error;
      } catch {
        // not JSON: its text is the reason
      }
      this.fail(`${PREFIX} ${url} reported: ${reason.replace(PREFIX, '').trim()}`);
      this.schedule();
    }
  }

  /** Opens the stream again after the current wait, and doubles the next (up to 30 s), a fifth left to chance. */
  private retryLater() {
    if (this.listeners.size === 0 || this.streamRefused) return;
    const wait = this.retryMs * (1 + Math.random() / 5);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.connect(), wait);
  }

  private fail(error: string) {
    this.warn(error);
    this.publish({ ...this.snapshot, error, loading: false });
  }

  /** One console warning per distinct problem, not one per poll. */
  private warn(error: string) {
    if (this.warned === error) return;
    this.warned = error;
    console.warn(error);
  }

  private publish(next: PendingInterruptsSnapshot) {
    this.snapshot = next;
    for (const listener of [...this.listeners]) listener();
  }
}
