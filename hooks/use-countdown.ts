import { useLayoutEffect, useMemo, useRef, useState } from 'react';

/** A clock: epoch milliseconds. Injectable so stories and tests never depend on the wall clock. */
export type Clock = () => number;

const systemClock: Clock = () => Date.now();

export interface Countdown {
  /** Milliseconds left, or `undefined` when there is no (valid) deadline. */
  remainingMs: number | undefined;
  /** True once the deadline has passed. */
  expired: boolean;
}

/**
 * Time left until an ISO `expiresAt`, re-measured every second until it reaches zero.
 * An absent or unparseable `expiresAt` means "never expires".
 *
 * The state is one number, so a re-measure that finds nothing new renders nothing; and the clock
 * is read through a ref, so a clock that is a new function on every render (an inline
 * `() => Date.now()`, which is what Next's production minifier makes of `systemClock` as a default
 * parameter) neither restarts the timer nor sets state again. With the clock among the effect's
 * dependencies, that pair made a card re-render on every commit, forever.
 *
 * The time left is unknown (`undefined`, not expired) until the card has mounted, and measured in
 * a layout effect, before the first paint. A render that read the clock would differ between a
 * server render and its hydration (a second later the text differs; past the deadline the whole
 * card does), and React would throw the server's HTML away.
 *
 * @example
 * const { remainingMs, expired } = useCountdown(interrupt.expiresAt);
 */
export function useCountdown(expiresAt: string | undefined, now?: Clock): Countdown {
  // No `expiresAt` parses as NaN too.
  const parsed = Date.parse(expiresAt as string);
  const deadline = Number.isFinite(parsed) ? parsed : undefined;
  const clock = useRef(now ?? systemClock);
  const [remainingMs, setRemainingMs] = useState<number | undefined>(undefined);

  // A layout effect, declared first: the measuring effect below reads the clock of this render.
  useLayoutEffect(() => {
    clock.current = now ?? systemClock;
  });

  useLayoutEffect(() => {
    // Without a deadline there is nothing to measure (and no state to set).
    if (deadline === undefined) return undefined;
    const measure = () => {
      const left = Math.max(0, deadline - clock.current());
      setRemainingMs(left);
      return left;
    };
    // One tick a second is enough for an m:ss display; there is none once expired.
    if (measure() === 0) return undefined;
    const timer = setInterval(() => {
      if (measure() === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  const left = deadline === undefined ? undefined : remainingMs;
  return useMemo(() => ({ remainingMs: left, expired: left === 0 }), [left]);
}

/**
 * `m:ss` below an hour, `h:mm:ss` below a day, `Nd Nh` beyond.
 *
 * @example
 * formatRemaining(95_000); // '1:35'
 */
export function formatRemaining(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}:${pad(minutes)}:${pad(seconds)}`;
  return `${minutes}:${pad(seconds)}`;
}
