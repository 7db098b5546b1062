import { EventType, type BaseEvent } from '@ag-ui/client';
import { encode } from './codec';
import { errorMessage } from '../error-message';
import { MAX_PERSON_ID_BYTES, type Person } from './people';
import { INTERRUPT_PEOPLE_KEY, ResumeRefusal, type InterruptApprover, type InterruptPeople } from '../protocol';
import { isRecord } from '../wire/guards';

/**
 * Who may answer one interrupt, as the `approvers` policy says. `users` and `roles` together name
 * everyone who may (a user by id, or `{ id, name }` so that cards can say "Waiting for Dan");
 * leaving both out means anyone who may answer the thread. An empty list names no one: no one
 * can answer. `notTheRequester` (four eyes): the person whose run raised it may not answer it.
 */
export interface Approvers {
  users?: ReadonlyArray<string | { id: string; name?: string }>;
  roles?: readonly string[];
  notTheRequester?: boolean;
}

/** What the `approvers` policy is told of an interrupt, when a run raises it. */
export interface ApproversCheck {
  /** The interrupt as the run raised it. */
  interrupt: Readonly<Record<string, unknown>>;
  reason: string;
  /** The tool it asks about, when it names one (`toolName`, or `metadata.toolName`). */
  toolName: string | undefined;
  threadId: string;
  agentId: string;
  /** The person whose run raised it (their message or answer led to it); undefined for the server's own runs. */
  requester: Person | undefined;
}

/**
 * Gives each interrupt its approvers when a run raises it. `null`/`undefined`: no assignment (anyone
 * who may answer the thread may answer it). A throw, or something that is not approvers, gives it
 * no one: it refuses, never allows.
 */
export type ApproversPolicy = (check: ApproversCheck) => Approvers | null | undefined | Promise<Approvers | null | undefined>;

/** An interrupt's approvers as kept with it (in its row's interrupt JSON). */
export interface Assignment {
  /** Only `notTheRequester` narrows it: anyone who may answer the thread, but the requester. */
  anyone: boolean;
  users: Array<{ id: string; name?: string }>;
  roles: string[];
  notTheRequester: boolean;
  requester: { id: string; name?: string } | null;
}

/** Where the assignment rides in the row's interrupt JSON; taken off again whenever the row is read. */
export const ASSIGNMENT_KEY = 'copilotkit-interrupts:assignment';

const PREFIX = 'copilotkit-interrupts runner:';
const MAX_APPROVERS = 100;
const MAX_NAME_BYTES = 1024;

const fits = (text: unknown, bytes: number): text is string =>
  typeof text === 'string' && text !== '' && Buffer.byteLength(encode(text), 'utf8') <= bytes;
const nobody = (requester: Assignment['requester'], notTheRequester = false): Assignment => ({
  anyone: false,
  users: [],
  roles: [],
  notTheRequester,
  requester,
});

/** A person as an assignment keeps them: id, and name when there is one. */
const refOf = (person: { id: string; name?: string | undefined }) => ({
  id: person.id,
  ...(person.name !== undefined ? { name: person.name } : {}),
});

/** A user entry of the policy's answer, or undefined (and a problem) when it is not one. */
function userOf(entry: unknown, problems: string[]): { id: string; name?: string } | undefined {
  const id = isRecord(entry) ? entry.id : entry;
  const name = isRecord(entry) ? entry.name : undefined;
  if (!fits(id, MAX_PERSON_ID_BYTES) || (name !== undefined && !fits(name, MAX_NAME_BYTES))) {
    problems.push(`a user that is not an id (or { id, name }) of at most ${MAX_PERSON_ID_BYTES} bytes was left out`);
    return undefined;
  }
  return name === undefined ? { id } : { id, name: name as string };
}

/** A list of the policy's answer, bounded and cleaned; undefined when it was left out. */
function listOf<T>(value: unknown, field: string, read: (entry: unknown) => T | undefined, problems: string[]): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push(`${field} is not a list, so it names no one`);
    return [];
  }
  if (value.length > MAX_APPROVERS) problems.push(`${field} lists ${value.length}; only the first ${MAX_APPROVERS} count`);
  return value.slice(0, MAX_APPROVERS).flatMap((entry) => {
    const read_ = read(entry);
    return read_ === undefined ? [] : [read_];
  });
}

/**
 * The policy's answer as kept with the interrupt: undefined when it assigns nothing (null, or no
 * list and no four eyes); no one, and a problem, for anything it cannot be read as.
 */
