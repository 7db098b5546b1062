import { useMemo, useRef, useState } from 'react';
import type { AnyInterruptRenderer, InterruptRendererProps } from '../../hooks/renderer-props';
import type { AnyInterruptResume, OnInterruptResume } from '../../src/protocol/types';
import type { InterruptStatus } from '../../src/session/status';
import { toolGrantsFor } from '../../hooks/tool-grants';
import { useLocalInterruptState } from '../../hooks/use-local-interrupt-state';
import type { InterruptLocale } from '../../src/i18n/locale';
import { unwrapInterrupt } from '../../src/unwrap';

/** Props of the story / test harness: a raw interrupt plus the knobs the host hook would turn. */
export interface CardHarnessProps {
  /** The card under test. */
  card: AnyInterruptRenderer;
  /** The interrupt in any shape `unwrapInterrupt` accepts. */
  interrupt: unknown;
  status?: InterruptStatus;
  result?: unknown;
  error?: string;
  locale?: InterruptLocale;
  labels?: Readonly<Record<string, string>>;
  /** `'never'` holds the card in `submitting` after an answer. */
  settle?: 'auto' | 'never';
  /** Make the resume fail (the card lands in `error`, Retry succeeds). */
  failResume?: boolean;
  /** Spy: called with every answer the host would send. */
  onResolve?: (payload: unknown) => void;
  /** Spy: called when the card cancels. */
  onCancel?: () => void;
  onInterruptResume?: OnInterruptResume<AnyInterruptResume, unknown>;
  /** Anything else the card takes (`now`, `renderQuestion`, `refreshCooldownMs`). */
  extra?: Record<string, unknown>;
  /** The hook's `allowAlways`: offer "Always allow" for these tools (`true`: every tool). */
  allowAlways?: boolean | readonly string[];
  /** Tools the conversation already always allows. */
  allowedTools?: readonly string[];
  /** Spy: called when the card always allows a tool. */
  onAllowTool?: (tool: string) => void;
}

/**
 * Mimics the host hook around one card: `resolve` flips to `submitting` at once and to `resolved`
 * a moment later (or `error` when `failResume` is set, once). Stories and tests drive cards with it.
 */
export function CardHarness({
  card: Card,
  interrupt,
  status,
  result,
  error,
  locale = 'en',
  labels,
  settle,
  failResume,
  onResolve,
  onCancel,
  onInterruptResume,
  extra,
  allowAlways,
  allowedTools,
  onAllowTool,
}: CardHarnessProps) {
  const [allowed, setAllowed] = useState<readonly string[]>(allowedTools ?? []);
  const toolGrants = useMemo(
    () =>
      toolGrantsFor(allowAlways, allowed, {
        allow: (tool) => {
          onAllowTool?.(tool);
          setAllowed((tools) => [...tools, tool]);
        },
        revoke: (tool) => setAllowed((tools) => tools.filter((t) => t !== tool)),
      }),
    [allowAlways, allowed, onAllowTool],
  );
  const unwrapped = useMemo(() => unwrapInterrupt(interrupt), [interrupt]);
  const failuresLeft = useRef(failResume ? 1 : 0);
  const state = useLocalInterruptState<unknown>({
    initialStatus: status,
    initialResult: result,
    initialError: error,
    settle,
    onResolve: (payload) => {
      onResolve?.(payload);
      if (failuresLeft.current > 0) {
        failuresLeft.current -= 1;
        throw new Error('The agent could not be reached.');
      }
    },
    onCancel,
  });
  const props: InterruptRendererProps<unknown> = { interrupt: unwrapped, locale, labels, onInterruptResume, toolGrants, ...state };
  return <Card {...props} {...extra} />;
}
