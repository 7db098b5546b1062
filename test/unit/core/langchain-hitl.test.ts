// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hitlResponses, type HitlDecision } from '../../../src/backends/langchain-hitl/decisions';
import {
  HITL_DECISIONS,
  fromHitlRequest,
  isHitlRequest,
  langGraphHitlId,
  parseHitlId,
  type HitlDecisionType,
} from '../../../src/backends/langchain-hitl/request';

const ALL: HitlDecisionType[] = ['approve', 'edit', 'reject'];
const request = {
  actionRequests: [
    { name: 'send_email', args: { to: 'ops@example.com' }, description: 'Send it?' },
    { name: 'delete_branch', args: { name: 'old' } },
  ],
  reviewConfigs: [
    { actionName: 'send_email', allowedDecisions: ALL, argsSchema: { type: 'object', properties: { to: { type: 'string' } } } },
    { actionName: 'delete_branch', allowedDecisions: ['approve', 'reject'] },
  ],
};
const problemOf = (value: unknown) => {
  const read = fromHitlRequest('abc', value);
  return 'problem' in read ? read.problem : undefined;
};

describe('fromHitlRequest (LangChain humanInTheLoopMiddleware)', () => {
  it('given a request of two action requests, gives two direct-mode approval cards in order, each with what its config allows', () => {
    expect(isHitlRequest(request)).toBe(true);
    const read = fromHitlRequest('abc', request, { ns: ['agent'] });
    expect(read).toEqual({
      interrupts: [
        {
          id: expect.stringMatching(/^langgraph-hitl::abc::[A-Za-z0-9_-]+$/),
          reason: 'aidev:tool_approval',
          message: 'Send it?',
          metadata: {
            toolName: 'send_email',
            args: { to: 'ops@example.com' },
            argsSchema: request.reviewConfigs[0].argsSchema,
            allowApprove: true,
            allowEdit: true,
            allowReject: true,
            allowDismiss: true,
            reasonOnlyOnReject: true,
            langgraph: { ns: ['agent'], raw: request, index: 0, count: 2 },
          },
        },
        {
          id: expect.stringMatching(/^langgraph-hitl::abc::[A-Za-z0-9_-]+$/),
          reason: 'aidev:tool_approval',
          metadata: {
            toolName: 'delete_branch',
            args: { name: 'old' },
            allowApprove: true,
            allowEdit: false,
            allowReject: true,
            allowDismiss: true,
            reasonOnlyOnReject: true,
            langgraph: { ns: ['agent'], raw: request, index: 1, count: 2 },
          },
        },
      ],
    });
  });

  it('given hostile variants, says what is wrong in a sentence', () => {
    expect(problemOf({ ...request, actionRequests: [] })).toBe(
      "The LangChain humanInTheLoopMiddleware request's actionRequests should be a list of at least one, but it is a list.",
    );
    expect(problemOf({ ...request, actionRequests: [{ name: 'send_email', args: 'x' }] })).toBe(
      'The LangChain humanInTheLoopMiddleware request\'s actionRequests[0].args should be an object, but it is the text "x".',
    );
    expect(problemOf({ ...request, reviewConfigs: [] })).toBe(
      'The LangChain humanInTheLoopMiddleware request has no review config for "send_email"; without it the card cannot know which decisions the agent takes.',
    );
    expect(problemOf({ ...request, reviewConfigs: [{ actionName: 'send_email', allowedDecisions: ['accept'] }] })).toBe(
      'The LangChain humanInTheLoopMiddleware request\'s allowedDecisions for "send_email" should be a list of approve, edit and reject, but it is a list.',
    );
    expect(problemOf({ ...request, reviewConfigs: [{ actionName: 'send_email', allowedDecisions: [] }] })).toBe(
      'The LangChain humanInTheLoopMiddleware request\'s allowedDecisions for "send_email" allows no decision.',
    );
  });

  it('given any request, each card id reads back as its place, its count, its tool and exactly its allowed decisions', () => {
    const decisions = fc.subarray(ALL, { minLength: 1 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ minLength: 1 }), decisions), { minLength: 1, maxLength: 8 }), (actions) => {
        const value = {
          actionRequests: actions.map(([name], i) => ({ name: `${name}${i}`, args: { i } })),
          reviewConfigs: actions.map(([name, allowed], i) => ({ actionName: `${name}${i}`, allowedDecisions: allowed })),
        };
        const read = fromHitlRequest('0123', value);
        if (!('interrupts' in read)) throw new Error(read.problem);
        read.interrupts.forEach((card, i) => {
          expect(parseHitlId(card.id)).toEqual({
            kind: 'langgraph-hitl',
            langGraphId: '0123',
            action: {
              index: i,
              count: actions.length,
              name: `${actions[i][0]}${i}`,
              allowed: ALL.filter((d) => actions[i][1].includes(d)),
            },
          });
        });
      }),
    );
  });
});

