// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLangGraphId } from '../../../src/backends/langgraph';
import { parseReviewId } from '../../../src/backends/langgraph/review';
import { parseHitlId } from '../../../src/backends/langchain-hitl/request';
import { fromLangGraphValue } from '../../../src/backends/langgraph-wire';
import { legacyInterruptId, parseLegacyId } from '../../../src/backends/legacy/ids';
import { liftInterrupt } from '../../../src/wire/shapes';

describe('interrupt ids carry what a resume needs', () => {
  it('given any JSON event value and agent id, a legacy id parses back to exactly them', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        fc.string(),
        fc.nat(),
        (event, agentId, runId, index) => {
          // Prototype keys are dropped on the way back (the id comes from a browser); see the hostile test below.
          fc.pre(!/"(__proto__|constructor|prototype)":/.test(JSON.stringify(event)));
          const { id, problem } = legacyInterruptId(runId, index, { ...(agentId ? { agentId } : {}), event });
          expect(problem).toBeUndefined();
          const parsed = parseLegacyId(id);
          expect(parsed.kind).toBe('legacy');
          // JSON round trip: -0 becomes 0, like any JSON transport.
          expect(parsed).toEqual({
            kind: 'legacy',
            carried: { ...(agentId ? { agentId } : {}), event: JSON.parse(JSON.stringify(event)) },
          });
        },
      ),
    );
  });

  it('given a LangGraph interrupt id, the resume knows LangGraph’s own id', () => {
    const { id } = fromLangGraphValue('9f1c2e', 'Approve?');
    expect(id).toBe('langgraph::9f1c2e');
    expect(parseLangGraphId(id)).toBe('9f1c2e');
  });

  it('given ids that are not ours (Mastra, standard, hostile), nothing is read from them', () => {
    for (const id of ['run-1::call_1', 'interrupt_ai_dev_tool_approval', 'langgraph::', 42, null]) {
      expect(parseLegacyId(id)).toEqual({ kind: 'other' });
      expect(parseLangGraphId(id)).toBeUndefined();
      expect(parseReviewId(id)).toEqual({ kind: 'other' });
      expect(parseHitlId(id)).toEqual({ kind: 'other' });
    }
    expect(parseLegacyId('legacy::r::0::')).toEqual({ kind: 'legacy' });
    // A carried part without an event (an event too large to carry): nothing to send back as interruptEvent.
    expect(parseLegacyId('legacy::r::0::e30')).toEqual({ kind: 'legacy', carried: {} });
    // An event with a prototype key (the middleware checks the id's signature before it reads
    // one): the key stays the event's own, as the agent raised it, and no prototype is touched.
    const event = JSON.parse('{"__proto__":{"polluted":true},"ok":1}') as Record<string, unknown>;
    const parsed = parseLegacyId(legacyInterruptId('r', 0, { event }).id);
    expect(parsed.kind === 'legacy' && parsed.carried?.event).toStrictEqual(event);
    expect(Object.getPrototypeOf(parsed.kind === 'legacy' && parsed.carried?.event)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('liftInterrupt', () => {
  it('given a LangGraph value with its own reason, the card gets that reason and metadata; the transport key stays', () => {
    const raw = { reason: 'aidev:user_question', message: 'Q', metadata: { questions: [{ question: 'Which?' }] } };
    const lifted = liftInterrupt(fromLangGraphValue('abc', raw));
    expect(lifted).toEqual({
      id: 'langgraph::abc',
      reason: 'aidev:user_question',
      message: 'Q',
      metadata: { questions: [{ question: 'Which?' }], langgraph: { raw } },
    });
    // Lifting twice changes nothing.
    expect(liftInterrupt(lifted)).toBe(lifted);
  });
});
