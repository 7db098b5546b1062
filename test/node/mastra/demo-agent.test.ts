import type { AbstractAgent, BaseEvent } from '@ag-ui/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApprovalStore } from '../../../demo/server/approvals';
import { createDemoAgents, createDemoMastra } from '../../../demo/server/agent';
import { DEMO_QUESTIONS } from '../../../demo/server/scripted-model';
import { unwrapInterrupt } from '../../../src/unwrap';

process.env.MASTRA_TELEMETRY_DISABLED = 'true';

// The real chain: Mastra Agent (scripted model) -> Mastra tool suspend() -> @ag-ui/mastra ->
// normalizeInterrupts(). Each run uses a fresh clone, as CopilotRuntime does per request.
let registered: AbstractAgent;
let approvals: ApprovalStore;

beforeAll(() => {
  approvals = new ApprovalStore({ refreshesToApprove: 2 });
  registered = createDemoAgents(createDemoMastra({ approvals })).default as unknown as AbstractAgent;
});

let threads = 0;
interface Turn {
  events: BaseEvent[];
  agent: AbstractAgent;
}

async function say(text: string): Promise<Turn> {
  const agent = registered.clone() as AbstractAgent;
  agent.threadId = `thread-${++threads}`;
  agent.addMessage({ id: `u-${threads}`, role: 'user', content: text });
  const events: BaseEvent[] = [];
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
  return { events, agent };
}

async function resume(turn: Turn, entry: { status: 'resolved' | 'cancelled'; payload?: unknown }): Promise<Turn> {
  const [interrupt] = interruptsOf(turn.events);
  // A new request: a fresh clone with the transcript so far, like the browser sends it.
  const agent = registered.clone() as AbstractAgent;
  agent.threadId = turn.agent.threadId;
  agent.setMessages(turn.agent.messages);
  const events: BaseEvent[] = [];
  await agent.runAgent({ resume: [{ interruptId: interrupt.id, ...entry }] } as never, {
    onEvent: ({ event }) => void events.push(event),
  });
  return { events, agent };
}

function interruptsOf(events: BaseEvent[]): any[] {
  const finished = events.find((e) => e.type === 'RUN_FINISHED') as any;
  return finished?.outcome?.type === 'interrupt' ? finished.outcome.interrupts : [];
}
const textOf = (events: BaseEvent[]) =>
  events
    .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
    .map((e) => (e as any).delta)
    .join('');
const toolResults = (events: BaseEvent[]) => events.filter((e) => e.type === 'TOOL_CALL_RESULT').map((e) => JSON.parse((e as any).content));

describe('demo agent: schedule_meeting', () => {
  it('suspends with the tool’s own four slots, topic and attendee', async () => {
    const turn = await say('Schedule a 1:1 with Alice next week to review Q2 goals.');
    const [interrupt] = interruptsOf(turn.events);
    expect(interrupt.reason).toBe('mastra:tool_suspend');
    expect(interrupt.id).toMatch(/::/);
    const card = unwrapInterrupt(interrupt);
    expect(card.toolName).toBe('schedule_meeting');
    const payload = card.payload as any;
    expect(payload.attendee).toBe('Alice');
    expect(payload.topic).toBe('1:1 with Alice next week to review Q2 goals');
    expect(payload.slots.map((s: any) => s.label)).toEqual(['Tomorrow 10:00 AM', 'Tomorrow 2:00 PM', 'Monday 9:00 AM', 'Monday 3:30 PM']);
    for (const slot of payload.slots) expect(Number.isNaN(Date.parse(slot.iso))).toBe(false);
  });

  it('a picked slot re-runs the tool with resumeData; the agent quotes Scheduled "<topic>" for <label>.', async () => {
    const turn = await say('Book an intro call with the sales team to discuss pricing.');
    const payload = unwrapInterrupt(interruptsOf(turn.events)[0]).payload as any;
    expect(payload.attendee).toBeUndefined();
    const slot = payload.slots[2];
    const resumed = await resume(turn, { status: 'resolved', payload: { chosen_time: slot.iso, chosen_label: slot.label } });
    const expected = `Scheduled "${payload.topic}" for ${slot.label}.`;
    expect(toolResults(resumed.events)).toEqual([expected]);
    expect(textOf(resumed.events)).toContain(expected);
    expect(interruptsOf(resumed.events)).toEqual([]);
  });

  it('{cancelled: true} gives the cancel text', async () => {
    const turn = await say('Use schedule_meeting to book a 1:1 with Alice next week to review Q2 goals.');
    const resumed = await resume(turn, { status: 'resolved', payload: { cancelled: true } });
    expect(toolResults(resumed.events)).toEqual(['The user cancelled — no meeting was scheduled.']);
    expect(textOf(resumed.events)).toContain('no meeting was scheduled');
  });

  it('plain chat gets plain text and no interrupt', async () => {
    for (const text of ['Hello', "What's the weather?"]) {
      const turn = await say(text);
      expect(interruptsOf(turn.events)).toEqual([]);
      expect(textOf(turn.events).length).toBeGreaterThan(0);
    }
  });
});