type Answer =
  { kind: 'approve' } | { kind: 'edit'; args: Record<string, unknown> } | { kind: 'reject'; reason?: string } | { kind: 'dismiss' };
const answerArb: fc.Arbitrary<Answer> = fc.oneof(
  fc.constant({ kind: 'approve' as const }),
  fc.dictionary(fc.string(), fc.jsonValue()).map((args) => ({ kind: 'edit' as const, args })),
  fc.option(fc.string({ minLength: 1 }), { nil: undefined }).map((reason) => ({ kind: 'reject' as const, ...(reason ? { reason } : {}) })),
  fc.constant({ kind: 'dismiss' as const }),
);
const entryOf = (answer: Answer) =>
  answer.kind === 'dismiss'
    ? { status: 'cancelled' }
    : {
        status: 'resolved',
        payload:
          answer.kind === 'approve'
            ? { approved: true }
            : answer.kind === 'edit'
              ? { approved: true, editedArgs: answer.args }
              : { approved: false, ...(answer.reason ? { reason: answer.reason } : {}) },
      };
const expectedDecision = (answer: Answer, name: string): HitlDecision =>
  answer.kind === 'approve'
    ? { type: 'approve' }
    : answer.kind === 'edit'
      ? { type: 'edit', editedAction: { name, args: answer.args } }
      : answer.kind === 'reject'
        ? { type: 'reject', ...(answer.reason ? { message: answer.reason } : {}) }
        : { type: 'reject', message: 'The user dismissed the approval request.' };
const typeOf = (answer: Answer): HitlDecisionType => (answer.kind === 'dismiss' ? 'reject' : answer.kind);

