import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalStore, startDemoServer } from '../../../demo/server';
import { createInterruptRunner } from '../../../src/runner';
import { collect, inputFor } from '../../helpers/runner-stores';
import { runFinished, runStarted, ScriptedAgent, textMessage } from '../../helpers/scripted-agent';
import { unwrapInterrupt } from '../../../src/unwrap';
import { emptyEmbeddedStore } from '../../helpers/embedded-store';

// Where the demo keeps its data: a folder that outlives the server (threads, Mastra's storage,
// approval tickets), or PostgreSQL with a URL.
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cki-demo-storage-'));
  folders.push(dir);
  return dir;
};
/**
 * A data folder whose runner store (`threads/`) is an empty cluster copied in
 * (test/helpers/embedded-store.ts): the first start skips PGlite's initdb. These tests are about
 * what outlives a restart; the demo's first start on an empty folder is the e2e suites'.
 */
const withEmptyThreadStore = async (dataDir: string) => {
  await emptyEmbeddedStore(join(dataDir, 'threads'));
  return dataDir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function run(agent: HttpAgent, params: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

describe('demo storage', () => {
  it('given a data folder, a server closed with a card open and started again on it completes the run when the card is answered', async () => {
    const dataDir = await withEmptyThreadStore(folder());
    let demo = await startDemoServer({ port: 0, langgraph: false, dataDir });
    const agentOn = (url: string) =>
      new HttpAgent({ url: `${url}/api/copilotkit/agent/default/run`, threadId: 'restart', agentId: 'default' });
    const agent = agentOn(demo.url);
    agent.addMessage({ id: 'u1', role: 'user', content: 'Book an intro call with the sales team to discuss pricing.' });
    const raised = await run(agent);
    const card = unwrapInterrupt((raised.find((e) => e.type === 'RUN_FINISHED') as any).outcome.interrupts[0]);
    const { slots, topic } = card.payload as { slots: { iso: string; label: string }[]; topic: string };
    expect(demo.storage).toBe(`embedded, in ${dataDir}`);
    await demo.close();

    demo = await startDemoServer({ port: 0, langgraph: false, dataDir });
    try {
      const again = agentOn(demo.url);
      again.messages = agent.messages;
      const events = await run(again, {
        resume: [{ interruptId: card.id, status: 'resolved', payload: { chosen_time: slots[3].iso, chosen_label: slots[3].label } }],
      });
      const text = events
        .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
        .map((e) => (e as any).delta)
        .join('');
      expect(text).toContain(`Scheduled "${topic}" for ${slots[3].label}.`);
    } finally {
      await demo.close();
    }
  }, 90_000);

  it("given a thread kept from before the demo had people (no owner), it should be the default user Ana's: hers to read and go on with, refused to Ben", async () => {
    const dataDir = folder();
    // The demo's threads as an older version wrote them: a runner without identify, no owner.
    const before = createInterruptRunner({ dataDir: join(dataDir, 'threads') });
    const agent = new ScriptedAgent((input) => [runStarted(input), ...textMessage(`m-${input.runId}`, 'From before.'), runFinished(input)]);
    await collect(before.run({ threadId: 'old-thread', agent, input: inputFor('old-thread') }));
    expect((await before.listThreads()).find((thread) => thread.id === 'old-thread')).toMatchObject({ createdById: '' });
    await before.close();

    const demo = await startDemoServer({ port: 0, langgraph: false, dataDir });
    try {
      const connectAs = (user: string | undefined) =>
        new HttpAgent({
          url: `${demo.url}/api/copilotkit/agent/default/connect`,
          threadId: 'old-thread',
          agentId: 'default',
          headers: user ? { cookie: `cki-demo-user=${user}` } : {},
        });
      const seen = async (client: HttpAgent) => {
        const events: BaseEvent[] = [];
        await client.runAgent({} as never, { onEvent: ({ event }) => void events.push(event) }).catch(() => {});
        return events;
      };
      // Ana (no cookie, and by cookie) reads it.
      for (const user of [undefined, 'ana']) {
        const events = await seen(connectAs(user));
        expect(events.filter((e) => e.type === 'RUN_ERROR')).toEqual([]);
        expect(
          events
            .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
            .map((e) => (e as any).delta)
            .join(''),
        ).toContain('From before.');
      }
      // Ben does not: refused, not one event of it.
      const ben = await seen(connectAs('ben'));
      expect(ben.filter((e) => e.type === 'RUN_ERROR')).toEqual([expect.objectContaining({ code: 'forbidden' })]);
      expect(ben.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')).toEqual([]);
      // Ana goes on with it: her run is accepted.
      const run = new HttpAgent({ url: `${demo.url}/api/copilotkit/agent/default/run`, threadId: 'old-thread', agentId: 'default' });
      run.addMessage({ id: 'u-old', role: 'user', content: 'Hello again' });
      const events: BaseEvent[] = [];
      await run.runAgent({} as never, { onEvent: ({ event }) => void events.push(event) }).catch(() => {});
      expect(events.filter((e) => e.type === 'RUN_ERROR')).toEqual([]);
      expect(events.map((e) => e.type)).toContain('RUN_FINISHED');
    } finally {
      await demo.close();
    }
  }, 90_000);

  it('given a LangGraph approval card open, a server stopped and started again on the data folder keeps the ticket: approved, the reply is about that same ticket', async () => {
    const dataDir = await withEmptyThreadStore(folder());
    let demo = await startDemoServer({ port: 0, dataDir, approvals: { refreshesToApprove: 2 } });
    const threadId = crypto.randomUUID(); // LangGraph's thread ids are UUIDs
    // Dana is on call: the approval ticket she asks for waits for her.
    const agentOn = (url: string) =>
      new HttpAgent({
        url: `${url}/api/copilotkit/agent/langgraph/run`,
        threadId,
        agentId: 'langgraph',
        headers: { cookie: 'cki-demo-user=dana' },
      });
    const agent = agentOn(demo.url);
    agent.addMessage({ id: 'u1', role: 'user', content: 'Request approval to deploy v2 to production.' });
    const raised = await run(agent);
    const card = unwrapInterrupt((raised.find((e) => e.type === 'RUN_FINISHED') as any).outcome.interrupts[0]);
    const { sn } = card.metadata.ticket as { sn: string };
    expect(
      (
        await fetch(`${demo.url}/api/approvals/${sn}/refresh`, { method: 'POST', headers: { cookie: 'cki-demo-user=dana' } }).then((r) =>
          r.json(),
        )
      ).ticket.status,
    ).toBe('pending');
    await demo.close();

    demo = await startDemoServer({ port: 0, dataDir, approvals: { refreshesToApprove: 2 } });
    try {
      const { ticket } = await fetch(`${demo.url}/api/approvals/${sn}/refresh`, {
        method: 'POST',
        headers: { cookie: 'cki-demo-user=dana' },
      }).then((r) => r.json());
      expect(ticket.status).toBe('approved');
      const again = agentOn(demo.url);
      again.messages = agent.messages;
      await run(again, { resume: [{ interruptId: card.id, status: 'resolved', payload: { metadata: { ticket } } }] });
      const reply = [...again.messages].reverse().find((m) => m.role === 'assistant' && m.content)?.content;
      expect(reply).toContain(sn);
      expect(reply).toMatch(/approved/i);
    } finally {
      await demo.close();
    }
  }, 90_000);

  it('given a PostgreSQL URL nothing answers, the server refuses to start and names the URL with its password hidden', async () => {
    const url = 'postgres://demo:hunter2-secret@127.0.0.1:1/demo';
    const error = await startDemoServer({ port: 0, langgraph: false, databaseUrl: url }).then(
      () => undefined,
      (reason: Error) => reason,
    );
    expect(error?.message).toContain('postgres://demo:***@127.0.0.1:1/demo');
    expect(error?.message).not.toContain('hunter2-secret');
  }, 60_000);

  it('given a ticket file, approval tickets outlive the store: a new store on the file continues them and numbers on', () => {
    const file = join(folder(), 'approvals.json');
    const first = new ApprovalStore({ file, refreshesToApprove: 2 });
    const { sn } = first.open('Deploy v2 to production');
    expect(first.refresh(sn)?.status).toBe('pending');

    const second = new ApprovalStore({ file, refreshesToApprove: 2 });
    expect(second.get(sn)?.title).toBe('Deploy v2 to production');
    expect(second.refresh(sn)?.status).toBe('approved');
    expect(second.open('Rotate the keys').sn).not.toBe(sn);
  });

  it('given a key, opening again with it returns the same ticket, after a restart too (a resumed LangGraph node runs again)', () => {
    const file = join(folder(), 'approvals.json');
    const first = new ApprovalStore({ file });
    const ticket = first.open('Deploy v2 to production', 'thread-1:message-1');
    expect(first.open('Deploy v2 to production', 'thread-1:message-1')).toEqual(ticket);
    expect(new ApprovalStore({ file }).open('Deploy v2 to production', 'thread-1:message-1')).toEqual(ticket);
    expect(first.open('Deploy v2 to production', 'thread-1:message-2').sn).not.toBe(ticket.sn);
  });

  it('given a ticket file that is not a ticket file, the store says which file and what to do, and leaves it unchanged', () => {
    const file = join(folder(), 'approvals.json');
    writeFileSync(file, '{ not json');
    expect(() => new ApprovalStore({ file })).toThrow(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read.*Move the file away`),
    );
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });
});
