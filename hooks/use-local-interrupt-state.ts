import { useCallback, useInsertionEffect, useRef, useState } from 'react';
import type { InterruptStatus } from '../src/session/status';
import { errorMessage } from '../src/error-message';

export interface LocalInterruptStateOptions<T> {
  initialStatus?: InterruptStatus;
  initialResult?: T;
  initialError?: string;
  /**
   * Called with the answer. Its promise decides the outcome: fulfilled -> `resolved`,
   * rejected -> `error` (Retry calls it again).
   */
  onResolve?: (payload: T) => unknown;
  onCancel?: () => void;
  /** `'never'` keeps a resolved card in `submitting` (for showing that state). Default `'auto'`. */
  settle?: 'auto' | 'never';
}

export interface LocalInterruptState<T> {
  status: InterruptStatus;
  result: T | undefined;
  error: string | undefined;
  readOnly: boolean;
  resolve: (payload: T) => void;
  cancel: () => void;
  retry: () => void;
}

/**
 * The renderer-prop state machine without CopilotKit: `pending` -> `submitting` -> `resolved`
 * (or `error`, then `retry`), `cancelled` on cancel. It drives cards outside a live agent run:
 * stored transcripts (InterruptMessageRender), Storybook, tests.
 *
 * @example
 * const state = useLocalInterruptState<TimePickerResult>({ onResolve: (p) => send(p) });
 * return <TimePickerCard interrupt={interrupt} locale="en" {...state} />;
 */
export function useLocalInterruptState<T>(options: LocalInterruptStateOptions<T> = {}): LocalInterruptState<T> {
  const [status, setStatus] = useState<InterruptStatus>(options.initialStatus ?? 'pending');
  const [result, setResult] = useState<T | undefined>(options.initialResult);
  const [error, setError] = useState<string | undefined>(options.initialError);
  // Latest options without re-creating the callbacks each render. Stored in an effect (refs are not
  // written during render); the insertion effect runs before any handler can read it, and is
  // silent in server rendering, where this hook runs for stored transcripts.
  const latest = useRef(options);
  useInsertionEffect(() => {
    latest.current = options;
  });
  // Guards against a second resolve before React re-renders with the new status.
  const busy = useRef(false);

  const send = useCallback((payload: T) => {
    busy.current = true;
    setStatus('submitting');
    setResult(payload);
    setError(undefined);
    if (latest.current.settle === 'never') return;
    Promise.resolve()
      .then(() => latest.current.onResolve?.(payload))
      .then(
        () => setStatus('resolved'),
        (reason: unknown) => {
          busy.current = false;
          setError(errorMessage(reason));
          setStatus('error');
        },
      );
  }, []);

  const resolve = useCallback(
    (payload: T) => {
      if (busy.current || status !== 'pending') return;
      send(payload);
    },
    [send, status],
  );
  const cancel = useCallback(() => {
    if (busy.current || status !== 'pending') return;
    busy.current = true;
    setStatus('cancelled');
    latest.current.onCancel?.();
  }, [status]);
  const retry = useCallback(() => {
    if (status !== 'error' || result === undefined) return;
    send(result);
  }, [send, status, result]);

  return { status, result, error, readOnly: status !== 'pending', resolve, cancel, retry };
}
