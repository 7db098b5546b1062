// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REJECTED_WITHOUT_REASON, reviewResponse } from '../../../src/backends/langgraph/review-response';
import { fromLangGraphReview, isReviewRequest, parseReviewId, type ReviewConfig } from '../../../src/backends/langgraph/review';

const ALL = { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true };
const request = (overrides: Record<string, unknown> = {}) => ({
  action_request: { action: 'send_email', args: { to: 'ops@example.com' } },
  config: ALL,
  description: 'Send it?',
  ...overrides,
});
const problemOf = (value: unknown) => {
  const read = fromLangGraphReview('abc', value);
  return 'problem' in read ? read.problem : undefined;
};

describe('fromLangGraphReview (agent-inbox HumanInterrupt)', () => {
  it('given a review request, the card gets a direct-mode approval of the action, its arguments, description and allowed answers', () => {
    const value = request({ config: { allow_accept: true, allow_edit: false, allow_respond: true, allow_ignore: false } });
    const read = fromLangGraphReview('abc', value, { ns: ['review'] });
    expect(read).toEqual({
      interrupt: {
        id: expect.stringMatching(/^langgraph-review::abc::[A-Za-z0-9_-]+$/),
        reason: 'aidev:tool_approval',
        message: 'Send it?',
        metadata: {
          toolName: 'send_email',
          args: { to: 'ops@example.com' },
          allowApprove: true,
          allowEdit: false,
          allowReject: true,
          allowDismiss: false,
          reasonOnlyOnReject: true,
          langgraph: { ns: ['review'], raw: value },
        },
      },
    });
  });

  it('given a list of one request (the form agent-inbox asks for), reads the request; the raw value stays the list', () => {
    const value = [request()];
    expect(isReviewRequest(value)).toBe(true);
    const read = fromLangGraphReview('abc', value);
    expect(read).toMatchObject({ interrupt: { metadata: { toolName: 'send_email', langgraph: { raw: value } } } });
  });

  it('given no description, the card has no message', () => {
    const noDescription: Record<string, unknown> = request();
    delete noDescription.description;
    expect(fromLangGraphReview('abc', noDescription)).not.toHaveProperty('interrupt.message');
  });

  it('given hostile variants, says what is wrong in a sentence', () => {
    expect(problemOf(request({ config: undefined }))).toBe(
      "The LangGraph review request's config should be an object, but it is missing. Without it the card cannot know which answers the graph takes.",
    );
    expect(problemOf(request({ config: { ...ALL, allow_edit: 'yes' } }))).toBe(
      'The LangGraph review request\'s config.allow_edit should be true or false, but it is the text "yes".',
    );
    expect(problemOf(request({ action_request: { action: 'send_email', args: ['to', 'ops'] } }))).toBe(
      "The LangGraph review request's action_request.args should be an object, but it is a list.",
    );
    expect(problemOf(request({ action_request: { action: 'send_email', args: 'to=ops' } }))).toBe(
      'The LangGraph review request\'s action_request.args should be an object, but it is the text "to=ops".',
    );
    expect(problemOf(request({ action_request: { action: 42, args: {} } }))).toBe(
      "The LangGraph review request's action_request.action should be non-empty text, but it is a number.",
    );
    expect(problemOf(request({ action_request: null }))).toBe(
      "The LangGraph review request's action_request should be an object, but it is null.",
    );
    expect(problemOf([request(), request()])).toBe(
      'The LangGraph review request lists 2 requests; only a list of one can be answered (one HumanResponse goes back).',
    );
    expect(problemOf(request({ config: { allow_accept: false, allow_edit: false, allow_respond: false, allow_ignore: false } }))).toBe(
      "The LangGraph review request's config allows no answer: every allow_ flag is false.",
    );
  });

  it('given any value at all, never throws: an interrupt or a problem sentence', () => {
    const hostile = fc.oneof(
      fc.anything(),
      fc.record({ action_request: fc.anything(), config: fc.anything(), description: fc.anything() }, { requiredKeys: [] }),
      fc.array(fc.record({ action_request: fc.anything(), config: fc.anything() }), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(hostile, (value) => {
        const read = fromLangGraphReview('abc', value);
        if ('problem' in read) expect(read.problem).toMatch(/^The LangGraph review request.*\.$/);
        else expect(read.interrupt.reason).toBe('aidev:tool_approval');
      }),
    );
  });

  it('given values that are not review requests, isReviewRequest says so', () => {
    for (const value of [null, 'Approve?', { reason: 'aidev:tool_approval' }, [], ['x'], 42]) expect(isReviewRequest(value)).toBe(false);
  });

  it('given any action and flags, the id carries them to the resume exactly', () => {
    const flags = fc.record({
      allow_accept: fc.boolean(),
      allow_edit: fc.boolean(),
      allow_respond: fc.boolean(),
      allow_ignore: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), flags, fc.stringMatching(/^[0-9a-f-]{1,40}$/), (action, config, langGraphId) => {
        fc.pre(Object.values(config).some(Boolean));
        const read = fromLangGraphReview(langGraphId, { action_request: { action, args: {} }, config });
        if (!('interrupt' in read)) throw new Error(read.problem);
        expect(parseReviewId(read.interrupt.id)).toEqual({
          kind: 'langgraph-review',
          langGraphId,
          review: {
            action,
            accept: config.allow_accept,
            edit: config.allow_edit,
            respond: config.allow_respond,
            ignore: config.allow_ignore,
          },
        });
      }),
    );
  });

  it('given a review id a browser mangled, nothing is read from it', () => {
    for (const id of ['langgraph-review::', 'langgraph-review::abc', 'langgraph-review::abc::!!', 'langgraph-review::abc::e30']) {
      expect(parseReviewId(id)).toEqual({ kind: 'other' });
    }
  });
});

