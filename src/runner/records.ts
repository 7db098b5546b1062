/**
 * Rows as the runner's listings return them (`InterruptRecord`, `ThreadRecord`, what a viewer is
 * told), and a listing's query as the store's keys: pages, cursors, people. A bad query is a
 * `RunnerError` with code `bad_query`.
 */
import { splitStored, storedAssignment, type InterruptFacts } from './approvers';
import { encode, threadIdProblem } from './codec';
import { RunnerError } from './errors';
import type { Person } from './people';
import type { AnswererKeys, InterruptRow, PersonKeys, ThreadRow } from './thread-store';
import type { InterruptRecord, ThreadRecord } from './types';
import { isRecord } from '../wire/guards';

const PREFIX = 'copilotkit-interrupts runner:';

/** Most rows a listing gives at once. */
export const MAX_PAGE = 1000;

/** A listing's page size: undefined for all, or an integer from 1 to MAX_PAGE. */
export function pageSize(limit: unknown, method: string): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new RunnerError('bad_query', `${PREFIX} ${method}: limit must be an integer from 1 to ${MAX_PAGE} (got ${String(limit)}).`);
  }
  return limit;
}

export const writeCursor = (key: readonly unknown[]): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

export function readCursor(cursor: unknown, valid: (key: unknown) => boolean, method: string): unknown {
  let key: unknown;
  try {
    key = typeof cursor === 'string' ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : undefined;
  } catch {
    key = undefined;
  }
  if (!valid(key)) {
    throw new RunnerError(
      'bad_query',
      `${PREFIX} ${method}: the cursor was not issued by this runner; pass the \`cursor\` of a row it listed.`,
    );
  }
  return key;
}

export const isInterruptCursor = (key: unknown): boolean =>
  Array.isArray(key) &&
  key.length === 4 &&
  Number.isFinite(key[0]) &&
  typeof key[1] === 'string' &&
  Number.isInteger(key[2]) &&
  typeof key[3] === 'string';

export const isThreadCursor = (key: unknown): boolean =>
  Array.isArray(key) && key.length === 2 && Number.isFinite(key[0]) && typeof key[1] === 'string';

/** A person as the store keeps them: the JSON text of their id and name. */
export const keysOf = (person: Person): AnswererKeys => ({
  id: encode(person.id),
  name: person.name === undefined ? null : encode(person.name),
});

/** A person as the store matches approvers: the JSON text of their id and roles. */
export const personKeys = (person: Person): PersonKeys => ({
  id: encode(person.id),
  roles: (person.roles ?? []).map((role) => encode(role)),
});

/** The keys of an `assignedTo` (or a person's): an id, roles, or both; a `bad_query` error for anything else. */
export function assignedKeys(value: unknown, method: string, field: string): PersonKeys {
  const { id, roles } = isRecord(value) ? value : {};
  const rolesOk =
    roles === undefined || (Array.isArray(roles) && roles.length <= MAX_PAGE && roles.every((role) => typeof role === 'string'));
  if (
    !isRecord(value) ||
    (id !== undefined && (typeof id !== 'string' || id === '')) ||
    !rolesOk ||
    (id === undefined && roles === undefined)
  ) {
    throw new RunnerError(
      'bad_query',
      `${PREFIX} ${method}: ${field} must be { id?, roles? } with a non-empty string id or a list of roles.`,
    );
  }
  return { id: id === undefined ? null : encode(id), roles: ((roles as string[] | undefined) ?? []).map((role) => encode(role)) };
}

/** The JSON key of a person id a listing filters by, or a `bad_query` error. */
export function personKey(id: unknown, method: string, field: string): string | undefined {
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || id === '') throw new RunnerError('bad_query', `${PREFIX} ${method}: ${field} must be a non-empty string.`);
  return encode(id);
}

/** The JSON key of a thread id, or a `bad_thread_id` error naming why it cannot be stored. */
export function checkedThreadKey(threadId: string): string {
  const problem = threadIdProblem(threadId);
  if (problem) throw new RunnerError('bad_thread_id', problem);
  return encode(threadId);
}

/** A stored row as `listInterrupts` returns it. */
export function toRecord(row: InterruptRow): InterruptRecord {
  const read = (text: string | null, field: string): unknown => {
    if (text === null) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(
        `${PREFIX} the stored interrupt ${row.interrupt_key} of thread ${row.thread_key} has a ${field} that no longer parses as JSON.`,
      );
    }
  };
  const { interrupt, assignment } = splitStored(read(row.interrupt, 'interrupt'));
  return {
    threadId: read(row.thread_key, 'thread id') as string,
    interruptId: read(row.interrupt_key, 'id') as string,
    agentId: row.agent_id,
    reason: read(row.reason, 'reason') as string,
    raisedAt: new Date(Number(row.raised_at)).toISOString(),
    expiresAt: read(row.expires_at, 'expiry') as string | null,
    status: row.status,
    response: read(row.response, 'response') ?? null,
    answeredAt: row.answered_at === null ? null : new Date(Number(row.answered_at)).toISOString(),
    cancelReason: row.status === 'cancelled' && row.closed_reason === 'expired' ? 'expired' : null,
    message: isRecord(interrupt) && typeof interrupt.message === 'string' ? interrupt.message : null,
    interrupt,
    position: Number(row.position),
    ownerId: read(row.owner_id, 'owner') as string | null,
    answeredBy:
      row.answered_by_id === null
        ? null
        : {
            id: read(row.answered_by_id, 'answerer') as string,
            name: (read(row.answered_by_name, 'answerer name') as string | null) ?? null,
          },
    approvers: assignment
      ? {
          ...(assignment.anyone ? {} : { users: assignment.users, roles: assignment.roles }),
          notTheRequester: assignment.notTheRequester,
          requester: assignment.requester,
        }
      : null,
    cursor: writeCursor([Number(row.raised_at), row.thread_key, Number(row.position), row.interrupt_hash]),
  };
}

/** What the runner knows of each interrupt of a thread, by id, from its rows. */
export function factsOf(rows: readonly InterruptRow[]): Map<string, InterruptFacts> {
  const facts = new Map<string, InterruptFacts>();
  for (const row of rows) {
    try {
      facts.set(JSON.parse(row.interrupt_key) as string, {
        open: row.status === 'open',
        assignment: storedAssignment(row.interrupt).assignment,
        answeredBy:
          row.answered_by_id === null
            ? null
            : {
                id: JSON.parse(row.answered_by_id) as string,
                name: row.answered_by_name === null ? null : (JSON.parse(row.answered_by_name) as string),
              },
        answeredAt: row.answered_at === null ? null : Number(row.answered_at),
      });
    } catch {
      // a row that no longer parses says nothing of people; its interrupt is shown as raised
    }
  }
  return facts;
}

/** A thread row as CopilotKit's thread endpoints describe a thread. */
export function threadRecord(row: ThreadRow): ThreadRecord {
  return {
    id: JSON.parse(row.thread_key) as string,
    name: null,
    agentId: row.agent_id ?? 'default',
    organizationId: '',
    createdById: row.owner_id === null ? '' : (JSON.parse(row.owner_id) as string),
    archived: false,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
    cursor: writeCursor([Number(row.updated_at), row.thread_key]),
  };
}
