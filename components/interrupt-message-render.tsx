import { useEffect, useMemo, type ReactElement } from 'react';
import type { AnyInterruptRenderer } from '../hooks/renderer-props';
import type { AnyInterruptResume, OnInterruptResume } from '../src/protocol/types';
import { useLocalInterruptState } from '../hooks/use-local-interrupt-state';
import type { InterruptLocale } from '../src/i18n/locale';
import { InterruptReason, type InterruptMessage, type InterruptResult } from '../src/protocol/index';
import { createRendererRegistry, type RendererRegistry } from '../src/registry/index';
import { toProtocolInterrupt, unwrapInterrupt } from '../src/unwrap/index';
import { cardsInUse, defaultFallback, defaultRenderers, preloadCards } from './default-renderers';
import { RenderedInterrupt } from './host/rendered-interrupt';

export interface InterruptMessageRenderProps {
  /** A stored chat-x message of role `interrupt`. */
  message: InterruptMessage;
  locale?: InterruptLocale;
  labels?: Readonly<Record<string, string>>;
  /** Merged over the built-in cards, keyed like `useInterruptRenderers`' renderers. */
  renderers?: Readonly<Record<string, AnyInterruptRenderer | undefined>>;
  fallback?: AnyInterruptRenderer;
  /** Receives answers as resume records `{interruptId, reason, status, payload}`, and card operations. */
  onInterruptResume?: OnInterruptResume<AnyInterruptResume, unknown>;
}

type Registry = RendererRegistry<AnyInterruptRenderer>;

/** One open interrupt of a stored message, with its own pending -> resolved life. */
function StoredInterrupt({
  raw,
  registry,
  props,
  echo,
}: {
  raw: unknown;
  registry: Registry;
  props: InterruptMessageRenderProps;
  echo?: InterruptResult;
}) {
  const interrupt = useMemo(() => unwrapInterrupt(raw), [raw]);
  const send = (status: 'resolved' | 'cancelled', payload: unknown) =>
    props.onInterruptResume?.(
      {
        interruptId: interrupt.id,
        reason: interrupt.reason as InterruptReason,
        status,
        payload: (payload ?? {}) as Record<string, unknown>,
      },
      toProtocolInterrupt(interrupt),
    );
  const state = useLocalInterruptState<unknown>({
    initialStatus: echo ? (echo.status === 'cancelled' ? 'cancelled' : 'resolved') : 'pending',
    initialResult: echo?.payload,
    onResolve: (payload) => send('resolved', payload),
    onCancel: () => void send('cancelled', {}),
  });
  return (
    <RenderedInterrupt
      registry={registry}
      props={{
        interrupt,
        locale: props.locale ?? 'en',
        labels: props.labels,
        onInterruptResume: props.onInterruptResume,
        ...state,
      }}
    />
  );
}

/** The interrupt a stored result answered, rebuilt so its card can render the read-only echo. */
function echoInterrupt(result: InterruptResult): Record<string, unknown> {
  const base = { id: result.interruptId, reason: result.reason, toolCallId: '' };
  if (result.reason === InterruptReason.UserQuestion) {
    // Stored transcripts come from a backend: skip entries that are not answer objects rather than crash.
    const answers = Array.isArray(result.payload?.answers) ? result.payload.answers.filter((a) => a !== null && typeof a === 'object') : [];
    const questions = answers.map((a) => ({ header: '', question: a.question, multiSelect: a.multiSelect, options: a.answer }));
    return { ...base, metadata: { questions } };
  }
  return { ...base, metadata: result.payload?.metadata ?? {} };
}

/**
 * Renders a stored chat-x `InterruptMessage` (transcripts restored from a backend):
 * `outcome.type: 'interrupt'` -> the interactive cards; `'success'` -> the read-only echo chosen by
 * `content.result.reason` (the approval ticket or the answered questions).
 *
 * @example
 * {messages.map((m) => m.role === 'interrupt'
 *   ? <InterruptMessageRender key={m.id} message={m} onInterruptResume={resumeAgent} />
 *   : <ChatBubble key={m.id} message={m} />)}
 */
export function InterruptMessageRender(props: InterruptMessageRenderProps) {
  const { message, renderers, fallback } = props;
  // Like the hook: the cards are fetched now, and one that failed before is fetched again.
  const inUse = cardsInUse(renderers, fallback);
  useEffect(() => preloadCards(inUse), [inUse]);
  const registry = useMemo(
    () => createRendererRegistry<AnyInterruptRenderer>({ ...defaultRenderers, ...renderers }, fallback ?? defaultFallback),
    [renderers, fallback],
  );
  const content = message.content ?? {};
  const outcome = content.outcome;
  const result = content.result;
  let cards: ReactElement[] = [];
  if (outcome?.type === 'interrupt' && Array.isArray(outcome.interrupts)) {
    cards = outcome.interrupts.map((raw, i) => (
      <StoredInterrupt
        key={`${raw?.id ?? i}`}
        raw={raw}
        registry={registry}
        props={props}
        echo={result && result.interruptId === raw?.id ? result : undefined}
      />
    ));
  } else if (result) {
    cards = [<StoredInterrupt key={result.interruptId} raw={echoInterrupt(result)} registry={registry} props={props} echo={result} />];
  }
  return (
    <div className="cki-message" data-testid="interrupt-message" data-outcome={outcome?.type ?? 'none'}>
      {content.message ? <p className="cki-message__text">{content.message}</p> : null}
      {cards}
    </div>
  );
}
