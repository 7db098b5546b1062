import type { ApproversPolicy, Authorize, Identify, InterruptEvent, Person } from '../../src/runner';

/** The cookie that says which demo user the browser is. The page's user switcher sets it. */
export const DEMO_USER_COOKIE = 'cki-demo-user';

/** The role that approves deploys: the demo's approval tickets wait for it. */
export const DEPLOY_APPROVER_ROLE = 'on-call';

export interface DemoUser extends Person {
  id: string;
  name: string;
  roles: string[];
  /** What the switcher says of them. */
  about: string;
}

/**
 * The demo's people. The first is who a browser without the cookie is, so a newcomer simply
 * chats as Ana. Ana and Ben each see only their own threads; Dana is on call and approves the
 * deploys (the approval tickets) anyone asks for.
 */
export const DEMO_USERS: readonly DemoUser[] = [
  { id: 'ana', name: 'Ana', roles: ['developer'], about: 'developer' },
  { id: 'ben', name: 'Ben', roles: ['developer'], about: 'developer' },
  { id: 'dana', name: 'Dana', roles: [DEPLOY_APPROVER_ROLE], about: 'on call, approves deploys' },
];

/** The cookie's value in a `Cookie` header: undefined when it is not there (or empty). */
export function demoUserCookie(cookieHeader: string | null | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== DEMO_USER_COOKIE) continue;
    const raw = part.slice(at + 1).trim();
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      value = raw;
    }
    return value === '' ? undefined : value;
  }
  return undefined;
}

/**
 * Who a request's cookie names: `{ user }` (the first user when there is no cookie), or
 * `{ unknown }` with the value no demo user has.
 */
export function demoUserOf(cookieHeader: string | null | undefined): { user: DemoUser } | { unknown: string } {
  const wanted = demoUserCookie(cookieHeader);
  if (wanted === undefined) return { user: DEMO_USERS[0] };
  const user = DEMO_USERS.find((each) => each.id === wanted);
  return user ? { user } : { unknown: wanted };
}

/** What a browser whose cookie names no demo user is told (the page shows it). */
export function unknownDemoUserMessage(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return `The demo has no user ${JSON.stringify(shown)} (the ${DEMO_USER_COOKIE} cookie). Pick one of ${DEMO_USERS.map((user) => user.name).join(', ')}.`;
}

/**
 * The runner's `identify`: the demo user the cookie names, the first one without a cookie, and
 * no one (401) for a cookie that names no demo user.
 */
export const identifyDemoUser: Identify = (request) => {
  const found = demoUserOf(request.headers.get('cookie'));
  if (!('user' in found)) return null;
  const { id, name, roles } = found.user;
  return { id, name, roles: [...roles] };
};

/**
 * The runner's `authorize` for threads kept from before the demo had people (they have no owner):
 * they are the first demo user's (Ana, who everyone was then), for everything; anyone else's
 * threads stay refused. `ownerless` is filled once the runner is ready (no new thread is ownerless).
 */
export function ownerlessAreDefaultUsers(ownerless: ReadonlySet<string>): Authorize {
  return ({ user, threadId }) => ownerless.has(threadId) && user.id === DEMO_USERS[0]!.id;
}

/** An approval through the demo's approval system: a ticket (the "Request a deploy approval" card). */
function isTicketApproval(reason: string, interrupt: Readonly<Record<string, unknown>>): boolean {
  const metadata = interrupt.metadata;
  return (
    reason === 'aidev:tool_approval' &&
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as { ticket?: unknown }).ticket === 'object'
  );
}

/**
 * The runner's `approvers`: an approval ticket (a deploy approval, on either agent) waits for
 * whoever is on call; every other card is for the thread's owner, as before.
 */
export const demoApprovers: ApproversPolicy = ({ reason, interrupt }) =>
  isTicketApproval(reason, interrupt) ? { roles: [DEPLOY_APPROVER_ROLE] } : null;

/** Whether `user` may refresh or withdraw approval tickets: they wait for whoever is on call. */
export const mayWorkTickets = (user: DemoUser): boolean => user.roles.includes(DEPLOY_APPROVER_ROLE);

/** What someone not on call is told when they try to refresh or withdraw a ticket. */
export function ticketRefusal(user: DemoUser, action: string, sn: string): string {
  const onCall = DEMO_USERS.filter(mayWorkTickets).map((each) => each.name);
  const verb = action === 'cancel' ? 'withdraw' : 'refresh';
  return `${user.name} may not ${verb} approval ticket ${sn}: it waits for whoever is on call (${onCall.join(', ')}).`;
}

/** The demo users an interrupt's approvers name (by id or role). */
function approversOf(approvers: InterruptEvent['interrupt']['approvers']): DemoUser[] {
  if (!approvers) return [];
  const ids = new Set((approvers.users ?? []).map((user) => user.id));
  const roles = new Set(approvers.roles ?? []);
  return DEMO_USERS.filter((user) => ids.has(user.id) || user.roles.some((role) => roles.has(role)));
}

/**
 * The server log's line for an approval raised: "Dana, an approval waits for you: Approval needed:
 * Deploy v2 to production (thread …, asked by Ana)" when it is assigned, "Ana, an approval waits
 * for you: …" when it is for the thread's owner. Nothing for other events.
 */
export function approvalLine({ type, interrupt, thread }: InterruptEvent): string | undefined {
  if (type !== 'raised' || !interrupt.reason.includes('approval')) return undefined;
  const assigned = approversOf(interrupt.approvers);
  const owner = thread.owner ? (thread.owner.name ?? thread.owner.id) : undefined;
  const who = assigned.length > 0 ? assigned.map((user) => user.name).join(', ') : (owner ?? 'You');
  const askedBy = owner && assigned.length > 0 && !assigned.some((user) => user.id === thread.owner?.id) ? `, asked by ${owner}` : '';
  return `${who}, an approval waits for you: ${interrupt.message ?? interrupt.reason} (thread ${thread.id}${askedBy})`;
}
