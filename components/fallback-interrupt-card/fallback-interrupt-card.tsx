import { useId, useState, memo } from 'react';
import type { Clock } from '../../hooks/use-countdown';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { FlatSchemaFields } from '../shared/flat-schema-fields';
import { coerceValues, flatSchemaFields, isFormComplete, type FlatField } from '../shared/flat-schema';
import { formatJson } from '../shared/format-json';
import { readableText } from '../../src/i18n/date-time';
import { CardShell } from '../shared/card-shell';
import { CountdownText } from '../shared/countdown-text';
import { JsonDetails } from '../shared/json-details';
import { useCardBasics } from '../shared/use-card-basics';

export interface FallbackInterruptCardProps extends InterruptRendererProps<unknown> {
  now?: Clock;
}

const hasKeys = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.keys(v).length > 0;
const textOrUndefined = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * The interrupt with every field this card prints as text made text (or left out). The fallback
 * card is where malformed input ends up, from the wire or from storage, so a field of the wrong
 * type (an object where a message belongs) must show as nothing rather than throw.
 */
export function readableInterrupt(interrupt: unknown): FallbackInterruptCardProps['interrupt'] {
  const given = (typeof interrupt === 'object' && interrupt !== null ? interrupt : {}) as Record<string, unknown>;
  const reason = given.reason;
  return {
    ...(given as unknown as FallbackInterruptCardProps['interrupt']),
    id: typeof given.id === 'string' ? given.id : '',
    reason: typeof reason === 'string' ? reason : reason === undefined ? '' : String(typeof reason),
    message: textOrUndefined(given.message),
    problem: textOrUndefined(given.problem),
    expiresAt: textOrUndefined(given.expiresAt),
    metadata: typeof given.metadata === 'object' && given.metadata !== null ? (given.metadata as Record<string, unknown>) : {},
  };
}

/**
 * The card for interrupts no renderer claims (AG-UI: render unknown reasons from `message`,
 * `responseSchema` and `metadata`). A flat JSON-schema `responseSchema` becomes a small form whose
 * values are the resolve payload; otherwise Continue resolves `{}`. Dismiss cancels. When the
 * interrupt could not be read, `problem` says why.
 *
 * Memoized: a transcript can hold many answered cards, and a chat update that leaves their props
 * unchanged should not re-render them. *
 * @example
 * <FallbackInterruptCard {...rendererProps} />
 */
export const FallbackInterruptCard = memo(function FallbackInterruptCard(given: FallbackInterruptCardProps) {
  const props = { ...given, interrupt: readableInterrupt(given.interrupt), error: textOrUndefined(given.error) };
  const { interrupt, now } = props;
  const basics = useCardBasics(props, now);
  const { locale, labels, countdown, phase, submit, dismiss, shownResult } = basics;
  const titleId = useId();
  const fields = flatSchemaFields(interrupt.responseSchema);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const details = [interrupt.metadata, interrupt.payload].find(hasKeys);

  const dismissed = phase === 'cancelled' || phase === 'dismissed';
  const outcome = dismissed ? labels.fallbackDismissed : labels.fallbackSent;

  // The header and what the interrupt says, the same in the interactive and read-only bodies.
  // A function: an answered card builds it only when its details are opened.
  const summary = () => (
    <>
      <div className="cki-card__header">
        <span className="cki-eyebrow">{labels.fallbackEyebrow}</span>
      </div>
      {interrupt.message ? (
        <p className="cki-card__title" id={titleId}>
          {interrupt.message}
        </p>
      ) : null}
      <dl className="cki-fields">
        <div className="cki-fields__row">
          <dt>{labels.fallbackReason}</dt>
          <dd>
            <code>{interrupt.reason}</code>
          </dd>
        </div>
      </dl>
      {interrupt.problem ? (
        <p className="cki-problem" data-testid="fallback-interrupt-problem">
          <strong>{labels.fallbackProblem}: </strong>
          {interrupt.problem}
        </p>
      ) : null}
      {details ? <JsonDetails summary={labels.fallbackDetails} value={details} locale={locale} /> : null}
    </>
  );

  return (
    <CardShell
      card={props}
      basics={basics}
      announcement={phase === 'interactive' ? '' : outcome}
      expired={{ testId: 'fallback-interrupt-card', title: interrupt.message }}
      readOnly={() => ({
        testId: 'fallback-interrupt-card',
        tone: dismissed ? 'neutral' : 'success',
        badge: outcome,
        title: interrupt.message ?? labels.fallbackEyebrow,
        answer: interrupt.problem
          ? `${labels.fallbackProblem}: ${interrupt.problem}`
          : (!dismissed && sentValuesLine(fields, shownResult, locale)) || interrupt.reason,
        details: summary,
        className: 'cki-fallback',
      })}
      interactive={() => {
        const complete = !fields || isFormComplete(fields, values);
        return (
          // The name sits on a group, not the form: a named form is a landmark, and several cards
          // with the same name would be duplicate landmarks.
          <div
            className="cki-card cki-fallback"
            data-testid="fallback-interrupt-card"
            data-state={phase}
            role="group"
            tabIndex={-1}
            aria-labelledby={interrupt.message ? titleId : undefined}
            aria-label={interrupt.message ? undefined : labels.fallbackEyebrow}
          >
            <form
              className="cki-fallback__form"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                if (complete) submit(fields ? coerceValues(fields, values) : {});
              }}
            >
              {summary()}
              {fields ? (
                <FlatSchemaFields
                  fields={fields}
                  values={values}
                  labels={labels}
                  onChange={(name, value) => setValues((all) => ({ ...all, [name]: value }))}
                />
              ) : null}
              <div className="cki-actions">
                <button type="submit" className="cki-button cki-button--primary" data-testid="fallback-continue" disabled={!complete}>
                  {labels.fallbackContinue}
                </button>
                <button type="button" className="cki-button cki-button--ghost" data-testid="fallback-dismiss" onClick={dismiss}>
                  {labels.fallbackDismiss}
                </button>
              </div>
              <CountdownText countdown={countdown} labels={labels} />
            </form>
          </div>
        );
      }}
    />
  );
});

/** The values the form sent, `Title: value` each, for the answered summary; '' when none. */
function sentValuesLine(fields: FlatField[] | undefined, result: unknown, locale: string): string {
  if (!hasKeys(result)) return '';
  const title = (name: string) => fields?.find((field) => field.name === name)?.title ?? name;
  return Object.entries(result)
    .map(([name, value]) => `${title(name)}: ${typeof value === 'string' ? readableText(value, locale) : formatJson(value)}`)
    .join(', ');
}

/**
 * What a card shows for a payload it cannot read: the fallback card with the problem, the
 * interrupt's own problem first (it says more), else the card's `problem` sentence.
 */
export function malformedPayloadCard<T>(props: InterruptRendererProps<T>, problem: string) {
  // The fallback only shows the problem and offers Dismiss: it never hands a `T` to `resolve`.
  return (
    <FallbackInterruptCard
      {...(props as unknown as InterruptRendererProps<unknown>)}
      interrupt={{ ...props.interrupt, problem: props.interrupt.problem ?? problem }}
    />
  );
}
