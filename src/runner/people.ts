import { encode } from './codec';
import { errorMessage } from '../error-message';
import { RunnerError } from './errors';

/** Who a request comes from, as the app's `identify` says. Only these fields are kept. */
export interface Person {
  /** Stable and unique in the app (a user id, never a display name). */
  id: string;
  name?: string;
  roles?: string[];
}

/**
 * Reads who a request comes from (a bearer token, a signed header, a session): a `Person`, or
 * `null`/`undefined` to refuse it. Set once on the runner; the runtime route, the runner's run and
 * connect and the inbox endpoint all ask it.
 */
export type Identify = (request: Request) => Person | null | undefined | Promise<Person | null | undefined>;

/** What a person wants to do on a thread that is not theirs. */
export type ThreadAction = 'read' | 'run' | 'answer';

export interface AuthorizeCheck {
  user: Person;
  threadId: string;
  agentId: string;
  action: ThreadAction;
}

/**
 * Whether `user` may do `action` on a thread someone else owns (the owner always may). Only `true`
 * allows; anything else, a throw included, refuses.
 */
export type Authorize = (check: AuthorizeCheck) => boolean | Promise<boolean>;

/** A person's id is indexed with the thread key: kept well under a btree entry. */
export const MAX_PERSON_ID_BYTES = 256;
const MAX_NAME_BYTES = 1024;
const MAX_ROLES = 100;

const PREFIX = 'copilotkit-interrupts runner:';

/** Why `value` is not a person the runner can store, or undefined when it is. */
function personProblem(value: Record<string, unknown>): string | undefined {
  const { id, name, roles } = value;
  if (typeof id !== 'string' || id === '') return 'its id must be a non-empty string';
  const bytes = Buffer.byteLength(encode(id), 'utf8');
  if (bytes > MAX_PERSON_ID_BYTES) return `its id takes ${bytes} bytes once stored; the limit is ${MAX_PERSON_ID_BYTES}`;
  if (name !== undefined && (typeof name !== 'string' || Buffer.byteLength(encode(name), 'utf8') > MAX_NAME_BYTES))
    return `its name must be a string of at most ${MAX_NAME_BYTES} bytes once stored`;
  if (
    roles !== undefined &&
    (!Array.isArray(roles) ||
      roles.length > MAX_ROLES ||
      roles.some((role) => typeof role !== 'string' || Buffer.byteLength(encode(role), 'utf8') > MAX_PERSON_ID_BYTES))
  )
    return `its roles must be a list of at most ${MAX_ROLES} strings of at most ${MAX_PERSON_ID_BYTES} bytes each`;
  return undefined;
}

/**
 * Asks `identify` who sent `request`. A person comes back as a clean copy (id, name, roles); a
 * refusal as a RunnerError: `unauthenticated` (no one), `bad_identity` (a person the runner cannot
 * store, such as a 1 MB id) or `identify_failed` (it threw).
 */
export async function identifyRequest(identify: Identify, request: Request): Promise<Person> {
  let found: unknown;
  try {
    found = await identify(request);
  } catch (error) {
    throw new RunnerError('identify_failed', `${PREFIX} identify failed, so the request was refused: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  if (found === null || found === undefined) {
    throw new RunnerError('unauthenticated', `${PREFIX} sign in first: identify did not recognise who sent this request.`);
  }
  if (typeof found !== 'object') {
    throw new RunnerError('bad_identity', `${PREFIX} identify must return { id, name?, roles? } or null (got ${typeof found}).`);
  }
  const problem = personProblem(found as Record<string, unknown>);
  if (problem) throw new RunnerError('bad_identity', `${PREFIX} identify returned a person the runner cannot store: ${problem}.`);
  const { id, name, roles } = found as Person;
  return { id, ...(name !== undefined ? { name } : {}), ...(roles !== undefined ? { roles: [...roles] } : {}) };
}

/**
 * The runner hears of a request only through the headers CopilotKit's runtime forwards to it
 * (`authorization` and `x-*`, never cookies): `identify` reads them from a Request built here.
 */
export function requestFromHeaders(headers: Record<string, string> | undefined, path: string): Request {
  const forwarded = new Headers();
  for (const [name, value] of Object.entries(headers ?? {})) {
    try {
      forwarded.set(name, value);
    } catch {
      // A header value Headers refuses (a control character) is not one identify could trust.
    }
  }
  return new Request(new URL(path, 'http://copilotkit-runner.invalid'), { headers: forwarded });
}

/**
 * Asks `authorize` and refuses unless it answers exactly `true`: a policy that throws or answers
 * anything else never lets anyone in.
 */
export async function allowedBy(authorize: Authorize | undefined, check: AuthorizeCheck): Promise<boolean> {
  if (!authorize) return false;
  try {
    return (await authorize(check)) === true;
  } catch (error) {
    console.error(`${PREFIX} authorize threw for ${check.action} on a thread; refused: ${errorMessage(error)}`);
    return false;
  }
}

/** How a person's listing with `authorize` reads its rows: see {@link keepReadable}. */
export interface ReadablePages<Row, Item, Cursor> {
  /** The page size the caller asked for (unset: everything). */
  limit: number | undefined;
  /** Where the caller's cursor left off. */
  after: Cursor | undefined;
  /** One page of rows after `after`, theirs and others' in one order, at most `size` of them. */
  page(after: Cursor | undefined, size: number | undefined): Promise<Row[]>;
  /** The record a row reads as, and the thread (and agent) it is in. */
  item(row: Row): Item;
  threadOf(item: Item): { threadId: string; agentId: string };
  /** The cursor after `row`. */
  cursorOf(row: Row): Cursor;
  /** Whether the person may read a thread not theirs (`authorize`'s `read`). */
  mayRead(thread: { threadId: string; agentId: string }): Promise<boolean>;
}

/**
 * The rows a person may read, when `authorize` widens what they see: the database marks their own
 * rows (`theirs`: owned or assigned) among everyone's, page by page in one order, and each other
 * thread is asked about once. Reads on until `limit` rows are kept or the rows run out, so paging
 * by cursor goes on where the last kept row left off.
 */
export async function keepReadable<Row extends { theirs?: boolean }, Item, Cursor>(
  pages: ReadablePages<Row, Item, Cursor>,
): Promise<Item[]> {
  const { limit } = pages;
  const size = limit === undefined ? undefined : Math.max(limit, 100);
  const verdicts = new Map<string, Promise<boolean>>();
  const mayRead = (thread: { threadId: string; agentId: string }) => {
    const key = JSON.stringify([thread.threadId, thread.agentId]);
    let verdict = verdicts.get(key);
    if (!verdict) verdicts.set(key, (verdict = pages.mayRead(thread)));
    return verdict;
  };
  const kept: Item[] = [];
  let after = pages.after;
  for (;;) {
    const page = await pages.page(after, size);
    for (const row of page) {
      const item = pages.item(row);
      if (!row.theirs && !(await mayRead(pages.threadOf(item)))) continue;
      kept.push(item);
      if (limit !== undefined && kept.length === limit) return kept;
    }
    const last = page[page.length - 1];
    if (size === undefined || !last || page.length < size) return kept;
    after = pages.cursorOf(last);
  }
}
