// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResumeRefusal } from '../../../src/protocol/constants';
import { REQUEST_CHANGED } from '../../../src/session';
import { runErrorMeaning } from '../../../src/session/refusal';

describe('what a run error means for the answers it carried', () => {
  it('given another device answered first, should show the answers that won, as an expected end and not a failed run', () => {
    const answers = [{ interruptId: 'a', status: 'resolved', payload: 'theirs' }, null, { interruptId: 3 }];
    expect(runErrorMeaning({ code: ResumeRefusal.AlreadyAnswered, message: 'Already answered.', answers })).toEqual({
      failure: 'Already answered.',
      final: false,
      expected: true,
      elsewhere: [{ interruptId: 'a', status: 'resolved', payload: 'theirs' }],
    });
  });

  it('given the request changed, should say so with no Retry, and draw again the requests the server says are open now', () => {
    const interrupts = [{ id: 'a2', expiresAt: '2030-01-01T00:00:00Z' }, { name: 'no id' }, 'junk'];
    expect(runErrorMeaning({ code: ResumeRefusal.Changed, message: 'changed', interrupts })).toEqual({
      failure: REQUEST_CHANGED,
      final: true,
      expected: false,
      reopen: [{ id: 'a2', expiresAt: '2030-01-01T00:00:00Z' }],
    });
    expect(runErrorMeaning({ code: ResumeRefusal.Changed, interrupts: [] })).not.toHaveProperty('reopen');
  });

  it.each([ResumeRefusal.NotAnApprover, ResumeRefusal.FourEyes])(
    'given the interrupt is other people’s to answer (%s), should offer no Retry of the same answer',
    (code) => {
      expect(runErrorMeaning({ code, message: 'Waits for on-call.' })).toEqual({
        failure: 'Waits for on-call.',
        final: true,
        expected: false,
      });
    },
  );

  it('given any other error, or any value at all as the event, should fail the answers with a message and leave Retry to them', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (message, code) => {
        fc.pre(!Object.values(ResumeRefusal).includes(code as ResumeRefusal));
        const meaning = runErrorMeaning({ message, code });
        expect(meaning.final).toBe(false);
        expect(meaning.expected).toBe(false);
        expect(typeof meaning.failure).toBe('string');
        expect(meaning.failure.length).toBeGreaterThan(0);
      }),
    );
    expect(runErrorMeaning(undefined)).toEqual({ failure: 'The agent reported an error.', final: false, expected: false });
  });
});
