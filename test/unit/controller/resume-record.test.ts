// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { toResumeRecord } from '../../../src/controller/resume-record';

describe('resume shapes', () => {
  it('builds the protocol resume record for an answer and for a cancel', () => {
    const answers = { answers: [{ question: 'Q', answer: [{ label: 'a', description: 'A' }] }] };
    expect(toResumeRecord({ id: 'i1', reason: 'aidev:user_question', status: 'submitting', result: answers })).toEqual({
      interruptId: 'i1',
      reason: 'aidev:user_question',
      status: 'resolved',
      payload: answers,
    });
    expect(toResumeRecord({ id: 'i2', reason: 'aidev:tool_approval', status: 'cancelled' })).toEqual({
      interruptId: 'i2',
      reason: 'aidev:tool_approval',
      status: 'cancelled',
      payload: {},
    });
    // A non-object answer still yields an object payload, as BaseResume requires.
    expect(toResumeRecord({ id: 'i3', reason: 'x:y', status: 'resolved', result: 'yes' }).payload).toEqual({ value: 'yes' });
  });
});
