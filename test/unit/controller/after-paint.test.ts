import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPaint } from '../../../src/controller/after-paint';

afterEach(() => vi.useRealTimers());

describe('afterPaint', () => {
  it('does not run within the current frame, even with no delay', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const callback = vi.fn();
    afterPaint(callback, 0);
    vi.advanceTimersToNextFrame();
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('adds the delay after the frames', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const callback = vi.fn();
    afterPaint(callback, 500);
    vi.advanceTimersByTime(450);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('can be cancelled before it runs', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const callback = vi.fn();
    const cancel = afterPaint(callback, 0);
    vi.advanceTimersToNextFrame();
    cancel();
    vi.advanceTimersByTime(1000);
    expect(callback).not.toHaveBeenCalled();
  });
});