export function assignmentOf(value: unknown, requester: Person | undefined): { assignment?: Assignment; problem?: string } {
  const who = requester ? refOf(requester) : null;
  if (value === null || value === undefined) return {};
  if (!isRecord(value)) return { assignment: nobody(who), problem: 'it did not return { users?, roles?, notTheRequester? }' };
  const problems: string[] = [];
  const users = listOf(value.users, 'users', (entry) => userOf(entry, problems), problems);
  const roles = listOf(value.roles, 'roles', (entry) => (fits(entry, MAX_PERSON_ID_BYTES) ? entry : undefined), problems);
  if (roles && Array.isArray(value.roles) && roles.length < Math.min(value.roles.length, MAX_APPROVERS))
    problems.push('a role that is not a non-empty string was left out');
  const notTheRequester = value.notTheRequester === true;
  if (users === undefined && roles === undefined && !notTheRequester) return problems.length > 0 ? { problem: problems.join('; ') } : {};
  const assignment: Assignment = {
    anyone: users === undefined && roles === undefined,
    users: users ?? [],
    roles: roles ?? [],
    notTheRequester,
    requester: who,
  };
  return { assignment, ...(problems.length > 0 ? { problem: problems.join('; ') } : {}) };
}

/** True when the assignment lets no person answer. */
export const namesNoOne = (assignment: Assignment): boolean =>
  !assignment.anyone && assignment.users.length === 0 && assignment.roles.length === 0;

/** True when the assignment names `person` (by id or a role), and four eyes does not rule them out. */
export function names(assignment: Assignment, person: Person): boolean {
  if (assignment.notTheRequester && assignment.requester?.id === person.id) return false;
  return assignment.users.some((user) => user.id === person.id) || assignment.roles.some((role) => person.roles?.includes(role) === true);
}

/** Why `person` may not answer an interrupt with this assignment (a refusal code and words), or undefined when they may. */
export function refusalOf(assignment: Assignment, person: Person | undefined): { code: ResumeRefusal; why: string } | undefined {
  if (!person) return { code: ResumeRefusal.NotAnApprover, why: 'it has approvers, and the runner identified no one (set identify)' };
  if (assignment.notTheRequester && assignment.requester?.id === person.id) {
    return { code: ResumeRefusal.FourEyes, why: 'it needs a second person: whoever raised it may not answer it' };
  }
  if (assignment.anyone || names(assignment, person)) return undefined;
  if (namesNoOne(assignment)) return { code: ResumeRefusal.NotAnApprover, why: 'its approvers name no one, so no one may answer it' };
  return { code: ResumeRefusal.NotAnApprover, why: `it waits for ${describeApprovers(waitingFor(assignment))}, not for you` };
}

/** Who an assignment waits for, as cards name them. */
export const waitingFor = (assignment: Assignment): InterruptApprover[] => [
  ...assignment.users.map(refOf),
  ...assignment.roles.map((role) => ({ role })),
];

/** "Dan or role approver", for messages and logs. */
const describeApprovers = (approvers: InterruptApprover[]): string =>
  approvers
    .map((approver) => ('role' in approver ? `role ${JSON.stringify(approver.role)}` : JSON.stringify(approver.name ?? approver.id)))
    .join(' or ');

/**
 * Asks the policy for an interrupt's approvers. A throw gives it no one (logged); so does an answer
 * that names no one (logged as such): either way it is said once, when the interrupt is raised.
 */
export async function assign(policy: ApproversPolicy, check: ApproversCheck): Promise<Assignment | undefined> {
  const where = `interrupt ${JSON.stringify(String(check.interrupt.id).slice(0, 200))} on thread ${JSON.stringify(check.threadId.slice(0, 200))}`;
  let found: { assignment?: Assignment; problem?: string };
  try {
    found = assignmentOf(await policy(check), check.requester);
  } catch (error) {
    console.error(`${PREFIX} approvers threw for ${where}, so no one may answer it: ${errorMessage(error)}`);
    return nobody(check.requester ? refOf(check.requester) : null);
  }
  const { assignment, problem } = found;
  if (problem) console.error(`${PREFIX} approvers for ${where}: ${problem}.`);
  if (assignment && namesNoOne(assignment)) {
    console.error(`${PREFIX} approvers named no one for ${where}: no one can answer it (only its expiry, if it has one, settles it).`);
  }
  return assignment;
}

/** The interrupt as stored: as raised, with its assignment alongside when it has one. */
export const storedInterrupt = (interrupt: Record<string, unknown>, assignment: Assignment | undefined): unknown =>
  assignment ? { ...interrupt, [ASSIGNMENT_KEY]: assignment } : interrupt;

/** A stored interrupt back to the interrupt as raised, and its assignment. */
export function splitStored(stored: unknown): { interrupt: unknown; assignment: Assignment | undefined } {
  if (!isRecord(stored) || !(ASSIGNMENT_KEY in stored)) return { interrupt: stored, assignment: undefined };
  const { [ASSIGNMENT_KEY]: assignment, ...interrupt } = stored;
  return { interrupt, assignment: isAssignment(assignment) ? assignment : nobody(null) };
}

/** A row's interrupt JSON text back to the interrupt and its assignment; a row that no longer parses gives no one. */
export function storedAssignment(text: string | null): { interrupt: unknown; assignment: Assignment | undefined } {
  if (text === null) return { interrupt: null, assignment: undefined };
  try {
    return splitStored(JSON.parse(text) as unknown);
  } catch {
    return { interrupt: null, assignment: nobody(null) };
  }
}

