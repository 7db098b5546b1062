import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useCountdown, type Clock } from '../../hooks/use-countdown';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import type { InterruptStatus } from '../../src/session/status';
import { resolveLanguage } from '../../src/i18n/labels';
import { requestFocusAfterAnswer } from './focus-after-answer';

/**
 * Which body a card shows: a view of its `InterruptStatus` (plus the click not yet in the props),
 * not a lifecycle of its own. `pending` draws the form, `submitting`, `resolved` and `error` the
 * read-only answer; the closing statuses keep their names.
 */
export type CardPhase = 'interactive' | 'answered' | Extract<InterruptStatus, 'cancelled' | 'dismissed' | 'expired'>;

/**
 * What every card derives from its renderer props: labels, countdown, phase, and a one-shot
 * `submit`/`dismiss`. The props stay the source of truth; the local copy of the answer only
 * bridges the moment between the click and the host's re-render, so the first click turns the
 * card read-only at once and a second click is ignored even if the host is slow.
 */
export function useCardBasics<T>(props: InterruptRendererProps<T>, now?: Clock) {
  const { status, result, error, locale, labels: overrides, interrupt, resolve, cancel } = props;
  const { locale: spoken, labels } = useMemo(() => resolveLanguage(locale, overrides), [locale, overrides]);
  const countdown = useCountdown(status === 'pending' ? interrupt.expiresAt : undefined, now);
  const [local, setLocal] = useState<{ kind: 'answer'; payload: T } | { kind: 'cancel' } | undefined>();
  const locked = useRef(false);

  // A host that puts the card back to `pending` (a fresh attempt) makes it interactive again.
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current !== 'pending' && status === 'pending') {
      locked.current = false;
      setLocal(undefined);
    }
    previous.current = status;
  }, [status]);

  const expired = status === 'expired' || (status === 'pending' && !local && countdown.expired);
  let phase: CardPhase;
  if (expired) phase = 'expired';
  else if (status === 'dismissed') phase = 'dismissed';
  else if (status === 'cancelled' || (status === 'pending' && local?.kind === 'cancel')) phase = 'cancelled';
  else if (status === 'pending' && !local) phase = 'interactive';
  else phase = 'answered';

  const submit = useCallback(
    (payload: T) => {
      if (locked.current) return;
      locked.current = true;
      requestFocusAfterAnswer(interrupt.id);
      setLocal({ kind: 'answer', payload });
      resolve(payload);
    },
    [resolve, interrupt.id],
  );
  const dismiss = useCallback(() => {
    if (locked.current) return;
    locked.current = true;
    requestFocusAfterAnswer(interrupt.id);
    setLocal({ kind: 'cancel' });
    cancel();
  }, [cancel, interrupt.id]);

  /** The card's state in words for its live region; in `error`, what went wrong is said too. */
  const announce = (text: string) => (status === 'error' ? [text, labels.errorTitle, error].filter(Boolean).join(' ') : text);

  return {
    announce,
    /** The locale the texts are in: the given one, or English when its labels are missing. */
    locale: spoken,
    labels,
    countdown,
    phase,
    submitting: status === 'submitting' || (status === 'pending' && local?.kind === 'answer'),
    /** The answer to show read-only: the host's `result`, else the one just clicked. */
    shownResult: result ?? (local?.kind === 'answer' ? local.payload : undefined),
    submit,
    dismiss,
  };
}

/** What {@link useCardBasics} returns: the card's shell takes it whole. */
export type CardBasics<T> = ReturnType<typeof useCardBasics<T>>;
