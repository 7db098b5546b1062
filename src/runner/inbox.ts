import { isRecord } from '../wire/guards';
import { unwrapInterrupt } from '../unwrap';
import { errorMessage } from '../error-message';
import { RunnerError } from './errors';
import type { InterruptRunner } from './interrupt-runner';
import type { InterruptRecord } from './types';
import type { Person } from './people';
import { STORED_INTERRUPT_STATUSES, type InboxInterrupt, type StoredInterruptStatus } from '../wire/inbox';
import { isChangeSource, streamInbox, wantsStream } from './inbox-stream';
import type { ThreadChangeSource } from './notifications';

export type { InboxInterrupt };

/** The JSON body of a successful `GET`. */
export interface InboxResponse {
  interrupts: InboxInterrupt[];
}

export interface InboxHandlerOptions<User = undefined> {
  /**
   * The durable runner whose interrupt rows the inbox lists. A runner that tells of changes
   * (`subscribeChanges`, as `InterruptRunner` does) also serves the live stream. When it was given
   * `identify`, the inbox asks it who each request comes from (401 when no one) and lists only what
   * waits for that person (`listInterruptsFor`): the interrupts of the threads they own or
   * `authorize` lets them read, and those assigned to them in threads of others.
   */
  runner: Pick<InterruptRunner, 'listInterrupts'> &
    Partial<ThreadChangeSource> &
    Partial<Pick<InterruptRunner, 'identify' | 'listInterruptsFor' | 'mayRead'>>;
  /**
   * Who is asking, read from the request (a session cookie, a bearer token). Return `null` or
   * `undefined` to refuse the request with 401. Without it (and without the runner's `identify`)
   * every request is answered. Given, it replaces the runner's `identify` here, and the listing is
   * scoped by `filter` alone.
   */
  resolveUser?: (request: Request) => User | null | undefined | Promise<User | null | undefined>;
  /**
   * Whether this user may see this interrupt (usually: is the thread theirs). Without it every
   * interrupt of every thread is listed: fine for a single-user app, never for a multi-tenant one.
   */
  filter?: (interrupt: InboxInterrupt, user: User, request: Request) => boolean | Promise<boolean>;
  /**
   * Whether this user may hear that this thread changed (the stream's `thread` events, asked for
   * with `?threadId=`). Without it, and with the runner's `identify`, they are sent to whoever may
   * read the thread; without either, only when there is no `filter` either.
   */
  canWatchThread?: (threadId: string, user: User, request: Request) => boolean | Promise<boolean>;
  /** How often the live stream sends a keep-alive comment (ms). Default 15 000. */
  heartbeatMs?: number;
}

const STATUSES: readonly string[] = [...STORED_INTERRUPT_STATUSES, 'all'];
const PREFIX = 'copilotkit-interrupts inbox:';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** A short name for an interrupt, from the shapes the built-in cards read. */
function titleOf(interrupt: ReturnType<typeof unwrapInterrupt>): string | null {
  const { metadata, payload } = interrupt;
  const ticket = metadata.ticket;
  if (isRecord(ticket) && text(ticket.title)) return text(ticket.title);
  const questions = metadata.questions;
  if (Array.isArray(questions) && isRecord(questions[0])) return text(questions[0].header) ?? text(questions[0].question);
  if (isRecord(payload) && text(payload.topic)) return text(payload.topic);
  return text(interrupt.toolName);
}

/** A row of the runner as the inbox sends it (the raised interrupt read as the cards read it). */
export function toInboxInterrupt(row: InterruptRecord): InboxInterrupt {
  const unwrapped = row.interrupt === null ? undefined : unwrapInterrupt(row.interrupt);
  return {
    threadId: row.threadId,
    interruptId: row.interruptId,
    agentId: row.agentId,
    reason: unwrapped && !unwrapped.problem ? unwrapped.reason : row.reason,
    title: unwrapped ? titleOf(unwrapped) : null,
    message: row.message ?? text(unwrapped?.message),
    raisedAt: row.raisedAt,
    expiresAt: row.expiresAt,
    status: row.status,
    answeredAt: row.answeredAt,
  };
}