describe('reviewResponse (the HumanResponse list a review request gets)', () => {
  const review: ReviewConfig = { action: 'send_email', accept: true, edit: true, respond: true, ignore: true };

  it('given each card answer, the graph gets the matching HumanResponse', () => {
    expect(reviewResponse('resolved', { approved: true }, review)).toEqual({ response: [{ type: 'accept', args: null }] });
    expect(reviewResponse('resolved', { approved: true, editedArgs: { to: 'x' } }, review)).toEqual({
      response: [{ type: 'edit', args: { action: 'send_email', args: { to: 'x' } } }],
    });
    expect(reviewResponse('resolved', { approved: false, reason: 'No' }, review)).toEqual({ response: [{ type: 'response', args: 'No' }] });
    expect(reviewResponse('resolved', { approved: false }, review)).toEqual({
      response: [{ type: 'response', args: REJECTED_WITHOUT_REASON }],
    });
    expect(reviewResponse('cancelled', undefined, review)).toEqual({ response: [{ type: 'ignore', args: null }] });
  });

  it('given any answer and any config, the graph gets one allowed answer, or ignore and a problem', () => {
    const config = fc.record({
      action: fc.constant('a'),
      accept: fc.boolean(),
      edit: fc.boolean(),
      respond: fc.boolean(),
      ignore: fc.boolean(),
    });
    const answer = fc.oneof(
      fc.record({
        approved: fc.boolean(),
        editedArgs: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
        reason: fc.option(fc.string(), { nil: undefined }),
      }),
      fc.anything(),
    );
    fc.assert(
      fc.property(config, fc.constantFrom('resolved', 'cancelled'), answer, (reviewConfig, status, payload) => {
        const { response, problem } = reviewResponse(status, payload, reviewConfig);
        expect(response).toHaveLength(1);
        const [{ type }] = response;
        const allowed = {
          accept: reviewConfig.accept,
          edit: reviewConfig.edit,
          response: reviewConfig.respond,
          ignore: reviewConfig.ignore,
        }[type];
        if (!allowed) {
          expect(type).toBe('ignore');
          expect(problem).toMatch(/ignore/);
        } else if (type !== 'ignore') expect(problem).toBeUndefined();
      }),
    );
  });
});