/** A stored assignment that reads as one; anything else gives no one (a hand-edited row never lets anyone in). */
function isAssignment(value: unknown): value is Assignment {
  return (
    isRecord(value) &&
    typeof value.anyone === 'boolean' &&
    Array.isArray(value.users) &&
    value.users.every((user) => isRecord(user) && typeof user.id === 'string') &&
    Array.isArray(value.roles) &&
    value.roles.every((role) => typeof role === 'string') &&
    typeof value.notTheRequester === 'boolean' &&
    (value.requester === null || (isRecord(value.requester) && typeof value.requester.id === 'string'))
  );
}

/** An assignment as its row's columns keep it (JSON text of ids and roles), so that SQL finds whom it waits for. */
export interface ApproverKeys {
  /** The ids it names. */
  ids: string[];
  /** The roles it names. */
  roles: string[];
  /** The requester, when four eyes rules them out. */
  fourEyes: string | null;
}

/** The columns of an assignment; null for an interrupt without one (whoever may answer the thread). */
export function approverKeys(assignment: Assignment | undefined): ApproverKeys | null {
  if (!assignment) return null;
  return {
    ids: assignment.users.map((user) => encode(user.id)),
    roles: assignment.roles.map((role) => encode(role)),
    fourEyes: assignment.notTheRequester && assignment.requester ? encode(assignment.requester.id) : null,
  };
}

/** What the runner knows of one interrupt row, for telling a viewer who it is for. */
export interface InterruptFacts {
  open: boolean;
  assignment: Assignment | undefined;
  answeredBy: { id: string; name: string | null } | null;
  /** ms since the epoch. */
  answeredAt: number | null;
}

/** The person a thread is streamed to, and whether they may answer its unassigned interrupts. */
export interface Viewer {
  person: Person;
  answersThread: boolean;
  /** The thread's owner, named to others as whom an unassigned interrupt waits for. */
  owner: { id: string; name?: string } | null;
}

/** What `viewer` is told of an interrupt: who it waits for, whether they may answer, who did. */
export function peopleFor(facts: InterruptFacts, viewer: Viewer): InterruptPeople {
  const { assignment } = facts;
  const answeredBy = facts.answeredBy
    ? {
        answeredBy: {
          ...refOf({ id: facts.answeredBy.id, name: facts.answeredBy.name ?? undefined }),
          ...(facts.answeredAt !== null ? { at: new Date(facts.answeredAt).toISOString() } : {}),
          isViewer: facts.answeredBy.id === viewer.person.id,
        },
      }
    : {};
  if (!assignment) {
    const owner = viewer.owner && viewer.owner.id !== viewer.person.id ? [refOf(viewer.owner)] : [];
    return { viewerMayAnswer: facts.open && viewer.answersThread, waitingFor: owner, ...answeredBy };
  }
  const may = facts.open && !refusalOf(assignment, viewer.person) && (names(assignment, viewer.person) || viewer.answersThread);
  return { viewerMayAnswer: may, waitingFor: waitingFor(assignment), ...(namesNoOne(assignment) ? { noOne: true } : {}), ...answeredBy };
}

/**
 * `event` as `viewer` sees it: each interrupt it raises (a RUN_FINISHED's outcome, a changed
 * request's refusal) carries what `tell` says of it in `metadata`. The event itself is shared with
 * other viewers and the store: it is copied, never changed.
 */
export function annotated(event: BaseEvent, tell: (interruptId: string) => InterruptPeople | undefined): BaseEvent {
  const record = event as unknown as Record<string, unknown>;
  const mark = (interrupts: unknown[]) =>
    interrupts.map((interrupt) => {
      if (!isRecord(interrupt) || typeof interrupt.id !== 'string') return interrupt;
      const people = tell(interrupt.id);
      if (!people) return interrupt;
      const metadata = isRecord(interrupt.metadata) && !Array.isArray(interrupt.metadata) ? interrupt.metadata : {};
      return { ...interrupt, metadata: { ...metadata, [INTERRUPT_PEOPLE_KEY]: people } };
    });
  if (event.type === EventType.RUN_FINISHED) {
    const outcome = record.outcome;
    if (!isRecord(outcome) || outcome.type !== 'interrupt' || !Array.isArray(outcome.interrupts)) return event;
    return { ...record, outcome: { ...outcome, interrupts: mark(outcome.interrupts) } } as unknown as BaseEvent;
  }
  if (event.type === EventType.RUN_ERROR && record.code === ResumeRefusal.Changed && Array.isArray(record.interrupts)) {
    return { ...record, interrupts: mark(record.interrupts) } as unknown as BaseEvent;
  }
  return event;
}

/** True for an event `annotated` would change: the ones worth reading the rows for. */
export const raisesInterrupts = (event: BaseEvent): boolean =>
  annotated(event, () => ({ viewerMayAnswer: false, waitingFor: [] })) !== event;
