// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noticeShows, waitingTitle } from '../../../src/notice';

describe('waitingTitle', () => {
  it('given a page title, should put the count and label in front of it', () => {
    expect(waitingTitle('Acme', 2, '({count}) Waiting for you')).toBe('(2) Waiting for you · Acme');
  });

  it('given no page title, should be the label alone', () => {
    expect(waitingTitle('', 1, '({count}) Waiting for you')).toBe('(1) Waiting for you');
  });

  it('should always end with the page title, whatever it holds', () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.nat(99), (base, count) => waitingTitle(base, count, '({count})').endsWith(base)));
  });
});

describe('noticeShows', () => {
  it('should show only while something waits, and once shown stay until nothing does', () => {
    fc.assert(
      fc.property(fc.nat(5), fc.boolean(), fc.boolean(), (pending, hidden, shown) => {
        const shows = noticeShows(pending, hidden, shown);
        if (pending === 0) return !shows;
        return shows === (hidden || shown);
      }),
    );
  });
});
