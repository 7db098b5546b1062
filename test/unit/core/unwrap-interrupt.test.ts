import { describe, expect, it } from 'vitest';
import { unwrapInterrupt, unwrapInterrupts } from '../../../src/unwrap';
import {
  RUN_ID,
  TOOL_CALL_ID,
  approvalInterrupt,
  legacyScheduleEvent,
  mastraQuestionInterrupt,
  mastraScheduleInterrupt,
  questions,
  ticket,
  timePickerSuspendPayload,
} from '../../fixtures/interrupts';

describe('unwrapInterrupt', () => {
  it('reads a standard AG-UI interrupt as it is', () => {
    const u = unwrapInterrupt(approvalInterrupt);
    expect(u).toMatchObject({
      id: 'interrupt_ai_dev_tool_approval',
      reason: 'aidev:tool_approval',
      toolCallId: 'tool_call_review_ticket',
      message: '算法方案评审单需要您关注',
      metadata: { ticket },
      payload: { ticket },
      source: 'standard',
    });
    expect(u.raw).toBe(approvalInterrupt);
    expect(u.problem).toBeUndefined();
  });

  it('finds the business data of a Mastra suspend in metadata.mastra.suspendPayload', () => {
    const u = unwrapInterrupt(mastraScheduleInterrupt);
    expect(u).toMatchObject({
      id: `${RUN_ID}::${TOOL_CALL_ID}`,
      reason: 'mastra:tool_suspend',
      toolName: 'schedule_meeting',
      toolCallId: TOOL_CALL_ID,
      payload: timePickerSuspendPayload,
      source: 'mastra',
    });
    expect(u.metadata).toHaveProperty('mastra.runId', RUN_ID);
    expect(u.problem).toBeUndefined();
  });

  it('lifts a reason carried inside a Mastra suspend payload, keeping the id unchanged', () => {
    const u = unwrapInterrupt(mastraQuestionInterrupt);
    expect(u).toMatchObject({
      id: mastraQuestionInterrupt.id,
      reason: 'aidev:user_question',
      originalReason: 'mastra:tool_suspend',
      toolName: 'ask_user_questions',
      message: 'A few questions first',
      metadata: { questions },
      source: 'mastra',
    });
  });

  it('reads a LangGraph interrupt whose value sits under metadata.langgraph.raw (emitInterruptOutcome), lifting its reason', () => {
    const raw = { reason: 'aidev:user_question', message: 'A few questions', metadata: { questions } };
    const u = unwrapInterrupt({ id: 'lg-1', reason: 'aidev:user_question', message: 'A few questions', metadata: { langgraph: { raw } } });
    expect(u).toMatchObject({
      id: 'lg-1',
      reason: 'aidev:user_question',
      metadata: { questions },
      payload: raw,
      message: 'A few questions',
    });
    expect(u.problem).toBeUndefined();
    // A plain-string LangGraph interrupt keeps its message and the bridge's reason.
    const plain = unwrapInterrupt({
      id: 'lg-2',
      reason: 'langgraph:interrupt',
      message: 'Approve?',
      metadata: { langgraph: { raw: 'Approve?' } },
    });
    expect(plain).toMatchObject({ id: 'lg-2', reason: 'langgraph:interrupt', message: 'Approve?', payload: 'Approve?' });
    // A value that names its tool is drawn by that tool's card, with the value as the payload.
    const slots = {
      toolName: 'schedule_meeting',
      topic: 'Intro',
      slots: [{ label: 'Tomorrow 10:00 AM', iso: '2026-01-02T10:00:00.000Z' }],
    };
    expect(unwrapInterrupt({ id: 'lg-3', reason: 'langgraph:interrupt', metadata: { langgraph: { raw: slots } } })).toMatchObject({
      toolName: 'schedule_meeting',
      payload: slots,
    });
  });

  it('reads the legacy on_interrupt event whose value is a JSON-string mastra_suspend wrapper', () => {
    const u = unwrapInterrupt(legacyScheduleEvent);
    expect(u).toMatchObject({
      id: `${RUN_ID}::${TOOL_CALL_ID}`,
      reason: 'mastra:tool_suspend',
      toolName: 'schedule_meeting',
      toolCallId: TOOL_CALL_ID,
      payload: timePickerSuspendPayload,
      source: 'legacy',
    });
    expect(u.problem).toBeUndefined();
  });

  it('reads a legacy event whose value is an object', () => {
    const u = unwrapInterrupt({ name: 'on_interrupt', value: { topic: 'Pricing', slots: [] } });
    expect(u).toMatchObject({ source: 'legacy', reason: 'unknown', payload: { topic: 'Pricing', slots: [] } });
    expect(typeof u.id).toBe('string');
  });

  it('reads CopilotKit’s render event for a standard interrupt as the interrupt', () => {
    const u = unwrapInterrupt({ name: 'on_interrupt', value: mastraScheduleInterrupt });
    expect(u).toMatchObject({ id: mastraScheduleInterrupt.id, source: 'mastra', payload: timePickerSuspendPayload });
  });

  it('reads JSON strings, also double-encoded', () => {
    const once = JSON.stringify(approvalInterrupt);
    expect(unwrapInterrupt(once)).toMatchObject({ id: approvalInterrupt.id, reason: 'aidev:tool_approval' });
    expect(unwrapInterrupt(JSON.stringify(once))).toMatchObject({ id: approvalInterrupt.id, metadata: { ticket } });
    expect(unwrapInterrupt(JSON.stringify(legacyScheduleEvent))).toMatchObject({
      toolName: 'schedule_meeting',
      payload: timePickerSuspendPayload,
    });
  });

  it('reads a bare business payload', () => {
    const bare = unwrapInterrupt({ topic: 'Pricing', slots: [] });
    expect(bare).toMatchObject({ source: 'raw', reason: 'unknown', payload: { topic: 'Pricing', slots: [] } });
    const withReason = unwrapInterrupt({ reason: 'aidev:user_question', metadata: { questions } });
    expect(withReason).toMatchObject({ source: 'raw', reason: 'aidev:user_question', metadata: { questions } });
  });

  it('gives the same synthesised id to the same id-less input', () => {
    const a = unwrapInterrupt({ topic: 'Pricing' });
    expect(unwrapInterrupt({ topic: 'Pricing' }).id).toBe(a.id);
    expect(unwrapInterrupt({ topic: 'Other' }).id).not.toBe(a.id);
  });

  it.each([
    ['not JSON', '{oops', /not valid JSON/],
    ['a number', 42, /should be an object, but it is a number/],
    ['null', null, /should be an object, but it is null/],
    ['a list', [1, 2], /should be an object, but it is a list/],
    ['a plain sentence', 'hello there', /not valid JSON/],
  ])('explains unreadable input (%s) instead of throwing', (_name, input, problem) => {
    const u = unwrapInterrupt(input);
    expect(u.problem).toMatch(problem);
    expect(u.reason).toBe('unknown');
    expect(typeof u.id).toBe('string');
    expect(u.raw).toBe(input);
  });

  it('explains wrong field types', () => {
    expect(unwrapInterrupt({ id: 1, reason: 'a:b' }).problem).toMatch(/id should be non-empty text, but it is a number/);
    const blank = unwrapInterrupt({ id: '', reason: '' });
    expect(blank.problem).toMatch(/id should be non-empty text, but it is empty.*reason should be non-empty text/);
    expect(blank.id).not.toBe('');
    expect(unwrapInterrupt({ id: 'a', reason: 'x:y', metadata: 'oops' }).problem).toMatch(/metadata should be an object/);
    const noPayload = unwrapInterrupt({ ...mastraScheduleInterrupt, metadata: { mastra: { toolName: 'schedule_meeting' } } });
    expect(noPayload.problem).toMatch(/no suspend payload/);
    expect(noPayload.toolName).toBe('schedule_meeting');
  });

  it('drops prototype-polluting keys and says so', () => {
    const hostile = JSON.parse(
      '{"id":"x","reason":"a:b","metadata":{"__proto__":{"polluted":true},"constructor":{"prototype":{"bad":1}},"ok":1}}',
    );
    const u = unwrapInterrupt(hostile);
    expect(u.metadata).toEqual({ ok: 1 });
    expect(u.problem).toMatch(/unsafe keys: __proto__, constructor/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses JSON that is too large to read', () => {
    const huge = JSON.stringify({ id: 'x', reason: 'a:b', message: 'x'.repeat(2_000_000) });
    expect(unwrapInterrupt(huge).problem).toMatch(/too large to read/);
  });

  it('survives objects whose getters throw and cyclic objects', () => {
    const trap = {
      id: 'x',
      reason: 'a:b',
      metadata: {
        get boom() {
          throw new Error('nope');
        },
      },
    };
    expect(unwrapInterrupt(trap).problem).toMatch(/could not be read/);
    const cyclic: Record<string, unknown> = { id: 'c', reason: 'a:b', metadata: {} };
    (cyclic.metadata as Record<string, unknown>).self = cyclic;
    expect(unwrapInterrupt(cyclic)).toMatchObject({ id: 'c', reason: 'a:b' });
  });
});

describe('unwrapInterrupts', () => {
  it('returns one unwrapped interrupt per open standard interrupt', () => {
    const list = unwrapInterrupts({
      event: { name: 'on_interrupt', value: approvalInterrupt },
      interrupt: approvalInterrupt,
      interrupts: [approvalInterrupt, mastraScheduleInterrupt],
    });
    expect(list.map((u) => u.id)).toEqual([approvalInterrupt.id, mastraScheduleInterrupt.id]);
  });

  it('falls back to the legacy event when there is no standard interrupt', () => {
    const list = unwrapInterrupts({ event: legacyScheduleEvent, interrupt: null, interrupts: [] });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ source: 'legacy', toolName: 'schedule_meeting' });
  });

  it('returns nothing for empty or missing render props', () => {
    expect(unwrapInterrupts({})).toEqual([]);
    expect(unwrapInterrupts(null)).toEqual([]);
  });
});

