import { Profiler, useState } from 'react';
import { act, render, screen } from '@testing-library/react';
import { useCountdown, type Clock } from '../../../hooks/use-countdown';

/** Renders a countdown and counts React commits of its subtree. */
function renderCountdown(expiresAt: string | undefined, makeClock: () => Clock | undefined) {
  const commits = { count: 0 };
  let rerender: () => void = () => {};
  function Countdown() {
    const [, setTick] = useState(0);
    rerender = () => setTick((n) => n + 1);
    // A new clock function on every render: what an inline `() => Date.now()` (or a minifier
    // that inlines a module-level clock into a default parameter) hands the hook.
    const { remainingMs, expired } = useCountdown(expiresAt, makeClock());
    return <p data-testid="countdown">{expired ? 'expired' : String(remainingMs)}</p>;
  }
  render(
    <Profiler id="countdown" onRender={() => commits.count++}>
      <Countdown />
    </Profiler>,
  );
  return { commits, rerender: () => act(() => rerender()) };
}

describe('useCountdown', () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse('2030-01-01T00:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('given no deadline and a clock that changes identity every render, should settle after mounting', async () => {
    const { commits, rerender } = renderCountdown(undefined, () => () => Date.now());
    await act(async () => vi.advanceTimersByTimeAsync(5_000));
    const settled = commits.count;
    rerender();
    await act(async () => vi.advanceTimersByTimeAsync(5_000));
    // One commit for the re-render asked for, none of its own.
    expect(commits.count).toBe(settled + 1);
    expect(screen.getByTestId('countdown')).toHaveTextContent('undefined');
  });

  it('given a deadline and a fresh clock every render, should commit about once a second, then stop once expired', async () => {
    const { commits } = renderCountdown('2030-01-01T00:00:03Z', () => () => Date.now());
    expect(screen.getByTestId('countdown')).toHaveTextContent('3000');
    await act(async () => vi.advanceTimersByTimeAsync(3_000));
    expect(screen.getByTestId('countdown')).toHaveTextContent('expired');
    const atExpiry = commits.count;
    // Mount, plus one tick a second for three seconds.
    expect(atExpiry).toBeLessThanOrEqual(4);
    await act(async () => vi.advanceTimersByTimeAsync(10_000));
    expect(commits.count).toBe(atExpiry);
  });

  it('given an injected clock, should measure with it', () => {
    const fixed: Clock = () => Date.parse('2030-01-01T00:00:00Z');
    renderCountdown('2030-01-01T00:01:35Z', () => fixed);
    expect(screen.getByTestId('countdown')).toHaveTextContent('95000');
  });
});
