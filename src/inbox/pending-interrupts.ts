/**
 * The inbox's client half, framework-free: polls the runtime's inbox endpoint and groups the open
 * interrupts by thread. A React app reads it through `usePendingInterrupts`; anything else can use
 * `subscribe`/`getSnapshot` directly.
 */

import { threadChanged } from '../controller/thread-changes';
import { errorMessage } from '../error-message';
import { isRecord } from '../wire/guards';
import type { InboxInterrupt } from '../wire/inbox';

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
}

export interface PendingInterruptsOptions {
  /** The inbox endpoint (`createInboxHandler` from `copilotkit-interrupts/runner`). */
  url: string;
  /**
   * Only this agent's threads (sent as `?agentId=`): a chat page lists the threads it can open, never
   * another agent's. Unset: every agent's.
   */
  agentId?: string;
  /** How often to check while someone listens (ms). Default 15 000; a focus or a return to the tab checks at once. */
  pollIntervalMs?: number;
  /** Sent with each request (headers, credentials). */
  requestInit?: RequestInit;
}

const PREFIX = 'copilotkit-interrupts inbox:';
const DEFAULT_POLL_MS = 15_000;

const INITIAL: PendingInterruptsSnapshot = Object.freeze({ threads: [], error: null, loading: true, checkedAt: null });

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
 * Polls an inbox endpoint while at least one listener is subscribed (and at once on window focus
 * or when the tab becomes visible), so answers given on another device drop out of the list.
 * A bad answer never throws: it sets `error` (and warns once in the console) and keeps the last
 * good list.
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

  constructor(private readonly options: PendingInterruptsOptions) {
    const every = options.pollIntervalMs ?? DEFAULT_POLL_MS;
    this.pollIntervalMs = Number.isFinite(every) && every > 0 ? every : DEFAULT_POLL_MS;
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
    void this.refresh();
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
    this.controller?.abort();
    this.controller = undefined;
    this.inFlight = undefined;
    this.detach?.();
    this.detach = undefined;
  }

  private schedule() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.listeners.size === 0) return;
    this.timer = setTimeout(() => void this.refresh(), this.pollIntervalMs);
  }

  private async check(): Promise<void> {
    const { requestInit, agentId } = this.options;
    const url = agentId === undefined ? this.options.url : withQuery(this.options.url, 'agentId', agentId);
    const controller = new AbortController();
    this.controller = controller;
    let body: unknown;
    let status: number;
    try {
      const headers = new Headers(requestInit?.headers);
      if (!headers.has('accept')) headers.set('accept', 'application/json');
      const response = await fetch(url, { ...requestInit, method: 'GET', headers, signal: controller.signal });
      status = response.status;
      const raw = await response.text();
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = undefined;
        if (response.ok) return this.fail(`${PREFIX} ${url} did not answer JSON (got ${JSON.stringify(raw.slice(0, 60))}).`);
      }
      if (!response.ok) {
        // The endpoint's own sentence, without repeating the prefix.
        const reason = isRecord(body) && typeof body.error === 'string' ? `: ${body.error.replace(PREFIX, '').trim()}` : '.';
        return this.fail(`${PREFIX} ${url} answered ${status}${reason}`);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      return this.fail(`${PREFIX} ${url} could not be reached (${errorMessage(error)}).`);
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
    if (controller.signal.aborted) return;
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
    this.publish({ threads, error, loading: false, checkedAt: new Date(now).toISOString() });
    // A thread whose waiting set changed since the last good check changed elsewhere (answered on
    // another device, asked again): a chat showing it reads it again. The first check only lists.
    if (before.checkedAt !== null)
      for (const threadId of changedThreads(before.threads, threads)) {
        const waiting = threads.find((thread) => thread.threadId === threadId)?.interrupts.map((i) => i.interruptId) ?? [];
        threadChanged(threadId, waiting);
      }
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