describe('what the durable runner tells a viewer of an interrupt (metadata["copilotkit-interrupts:people"])', () => {
  const KEY = 'copilotkit-interrupts:people';
  const told = (people: unknown, extra: Record<string, unknown> = {}) =>
    unwrapInterrupt({ id: 'i-1', reason: 'aidev:tool_approval', metadata: { toolName: 'deploy', [KEY]: people }, ...extra });

  it('given who it waits for and who answered, unwrapping should carry them on `people`', () => {
    const people = {
      viewerMayAnswer: false,
      waitingFor: [{ id: 'dan', name: 'Dan' }, { role: 'on-call' }],
      answeredBy: { id: 'ana', name: 'Ana', at: '2026-03-02T10:42:00.000Z', isViewer: false },
    };
    expect(told(people).people).toEqual(people);
    // A Mastra suspend whose payload lifts its own reason keeps what the runner said too.
    const mastra = unwrapInterrupt({
      id: 'm-1',
      reason: 'mastra:tool_suspend',
      metadata: { mastra: { toolName: 'ask', suspendPayload: { reason: 'aidev:user_question', metadata: {} } }, [KEY]: people },
    });
    expect(mastra.reason).toBe('aidev:user_question');
    expect(mastra.people).toEqual(people);
  });

  it('given nothing, or something that does not read as it, `people` should be absent or hold only what reads', () => {
    expect('people' in unwrapInterrupt({ id: 'i-1', reason: 'r', metadata: {} })).toBe(false);
    for (const junk of [null, 'yes', 42, [], { viewerMayAnswer: 'true' }]) expect(told(junk).people).toBeUndefined();
    const odd = told({
      viewerMayAnswer: true,
      waitingFor: [
        null,
        7,
        { id: '' },
        { role: 'ops' },
        { id: 'x'.repeat(5000) },
        ...Array.from({ length: 40 }, (_, i) => ({ id: `u${i}` })),
      ],
      answeredBy: { id: 'ana', at: 'not a date', isViewer: 'yes' },
      noOne: 'true',
    }).people!;
    expect(odd.viewerMayAnswer).toBe(true);
    expect(odd.waitingFor[0]).toEqual({ role: 'ops' });
    expect((odd.waitingFor[1] as { id: string }).id.length).toBeLessThanOrEqual(201);
    expect(odd.waitingFor.length).toBeLessThanOrEqual(20);
    expect(odd.noOne).toBeUndefined();
    expect(odd.answeredBy).toEqual({ id: 'ana', isViewer: false });
  });
});
