// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../src/error-message';

/** Something thrown that cannot even be turned into text. */
const hostile = {
  toString() {
    throw new Error('no text for you');
  },
};

describe('errorMessage', () => {
  it('reads an Error, text and other values', () => {
    expect(errorMessage(new Error('offline'))).toBe('offline');
    expect(errorMessage('timeout')).toBe('timeout');
    expect(errorMessage(42)).toBe('42');
  });

  it('never throws on a value that cannot become text', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(errorMessage(hostile)).toBe('an unreadable error');
    expect(errorMessage(proxy)).toBe('an unreadable error');
  });

  it('given a fallback, should use it for anything that carries no message of its own, never "[object Object]"', () => {
    expect(errorMessage(new Error('offline'), 'The run failed.')).toBe('offline');
    expect(errorMessage('timeout', 'The run failed.')).toBe('timeout');
    for (const silent of [new Error(''), '', undefined, null, { message: 'not an Error' }, 42, hostile]) {
      expect(errorMessage(silent, 'The run failed.')).toBe('The run failed.');
    }
  });

  it('given an Error without a message, should read as its name rather than nothing', () => {
    expect(errorMessage(new TypeError(''))).toBe('TypeError');
  });

  it('given an AggregateError (a connection tried on several addresses), should read as its errors joined', () => {
    const refused = new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')], '');
    expect(errorMessage(refused)).toBe('connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
  });
});
