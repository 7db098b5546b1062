import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../demo/server';
import { INTERRUPT_PEOPLE_KEY } from '../../../src/protocol';

// The demo's people over real HTTP: the cookie says which demo user a browser is (Ana without
// one), each thread is its starter's, and the deploy approval (an approval ticket) waits for Dana,
// who is on call.
let demo: DemoServer;
const logged: string[] = [];
beforeAll(async () => {
  demo = await startDemoServer({ port: 0, langgraph: false, approvals: { refreshesToApprove: 1 }, log: (line) => logged.push(line) });
}, 60_000);
afterAll(() => demo?.close());

const cookieOf = (user: string | undefined): Record<string, string> =>
  user === undefined ? {} : { cookie: `cki-demo-user=${encodeURIComponent(user)}` };
const agentAs = (user: string | undefined, threadId: string, path: 'run' | 'connect' = 'run') =>
  new HttpAgent({ url: `${demo.url}/api/copilotkit/agent/default/${path}`, threadId, agentId: 'default', headers: cookieOf(user) });

async function seen(agent: HttpAgent, parameters: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters as never, { onEvent: ({ event }) => void events.push(event) }).catch(() => {});
  return events;
}
const raisedIn = (events: BaseEvent[]) =>
  ((events.find((e) => e.type === 'RUN_FINISHED') as any)?.outcome?.interrupts ?? []) as Array<Record<string, any>>;
const errorsOf = (events: BaseEvent[]) => events.filter((e) => e.type === 'RUN_ERROR') as Array<BaseEvent & { code?: string }>;
const textOf = (events: BaseEvent[]) =>
  events
    .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
    .map((e) => (e as any).delta)
    .join('');
const ticketAction = (user: string | undefined, sn: string, action: 'refresh' | 'cancel') =>
  fetch(`${demo.url}/api/approvals/${sn}/${action}`, { method: 'POST', headers: cookieOf(user) });