/** The rows the request may see, as the inbox sends them, or the error response to send instead. */
async function listFor<User>(
  runner: InboxHandlerOptions<User>['runner'],
  filter: InboxHandlerOptions<User>['filter'],
  query: {
    status: string;
    threadId: string | undefined;
    agentId: string | undefined;
    user: User;
    person: Person | undefined;
    request: Request;
  },
): Promise<InboxInterrupt[] | Response> {
  const { status, threadId, agentId, user, person, request } = query;
  let rows: InterruptRecord[];
  try {
    const rowQuery = {
      ...(threadId !== undefined ? { threadId } : {}),
      ...(agentId !== undefined ? { agentId } : {}),
      ...(status !== 'all' ? { status: status as StoredInterruptStatus } : {}),
    };
    rows = person && runner.listInterruptsFor ? await runner.listInterruptsFor(person, rowQuery) : await runner.listInterrupts(rowQuery);
  } catch (error) {
    const message = errorMessage(error);
    console.error(`${PREFIX} cannot list the interrupts: ${message}`);
    // A bad thread id or query is the caller's mistake; anything else is the store's.
    return error instanceof RunnerError && (error.code === 'bad_thread_id' || error.code === 'bad_query')
      ? json(400, { error: message })
      : json(503, { error: `${PREFIX} cannot read the interrupts (${message}).` });
  }
  const interrupts: InboxInterrupt[] = [];
  try {
    for (const row of rows) {
      const interrupt = toInboxInterrupt(row);
      if (!filter || (await filter(interrupt, user, request))) interrupts.push(interrupt);
    }
  } catch (error) {
    console.error(`${PREFIX} filter failed: ${errorMessage(error)}`);
    return json(500, { error: `${PREFIX} could not tell which interrupts are yours.` });
  }
  return interrupts;
}

/**
 * A fetch-style endpoint (`(request: Request) => Promise<Response>`) for an inbox: `GET` answers
 * `{ interrupts: InboxInterrupt[] }`, the open interrupts oldest first (`?status=resolved`, `changed`,
 * `cancelled` or `all` for the others; `?threadId=` for one thread; `?agentId=` for one agent's
 * threads, which a chat page passes so that it never offers another agent's thread). Works as a Next.js route
 * handler (`export const GET = createInboxHandler({ runner })`) or behind any server that speaks
 * `Request`/`Response`.
 *
 * Without `resolveUser` and `filter` it lists every thread's interrupts: restrict it in an app with
 * more than one user.
 */
export function createInboxHandler<User = undefined>(options: InboxHandlerOptions<User>): (request: Request) => Promise<Response> {
  const { runner, resolveUser, filter, canWatchThread, heartbeatMs } = options;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(JSON.stringify({ error: `${PREFIX} only GET is served here (got ${request.method}).` }), {
        status: 405,
        headers: { allow: 'GET, HEAD', 'content-type': 'application/json; charset=utf-8' },
      });
    }
    const params = new URL(request.url, 'http://localhost').searchParams;
    const status = params.get('status') ?? 'open';
    if (!STATUSES.includes(status)) {
      return json(400, { error: `${PREFIX} status must be one of ${STATUSES.join(', ')} (got ${JSON.stringify(status)}).` });
    }
    const threadId = params.get('threadId') ?? undefined;
    const agentId = params.get('agentId') ?? undefined;
    let user: User;
    let person: Person | undefined;
    if (!resolveUser && runner.identify) {
      try {
        person = await runner.identify(request);
      } catch (error) {
        const code = error instanceof RunnerError ? error.code : 'identify_failed';
        if (code === 'identify_failed') {
          console.error(`${PREFIX} identify failed: ${errorMessage(error)}`);
          return json(500, { error: `${PREFIX} could not tell who is asking.`, code });
        }
        return json(401, { error: `${PREFIX} sign in to see the interrupts waiting for you.`, code });
      }
    }
    if (person) {
      user = person as User;
    } else if (resolveUser) {
      let resolved: User | null | undefined;
      try {
        resolved = await resolveUser(request);
      } catch (error) {
        console.error(`${PREFIX} resolveUser failed: ${errorMessage(error)}`);
        return json(500, { error: `${PREFIX} could not tell who is asking.` });
      }
      if (resolved === null || resolved === undefined)
        return json(401, { error: `${PREFIX} sign in to see the interrupts waiting for you.` });
      user = resolved;
    } else {
      user = undefined as User;
    }
    const list = () => listFor(runner, filter, { status, threadId, agentId, user, person, request });
    if (request.method === 'GET' && wantsStream(request)) {
      if (!isChangeSource(runner)) {
        return json(406, { error: `${PREFIX} this runner does not tell of changes; ask for JSON and poll instead.` });
      }
      const mayRead = person && runner.mayRead ? (id: string) => runner.mayRead!(person, id) : undefined;
      return streamInbox({
        request,
        changes: runner,
        list,
        threadId,
        canWatchThread,
        user,
        heartbeatMs,
        filtered: filter !== undefined,
        mayRead,
      });
    }
    const interrupts = await list();
    if (interrupts instanceof Response) return interrupts;
    const body: InboxResponse = { interrupts };
    return json(200, body);
  };
}
