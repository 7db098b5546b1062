import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../demo/server';
import { unwrapInterrupt } from '../../../src/unwrap';

// The demo server over real HTTP: CopilotRuntime (v2, node listener) -> @ag-ui/mastra -> Mastra.
let demo: DemoServer;
const steps: string[] = [];
const logged: string[] = [];
beforeAll(async () => {
  demo = await startDemoServer({
    port: 0,
    approvals: { refreshesToApprove: 2 },
    onProgress: (step) => steps.push(step),
    log: (line) => logged.push(line),
  });
}, 60_000);
afterAll(() => demo?.close());

/** An agent on the demo's runtime; `user` is the demo user the cookie names (none: the first, Ana). */
const agentFor = (threadId: string, user?: string) =>
  new HttpAgent({
    url: `${demo.url}/api/copilotkit/agent/default/run`,
    threadId,
    agentId: 'default',
    ...(user ? { headers: { cookie: `cki-demo-user=${user}` } } : {}),
  });

async function run(agent: HttpAgent, params: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
  return events;
}
const outcomeOf = (events: BaseEvent[]) => (events.find((e) => e.type === 'RUN_FINISHED') as any)?.outcome;
const textOf = (events: BaseEvent[]) =>
  events
    .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
    .map((e) => (e as any).delta)
    .join('');

describe('demo server', () => {
  it('says what it is doing at each step of its start, in order', () => {
    expect(steps).toEqual([
      'Opening the demo data…',
      'Starting the Mastra agent…',
      'Starting the LangGraph server (in this process)…',
      'Starting the CopilotKit runtime and the web server on 127.0.0.1…',
    ]);
  });

  it('listens on 127.0.0.1 and answers the runtime info probe', async () => {
    expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const info = await fetch(`${demo.url}/api/copilotkit/info`).then((r) => r.json());
    expect(Object.keys(info.agents ?? {})).toContain('default');
  });

  it('books a call over HTTP: suspend with the tool slots, resume with one, text quotes it', async () => {
    const agent = agentFor('http-booking');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Book an intro call with the sales team to discuss pricing.' });
    const first = await run(agent);
    const outcome = outcomeOf(first);
    expect(outcome?.type).toBe('interrupt');
    const card = unwrapInterrupt(outcome.interrupts[0]);
    const payload = card.payload as any;
    expect(card.toolName).toBe('schedule_meeting');
    expect(payload.slots).toHaveLength(4);

    const slot = payload.slots[0];
    const second = await run(agent, {
      resume: [{ interruptId: card.id, status: 'resolved', payload: { chosen_time: slot.iso, chosen_label: slot.label } }],
    });
    expect(textOf(second)).toContain(`Scheduled "${payload.topic}" for ${slot.label}.`);

    // Multi-turn: a second booking in the same thread suspends again and resumes again.
    agent.addMessage({ id: 'u2', role: 'user', content: 'Schedule a 1:1 with Alice next week to review Q2 goals.' });
    const third = await run(agent);
    const again = unwrapInterrupt(outcomeOf(third).interrupts[0]);
    expect((again.payload as any).attendee).toBe('Alice');
    const fourth = await run(agent, { resume: [{ interruptId: again.id, status: 'resolved', payload: { cancelled: true } }] });
    expect(textOf(fourth)).toContain('no meeting was scheduled');
  });

  it('serves the approval system: refresh moves a ticket from pending to approved', async () => {
    // Dana is on call: the approval she asks for waits for her, and she may answer it.
    const agent = agentFor('http-approval', 'dana');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Request approval to deploy v2 to production.' });
    const events = await run(agent);
    const interrupt = outcomeOf(events).interrupts[0];
    expect(interrupt.reason).toBe('aidev:tool_approval');
    // The runner's onInterruptEvent: the server log says an approval waits, once, naming the approver.
    await expect
      .poll(() => logged.filter((line) => line.endsWith('(thread http-approval)')), { timeout: 10_000 })
      .toEqual([`Dana, an approval waits for you: ${interrupt.message} (thread http-approval)`]);
    // The booking card is a question, not an approval: nothing was logged for it.
    expect(logged.filter((line) => line.includes('http-booking'))).toEqual([]);
    const { sn, url } = interrupt.metadata.ticket;
    expect(url).toBe(`${demo.url}/api/approvals/${sn}`);
    // Dana is on call: the ticket waits for her, and she may refresh it.
    const asDana = { cookie: 'cki-demo-user=dana' };
    const refresh = () => fetch(`${demo.url}/api/approvals/${sn}/refresh`, { method: 'POST', headers: asDana }).then((r) => r.json());
    expect((await refresh()).ticket.status).toBe('pending');
    const { ticket } = await refresh();
    expect(ticket.status).toBe('approved');
    expect((await fetch(url).then((r) => r.json())).ticket.status).toBe('approved');
    const resumed = await run(agent, { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { metadata: { ticket } } }] });
    expect(textOf(resumed)).toContain(`Approval ${sn} ("Deploy v2 to production") is approved.`);
    expect((await fetch(`${demo.url}/api/approvals/NOPE/refresh`, { method: 'POST', headers: asDana })).status).toBe(404);
  });
});
