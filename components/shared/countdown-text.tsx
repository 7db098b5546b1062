import { formatRemaining, type Countdown } from '../../hooks/use-countdown';
import { formatLabel, type InterruptLabels } from '../../src/i18n/labels';

/** "Expires in m:ss" while a deadline is running; nothing otherwise. */
export function CountdownText({ countdown, labels }: { countdown: Countdown; labels: InterruptLabels }) {
  if (countdown.remainingMs === undefined || countdown.expired) return null;
  // role="timer" is not a live region by default: the ticking is not read out every second.
  return (
    <p className="cki-countdown" role="timer">
      {formatLabel(labels.expiresIn, { time: formatRemaining(countdown.remainingMs) })}
    </p>
  );
}
