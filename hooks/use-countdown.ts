import { useEffect, useState } from 'react';

/** A clock: epoch milliseconds. Injectable so stories and tests never depend on the wall clock. */
export type Clock = () => number;

const systemClock: Clock = () => Date.now();

export interface Countdown {
  /** Milliseconds left, or `undefined` when there is no (valid) deadline. */
  remainingMs: number | undefined;
  /** True once the deadline has passed. */
  expired: boolean;
}

function measure(deadline: number | undefined, now: Clock): Countdown {
  if (deadline === undefined) return { remainingMs: undefined, expired: false };
  const remainingMs = Math.max(0, deadline - now());
  return { remainingMs, expired: remainingMs === 0 };
}

/**
 * Time left until an ISO `expiresAt`, re-measured every second until it reaches zero.
 * An absent or unparseable `expiresAt` means "never expires".
 *
 * @example
 * const { remainingMs, expired } = useCountdown(interrupt.expiresAt);
 */
export function useCountdown(expiresAt: string | undefined, now: Clock = systemClock): Countdown {
  const parsed = expiresAt === undefined ? NaN : Date.parse(expiresAt);
  const deadline = Number.isFinite(parsed) ? parsed : undefined;
  const [state, setState] = useState(() => measure(deadline, now));

  useEffect(() => {
    const update = () => setState(measure(deadline, now));
    update();
    if (deadline === undefined) return undefined;
    // One tick a second is enough for an m:ss display; the interval stops once expired.
    const timer = setInterval(() => {
      const next = measure(deadline, now);
      setState(next);
      if (next.expired) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline, now]);

  return state;
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
