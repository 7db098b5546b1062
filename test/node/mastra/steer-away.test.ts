import type { AbstractAgent, BaseEvent } from '@ag-ui/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../../../demo/server/approvals';
import { createDemoAgents, createDemoMastra } from '../../../demo/server/agent';

process.env.MASTRA_TELEMETRY_DISABLED = 'true';

let registered: AbstractAgent;
beforeAll(() => {
  registered = createDemoAgents(createDemoMastra({ approvals: new ApprovalStore({ refreshesToApprove: 2 }) }))
    .default as unknown as AbstractAgent;
});

async function run(agent: AbstractAgent, params: object) {
  const events: BaseEvent[] = [];
  await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
  return events;
}
const interruptsOf = (events: BaseEvent[]): any[] => {
  const finished = events.find((e) => e.type === 'RUN_FINISHED') as any;
  return finished?.outcome?.type === 'interrupt' ? finished.outcome.interrupts : [];
};
const textOf = (events: BaseEvent[]) =>
  events
    .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
    .map((e) => (e as any).delta)
    .join('');

// What the hook does when the user chats on while a card is open (onChatWhileOpen: 'dismiss'): one
// run carries the `cancelled` entry and the message; when the agent only winds the suspended tool
// down (Mastra ends the run on `cancelled`), the hook asks once more and the message gets its reply.
describe('demo agent: steer away from an open picker', () => {
  it('given cancelled with a new message, the tool stays unscheduled and a follow-up run answers the message', async () => {
    const first = registered.clone() as AbstractAgent;
    first.threadId = 'steer-1';
    first.addMessage({ id: 'u-1', role: 'user', content: 'Book an intro call with the sales team to discuss pricing.' });
    const [interrupt] = interruptsOf(await run(first, {}));
    expect(interrupt?.reason).toBe('mastra:tool_suspend');

    const second = registered.clone() as AbstractAgent;
    second.threadId = 'steer-1';
    second.setMessages([...first.messages, { id: 'u-2', role: 'user', content: 'Hello' }]);
    const cancelled = await run(second, { resume: [{ interruptId: interrupt.id, status: 'cancelled' }] });
    // The agent accepts the resume and is no longer suspended; Mastra says nothing more here.
    expect(cancelled.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    expect(interruptsOf(cancelled)).toEqual([]);
    expect(second.messages[second.messages.length - 1].role).toBe('user');

    const third = registered.clone() as AbstractAgent;
    third.threadId = 'steer-1';
    third.setMessages(second.messages);
    const reply = await run(third, {});
    expect(interruptsOf(reply)).toEqual([]);
    expect(textOf(reply).length).toBeGreaterThan(0);
    expect(textOf(reply)).not.toMatch(/Scheduled/);
  });
});