describe('hitlResponses: the answers to a request’s cards as its one {decisions}', () => {
  const cases = fc
    .array(fc.tuple(answerArb, fc.subarray(ALL, { minLength: 1 })), { minLength: 1, maxLength: 10 })
    .chain((actions) => fc.tuple(fc.constant(actions), fc.shuffledSubarray([...actions.keys()], { minLength: actions.length })));

  it('given any mix of answers in any order, every one allowed, the decisions come in the order of the action requests', () => {
    fc.assert(
      fc.property(cases, ([actions, order]) => {
        fc.pre(actions.every(([answer, allowed]) => allowed.includes(typeOf(answer))));
        const answers = order.map((i) => ({
          ...entryOf(actions[i][0]),
          interruptId: `card-${i}`,
          langGraphId: 'lg',
          action: { index: i, count: actions.length, name: `tool_${i}`, allowed: actions[i][1] },
        }));
        const built = hitlResponses(answers);
        expect(built).toEqual({
          responses: new Map([['lg', { decisions: actions.map(([answer], i) => expectedDecision(answer, `tool_${i}`)) }]]),
          leftOpen: [],
        });
      }),
    );
  });

  it('given any answer its action does not allow, the whole resume is refused naming that card', () => {
    fc.assert(
      fc.property(cases, ([actions, order]) => {
        const disallowed = actions.findIndex(([answer, allowed]) => !allowed.includes(typeOf(answer)));
        fc.pre(disallowed !== -1 && actions.every(([answer, allowed], i) => i === disallowed || allowed.includes(typeOf(answer))));
        // Every card dismissed is the user moving on (see the next test), not an answer to refuse.
        fc.pre(!actions.every(([answer]) => answer.kind === 'dismiss'));
        const answers = order.map((i) => ({
          ...entryOf(actions[i][0]),
          interruptId: `card-${i}`,
          langGraphId: 'lg',
          action: { index: i, count: actions.length, name: `tool_${i}`, allowed: actions[i][1] },
        }));
        const built = hitlResponses(answers);
        expect(built).toEqual({ refused: { interruptId: `card-${disallowed}`, problem: expect.stringContaining('does not allow') } });
      }),
    );
  });

  it('given every card dismissed while one action allows no reject, the request is left open, not refused', () => {
    const action = (index: number, allowed: HitlDecisionType[]) => ({ index, count: 2, name: `tool_${index}`, allowed });
    const dismissed = (index: number, allowed: HitlDecisionType[]) => ({
      interruptId: `card-${index}`,
      langGraphId: 'lg',
      status: 'cancelled',
      action: action(index, allowed),
    });
    expect(hitlResponses([dismissed(0, ['approve', 'edit']), dismissed(1, ALL)])).toEqual({
      responses: new Map(),
      leftOpen: [action(0, ['approve', 'edit'])],
    });
    // One of them answered: the dismissal of the other is a reject it does not allow.
    expect(
      hitlResponses([dismissed(0, ['approve', 'edit']), { ...dismissed(1, ALL), status: 'resolved', payload: { approved: true } }]),
    ).toMatchObject({ refused: { interruptId: 'card-0' } });
  });

  it('given a request answered in part, or one card answered twice, it is refused', () => {
    const action = (index: number) => ({ index, count: 3, name: 'deploy', allowed: ALL });
    const entry = (index: number) => ({
      interruptId: `card-${index}`,
      langGraphId: 'lg',
      status: 'resolved',
      payload: { approved: true },
      action: action(index),
    });
    expect(hitlResponses([entry(0), entry(2)])).toEqual({
      refused: { interruptId: 'card-0', problem: expect.stringContaining('1 of them has no answer here (the first: number 2)') },
    });
    expect(hitlResponses([entry(0), entry(1), entry(1), entry(2)])).toMatchObject({ refused: { interruptId: 'card-1' } });
  });

  it('given answers to two requests, each gets its own decisions', () => {
    const entry = (langGraphId: string, index: number, payload: unknown) => ({
      interruptId: `${langGraphId}-${index}`,
      langGraphId,
      status: 'resolved',
      payload,
      action: { index, count: 2, name: 'deploy', allowed: ALL },
    });
    expect(
      hitlResponses([
        entry('a', 1, { approved: false }),
        entry('b', 0, { approved: true }),
        entry('a', 0, { approved: true }),
        entry('b', 1, { approved: true }),
      ]),
    ).toEqual({
      responses: new Map([
        ['a', { decisions: [{ type: 'approve' }, { type: 'reject' }] }],
        ['b', { decisions: [{ type: 'approve' }, { type: 'approve' }] }],
      ]),
      leftOpen: [],
    });
  });

  it('given an id whose carried part is not a card’s, it is nobody’s', () => {
    expect(HITL_DECISIONS.map(([type]) => type)).toEqual(ALL);
    const good = langGraphHitlId('lg', { index: 0, count: 1, name: 'deploy', allowed: ['approve'] });
    expect(parseHitlId(good)).toMatchObject({ kind: 'langgraph-hitl' });
    const carry = (value: unknown) => `langgraph-hitl::lg::${Buffer.from(JSON.stringify(value)).toString('base64url')}`;
    for (const bad of [
      { i: 1, n: 1, a: 'x', d: 'a' },
      { i: -1, n: 1, a: 'x', d: 'a' },
      { i: 0, n: 1, a: '', d: 'a' },
      { i: 0.5, n: 1, a: 'x', d: 'a' },
      'x',
    ]) {
      expect(parseHitlId(carry(bad))).toEqual({ kind: 'other' });
    }
  });
});