describe('demo agent: approval tool (ticket mode)', () => {
  it('suspends with an aidev:tool_approval ticket, and the decided ticket round-trips', async () => {
    const turn = await say('Request approval to deploy v2 to production.');
    const [interrupt] = interruptsOf(turn.events);
    expect(interrupt.reason).toBe('aidev:tool_approval');
    expect(interrupt.metadata.mastra.toolName).toBe('request_approval');
    const ticket = interrupt.metadata.ticket;
    expect(ticket).toMatchObject({ status: 'pending', title: 'Deploy v2 to production' });
    expect(unwrapInterrupt(interrupt)).toMatchObject({ reason: 'aidev:tool_approval', metadata: { ticket } });

    expect(approvals.refresh(ticket.sn)?.status).toBe('pending');
    const decided = approvals.refresh(ticket.sn)!;
    expect(decided.status).toBe('approved');
    // Exactly what the card resolves with once the ticket is terminal.
    const resumed = await resume(turn, { status: 'resolved', payload: { metadata: { ticket: decided } } });
    const [result] = toolResults(resumed.events);
    expect(result).toBe(`Approval ${ticket.sn} ("Deploy v2 to production") is approved. Go ahead with: Deploy v2 to production.`);
    expect(textOf(resumed.events)).toContain(result);
  });

  it('trusts the approval store over the ticket the browser sends back', async () => {
    const turn = await say('Request approval to wire $5,000 to ACME.');
    const ticket = interruptsOf(turn.events)[0].metadata.ticket;
    const resumed = await resume(turn, { status: 'resolved', payload: { metadata: { ticket: { ...ticket, status: 'approved' } } } });
    expect(toolResults(resumed.events)[0]).toContain('is pending approval. Do not go ahead');
  });
});

describe('demo agent: user question tool', () => {
  it('suspends with several questions and returns the card’s answers as text', async () => {
    const turn = await say('Ask me a few questions about my project.');
    const [interrupt] = interruptsOf(turn.events);
    expect(interrupt.reason).toBe('aidev:user_question');
    expect(interrupt.metadata.questions).toEqual(DEMO_QUESTIONS);
    expect(unwrapInterrupt(interrupt).metadata).toEqual({ questions: DEMO_QUESTIONS });

    const answers = [
      {
        question: 'What kind of project is this?',
        multiSelect: false,
        answer: [{ label: 'Web app', description: 'A browser front end with an API' }],
      },
      {
        question: 'Which regions should it run in?',
        multiSelect: true,
        answer: [
          { label: 'EU', description: 'Frankfurt and Dublin' },
          { label: 'others', description: 'South America' },
        ],
      },
      // A free-text answer, as UserQuestionCard sends it.
      { question: 'When does it need to ship?', answer: [{ label: 'others', description: 'End of June' }] },
    ];
    const resumed = await resume(turn, { status: 'resolved', payload: { answers } });
    const expected =
      'The user answered: "What kind of project is this?" → Web app; "Which regions should it run in?" → EU, South America; "When does it need to ship?" → End of June.';
    expect(toolResults(resumed.events)).toEqual([expected]);
    expect(textOf(resumed.events)).toContain(expected);
  });
});