const whoAmI = (user: string | undefined) => fetch(`${demo.url}/api/demo-user`, { headers: cookieOf(user) });
const inboxOf = async (user: string | undefined) => {
  const response = await fetch(`${demo.url}/api/inbox`, { headers: cookieOf(user) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { interrupts: Array<{ threadId: string }> }).interrupts;
};

describe('demo users', () => {
  it('given no cookie, the browser is Ana, and the switcher is told of the three demo users', async () => {
    const response = await whoAmI(undefined);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.user).toMatchObject({ id: 'ana', name: 'Ana' });
    expect(body.users.map((user: { name: string }) => user.name)).toEqual(['Ana', 'Ben', 'Dana']);
    expect(body.users.find((user: { id: string }) => user.id === 'dana').roles).toEqual(['on-call']);
  });

  it('given the cookie, the browser is the user it names, and their threads are theirs alone', async () => {
    expect((await (await whoAmI('ben')).json()).user).toMatchObject({ id: 'ben', name: 'Ben' });

    const threadId = `users-${crypto.randomUUID()}`;
    const ana = agentAs(undefined, threadId);
    ana.addMessage({ id: 'u1', role: 'user', content: 'Book an intro call with the sales team to discuss pricing.' });
    expect(raisedIn(await seen(ana))).toHaveLength(1);
    // Ana (no cookie) and Ana by cookie are the same person: her inbox lists her thread.
    expect((await inboxOf(undefined)).map((row) => row.threadId)).toContain(threadId);
    expect((await inboxOf('ana')).map((row) => row.threadId)).toContain(threadId);

    // Ben reaches it by id: refused, not one event of it; his inbox does not list it.
    const benConnects = await seen(agentAs('ben', threadId, 'connect'));
    expect(errorsOf(benConnects)).toEqual([expect.objectContaining({ code: 'forbidden' })]);
    expect(benConnects.filter((e) => e.type !== 'RUN_ERROR' && e.type !== 'RUN_STARTED')).toEqual([]);
    expect((await inboxOf('ben')).map((row) => row.threadId)).not.toContain(threadId);
  });

  it('given a cookie that names no demo user, every endpoint refuses with 401 and says so, and nothing runs', async () => {
    const who = await whoAmI('mallory');
    expect(who.status).toBe(401);
    const body = await who.json();
    expect(body).toMatchObject({ code: 'unknown_demo_user' });
    expect(body.error).toContain('"mallory"');
    expect(body.error).toContain('Ana, Ben, Dana');
    expect(body.users).toHaveLength(3);

    expect((await fetch(`${demo.url}/api/inbox`, { headers: cookieOf('mallory') })).status).toBe(401);
    const info = await fetch(`${demo.url}/api/copilotkit/info`, { headers: cookieOf('mallory') });
    expect(info.status).toBe(401);
    expect(await info.json()).toMatchObject({ code: 'unauthenticated' });

    const threadId = `users-${crypto.randomUUID()}`;
    const run = await fetch(`${demo.url}/api/copilotkit/agent/default/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...cookieOf('mallory') },
      body: JSON.stringify({
        threadId,
        runId: 'r1',
        messages: [{ id: 'u1', role: 'user', content: 'Hello' }],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      }),
    });
    expect(run.status).toBe(401);
    // No thread was started: Ana may start it as her own.
    const ana = agentAs(undefined, threadId);
    ana.addMessage({ id: 'u1', role: 'user', content: 'Hello' });
    expect(errorsOf(await seen(ana))).toEqual([]);
  });

  it('given Ana asks for a deploy approval, the ticket waits for Dana: Ana sees it read-only, Dana approves it from her inbox, and Ana’s run completes', async () => {
    const threadId = `users-${crypto.randomUUID()}`;
    const ana = agentAs(undefined, threadId);
    ana.addMessage({ id: 'u1', role: 'user', content: 'Request approval to deploy v2 to production.' });
    const [raised] = raisedIn(await seen(ana));
    expect(raised.reason).toBe('aidev:tool_approval');
    expect(raised.metadata[INTERRUPT_PEOPLE_KEY]).toMatchObject({ viewerMayAnswer: false, waitingFor: [{ role: 'on-call' }] });
    const { sn } = raised.metadata.ticket;

    // The server log names the approver, once.
    await expect
      .poll(() => logged.filter((line) => line.includes(threadId)), { timeout: 10_000 })
      .toEqual([`Dana, an approval waits for you: ${raised.message} (thread ${threadId}, asked by Ana)`]);

    // Ana may not work the ticket (refreshing it is what approves it here): refused, still pending.
    const anaRefresh = await ticketAction(undefined, sn, 'refresh');
    expect(anaRefresh.status).toBe(403);
    expect(await anaRefresh.json()).toMatchObject({ code: 'not_an_approver' });
    expect((await (await fetch(`${demo.url}/api/approvals/${sn}`)).json()).ticket.status).toBe('pending');

    // Dana's look at it approves it. Ana's answer carrying it is refused on the server, and the request stays open.
    const { ticket } = await (await ticketAction('dana', sn, 'refresh')).json();
    expect(ticket.status).toBe('approved');
    const answer = { resume: [{ interruptId: raised.id, status: 'resolved', payload: { metadata: { ticket } } }] };
    expect(errorsOf(await seen(agentAs(undefined, threadId), answer))).toEqual([expect.objectContaining({ code: 'not_an_approver' })]);

    // Ben is not on call: nothing of it in his inbox. Dana's inbox lists it, and she may answer.
    expect((await inboxOf('ben')).map((row) => row.threadId)).not.toContain(threadId);
    expect((await inboxOf('dana')).map((row) => row.threadId)).toContain(threadId);
    const [shown] = raisedIn(await seen(agentAs('dana', threadId, 'connect')));
    expect(shown.metadata[INTERRUPT_PEOPLE_KEY]).toMatchObject({ viewerMayAnswer: true });
    const dana = agentAs('dana', threadId);
    const approved = await seen(dana, answer);
    expect(errorsOf(approved)).toEqual([]);
    expect(textOf(approved)).toContain(`Approval ${sn} ("Deploy v2 to production") is approved.`);

    // Ana reads her thread again: answered by Dana, and the agent's reply is there.
    const again = await seen(agentAs(undefined, threadId, 'connect'));
    expect(raisedIn(again)[0]?.metadata[INTERRUPT_PEOPLE_KEY]).toMatchObject({ answeredBy: { id: 'dana', name: 'Dana', isViewer: false } });
    expect(textOf(again)).toContain('is approved.');
    expect(await inboxOf('dana')).not.toContainEqual(expect.objectContaining({ threadId }));
  });

  it('given any other card, it stays the owner’s: Ana may answer her booking, and it waits for no one else', async () => {
    const threadId = `users-${crypto.randomUUID()}`;
    const ana = agentAs('ana', threadId);
    ana.addMessage({ id: 'u1', role: 'user', content: 'Book an intro call with the sales team to discuss pricing.' });
    const [raised] = raisedIn(await seen(ana));
    expect(raised.metadata?.[INTERRUPT_PEOPLE_KEY]).toMatchObject({ viewerMayAnswer: true });
    expect((await inboxOf('dana')).map((row) => row.threadId)).not.toContain(threadId);
    expect(logged.filter((line) => line.includes(threadId))).toEqual([]);
  });

  it('given an approval ticket, only someone on call may refresh or withdraw it: anyone else is refused with a code and the ticket is left alone', async () => {
    const { sn } = demo.approvals.open('Deploy v3 to production');
    for (const action of ['refresh', 'cancel'] as const) {
      // No demo user: 401, as the runtime and the inbox answer that cookie.
      const stranger = await ticketAction('mallory', sn, action);
      expect(stranger.status).toBe(401);
      expect(await stranger.json()).toMatchObject({ code: 'unknown_demo_user' });
      // Ana (no cookie) and Ben are developers, not on call.
      for (const user of [undefined, 'ben']) {
        const refused = await ticketAction(user, sn, action);
        expect(refused.status).toBe(403);
        const body = await refused.json();
        expect(body.code).toBe('not_an_approver');
        expect(body.error).toContain(sn);
        expect(body.error).toContain('on call (Dana)');
      }
    }
    // Nothing changed: still pending, and anyone the demo knows may read it.
    const read = await fetch(`${demo.url}/api/approvals/${sn}`, { headers: cookieOf('ben') });
    expect((await read.json()).ticket.status).toBe('pending');
    expect((await fetch(`${demo.url}/api/approvals/${sn}`, { headers: cookieOf('mallory') })).status).toBe(401);
    // Dana withdraws it.
    const withdrawn = await ticketAction('dana', sn, 'cancel');
    expect(withdrawn.status).toBe(200);
    expect((await withdrawn.json()).ticket.status).toBe('cancelled');
  });
});
