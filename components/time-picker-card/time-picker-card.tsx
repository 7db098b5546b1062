import { useId, useMemo, memo } from 'react';
import type { Clock } from '../../hooks/use-countdown';
import type { InterruptRendererProps } from '../../hooks/renderer-props';
import { formatLabel, type InterruptLabels } from '../../src/i18n/labels';
import { readableText } from '../../src/i18n/date-time';
import { generateCandidateSlots } from '../../src/time-slots/index';
import { isTimePickerPayload, type TimePickerPayload, type TimeSlot } from '../../src/unwrap/index';
import { isRecord } from '../../src/wire/guards';
import { malformedPayloadCard } from '../fallback-interrupt-card/fallback-interrupt-card';
import { CardShell } from '../shared/card-shell';
import { CountdownText } from '../shared/countdown-text';
import { useCardBasics } from '../shared/use-card-basics';

/** What the card resolves with; the `schedule_meeting` tool's resume schema. */
export type TimePickerResult = { chosen_time: string; chosen_label: string } | { cancelled: true };

export interface TimePickerCardProps extends InterruptRendererProps<TimePickerResult> {
  /** Clock for the fallback slots and the countdown. Defaults to `Date.now`. */
  now?: Clock;
}

/** The payload wherever the interrupt shape put it (Mastra suspend payload or bare metadata). */
function readPayload(props: TimePickerCardProps): TimePickerPayload {
  const { payload, metadata } = props.interrupt;
  if (isTimePickerPayload(payload)) return payload;
  if (isTimePickerPayload(metadata)) return metadata;
  return {};
}

/**
 * The `schedule_meeting` picker: a 2x2 grid of slots and "None of these work". A pick resolves
 * `{chosen_time, chosen_label}`; "None of these work" resolves `{cancelled: true}` (a resolve, not
 * an AG-UI cancel, because the Mastra bridge ends the run silently on cancel). Without slots in
 * the payload it offers Tomorrow 10:00 AM, Tomorrow 2:00 PM, Monday 9:00 AM and Monday 3:30 PM.
 *
 * Memoized: a transcript can hold many answered cards, and a chat update that leaves their props
 * unchanged should not re-render them. *
 * @example
 * <TimePickerCard interrupt={unwrapInterrupt(raw)} status="pending" readOnly={false} locale="en"
 *   resolve={(r) => send(r)} cancel={() => {}} retry={() => {}} />
 */
export const TimePickerCard = memo(function TimePickerCard(props: TimePickerCardProps) {
  const { payload } = props.interrupt;
  // Slots that are there but malformed are a broken payload, not "no slots": say so.
  const brokenSlots = isRecord(payload) && 'slots' in payload && !isTimePickerPayload(payload);
  if (brokenSlots) {
    return malformedPayloadCard(props, 'The time picker payload is malformed: slots must be a list of {label, iso}.');
  }
  return <TimePickerBody {...props} />;
});

function TimePickerBody(props: TimePickerCardProps) {
  const { now } = props;
  const basics = useCardBasics(props, now);
  const { locale, labels, countdown, phase, shownResult, submit } = basics;
  const titleId = useId();
  const payload = readPayload(props);
  const topic = payload.topic || labels.timePickerDefaultTopic;
  const givenSlots = payload.slots;
  const slots: TimeSlot[] = useMemo(
    () => (givenSlots && givenSlots.length > 0 ? givenSlots : generateCandidateSlots({ now: now?.(), labels })),
    // `now` is read once per payload: the offered slots must not shift while the card is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [givenSlots, labels],
  );

  // Read loosely: a stored result may come from another version of the card.
  const answer = shownResult as { cancelled?: unknown; chosen_label?: string; chosen_time?: string } | undefined;
  const dismissed = phase === 'dismissed';
  const cancelled = phase === 'cancelled' || dismissed || (phase === 'answered' && answer?.cancelled === true);
  // The slot's own label; for a stored answer without one, the offered slot at that time, else
  // the time in the reader's locale (never the ISO text sent to the agent).
  const chosenTime = typeof answer?.chosen_time === 'string' ? answer.chosen_time : undefined;
  const pickedLabel = readableText(
    (typeof answer?.chosen_label === 'string' && answer.chosen_label.trim() ? answer.chosen_label : undefined) ??
      slots.find((slot) => chosenTime !== undefined && slot.iso === chosenTime)?.label ??
      chosenTime ??
      '',
    locale,
  );

  let announcement = '';
  if (cancelled) announcement = `${dismissed ? labels.dismissed : labels.timePickerCancelled}. ${labels.timePickerNoTime}`;
  else if (phase === 'answered') announcement = `${labels.timePickerBooked}: ${pickedLabel}`;

  return (
    <CardShell
      card={props}
      basics={basics}
      announcement={announcement}
      expired={{ testId: 'time-picker-expired', title: topic }}
      // Answered: "None of these work" (cancelled) or the picked slot.
      readOnly={() => ({
        testId: cancelled ? 'time-picker-cancelled' : 'time-picker-picked',
        tone: cancelled ? 'neutral' : 'success',
        badge: dismissed ? labels.dismissed : cancelled ? labels.timePickerCancelled : labels.timePickerBooked,
        title: topic,
        answer: cancelled ? labels.timePickerNoTime : pickedLabel,
        details:
          payload.attendee || (!cancelled && chosenTime)
            ? () => (
                <TimePickerDetails
                  attendee={payload.attendee}
                  time={cancelled || !chosenTime ? undefined : readableText(chosenTime, locale)}
                  labels={labels}
                />
              )
            : undefined,
        className: 'cki-time-picker',
      })}
      interactive={() => (
        <div className="cki-card cki-time-picker" data-testid="time-picker-card" role="group" tabIndex={-1} aria-labelledby={titleId}>
          <div className="cki-card__header">
            <span className="cki-eyebrow">{labels.timePickerEyebrow}</span>
            {payload.attendee ? (
              <span className="cki-card__meta">{formatLabel(labels.timePickerWith, { attendee: payload.attendee })}</span>
            ) : null}
          </div>
          <p className="cki-card__title" id={titleId}>
            {topic}
          </p>
          <p className="cki-card__text">{labels.timePickerPrompt}</p>
          <div className="cki-slot-grid" role="group" aria-label={labels.timePickerSlots}>
            {slots.map((slot, index) => (
              <button
                key={`${slot.iso}-${index}`}
                type="button"
                className="cki-button cki-button--slot"
                data-testid="time-picker-slot"
                onClick={() => submit({ chosen_time: slot.iso, chosen_label: slot.label })}
              >
                {slot.label}
              </button>
            ))}
          </div>
          <button
            type="button"
            className="cki-button cki-button--ghost cki-time-picker__none"
            data-testid="time-picker-cancel"
            onClick={() => submit({ cancelled: true })}
          >
            {labels.timePickerNone}
          </button>
          <CountdownText countdown={countdown} labels={labels} />
        </div>
      )}
    />
  );
}

/** The read-only card's details: who the meeting is with and the picked time, as a date in the reader's locale. */
function TimePickerDetails({ attendee, time, labels }: { attendee?: string; time?: string; labels: InterruptLabels }) {
  return (
    <p className="cki-card__note">
      {[attendee ? formatLabel(labels.timePickerWith, { attendee }) : '', time ?? ''].filter(Boolean).join(' · ')}
    </p>
  );
}
