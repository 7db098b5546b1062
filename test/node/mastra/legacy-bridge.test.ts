import type { AbstractAgent, BaseEvent } from '@ag-ui/client';
import { MastraAgent } from '@ag-ui/mastra';
import { describe, expect, it } from 'vitest';
import { createDemoMastra, DEMO_AGENT_ID } from '../../../demo/server/agent';
import { ApprovalStore } from '../../../demo/server/approvals';
import { withNormalizedInterrupts } from '../../../src/runtime';

process.env.MASTRA_TELEMETRY_DISABLED = 'true';

// A legacy-only backend for real: @ag-ui/mastra with `emitInterruptOutcome: false` sends only the
// CUSTOM `on_interrupt` event. normalizeInterrupts() turns that into the standard outcome, and the
// standard resume that answers it reaches the suspended tool.
describe('normalizeInterrupts with a bridge that emits only the legacy on_interrupt', () => {
  it('gives a standard interrupt the bridge can resume, and the tool gets the resume data', async () => {
    const mastra = createDemoMastra({ approvals: new ApprovalStore() });
    const bare = new MastraAgent({
      agentId: DEMO_AGENT_ID,
      agent: mastra.getAgent(DEMO_AGENT_ID),
      resourceId: 'legacy-test',
      emitInterruptOutcome: false,
    } as ConstructorParameters<typeof MastraAgent>[0]);
    const collect = async (agent: AbstractAgent, params: Record<string, unknown> = {}) => {
      const events: BaseEvent[] = [];
      await agent.runAgent(params as never, { onEvent: ({ event }) => void events.push(event) });
      return events;
    };
    const finished = (events: BaseEvent[]) => events.find((e) => e.type === 'RUN_FINISHED') as any;

    // Without the middleware: only the legacy event, no interrupt outcome.
    const plain = bare.clone() as AbstractAgent;
    plain.threadId = 'legacy-plain';
    plain.addMessage({ id: 'u0', role: 'user', content: 'Book a call with sales.' });
    const plainEvents = await collect(plain);
    expect(plainEvents.some((e) => e.type === 'CUSTOM' && (e as any).name === 'on_interrupt')).toBe(true);
    expect(finished(plainEvents).outcome).toBeUndefined();

    const registered = withNormalizedInterrupts(bare);
    const first = registered.clone() as AbstractAgent;
    first.threadId = 'legacy-normalized';
    first.addMessage({ id: 'u1', role: 'user', content: 'Book a call with sales.' });
    const events = await collect(first);
    const outcome = finished(events).outcome;
    expect(outcome.type).toBe('interrupt');
    const [interrupt] = outcome.interrupts;
    expect(interrupt.reason).toBe('mastra:tool_suspend');
    // The bridge's id (runId::toolCallId), marked as ours and signed.
    expect(interrupt.id.startsWith(`mastra::${interrupt.metadata.mastra.runId}::${interrupt.toolCallId}.`)).toBe(true);
    const { topic, slots } = interrupt.metadata.mastra.suspendPayload;
    expect(slots).toHaveLength(4);

    const second = registered.clone() as AbstractAgent;
    second.threadId = first.threadId;
    second.setMessages(first.messages);
    const resumed = await collect(second, {
      resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { chosen_time: slots[3].iso, chosen_label: slots[3].label } }],
    });
    const text = resumed
      .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
      .map((e) => (e as any).delta)
      .join('');
    expect(text).toContain(`Scheduled "${topic}" for ${slots[3].label}.`);
  });
});
