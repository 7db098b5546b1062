import { InterruptReason } from '../protocol/constants';
import type { AIDevToolApprovalInterruptPayloadMetaData, UserQuestionItem } from '../protocol/types';
import { isOptionalString, isRecord } from '../wire/guards';
import type { UnwrappedInterrupt } from './types';

type Ticket = AIDevToolApprovalInterruptPayloadMetaData['ticket'];

/** A time slot the TimePickerCard offers. */
export interface TimeSlot {
  label: string;
  iso: string;
}

/** What a `schedule_meeting` tool suspends with. */
export interface TimePickerPayload {
  topic?: string;
  attendee?: string;
  slots?: TimeSlot[];
}

/** True when `value` is absent, or a list whose every item passes `isItem`. */
const isOptionalList = (value: unknown, isItem: (item: unknown) => boolean) =>
  value === undefined || (Array.isArray(value) && value.every(isItem));

/** True for a well-formed approval ticket (`metadata.ticket`). */
export function isApprovalTicket(value: unknown): value is Ticket {
  return (
    isRecord(value) &&
    typeof value.title === 'string' &&
    typeof value.sn === 'string' &&
    typeof value.status === 'string' &&
    isOptionalString(value.submit_time) &&
    isOptionalString(value.url) &&
    isOptionalList(value.approvers, (a) => typeof a === 'string')
  );
}

/**
 * True when an `aidev:tool_approval` interrupt has what ToolApprovalCard needs: either a
 * well-formed ticket, or no ticket at all (direct mode: the user is the approver).
 */
export function isToolApprovalInterrupt(
  interrupt: UnwrappedInterrupt,
): interrupt is UnwrappedInterrupt<{ ticket?: Ticket } & Record<string, unknown>> {
  if (interrupt.reason !== InterruptReason.AIDevToolApproval) return false;
  const { ticket } = interrupt.metadata;
  return ticket === undefined || isApprovalTicket(ticket);
}

function isQuestion(value: unknown): value is UserQuestionItem {
  return (
    isRecord(value) &&
    typeof value.question === 'string' &&
    isOptionalString(value.header) &&
    (value.multiSelect === undefined || typeof value.multiSelect === 'boolean') &&
    isOptionalList(value.options, (o) => isRecord(o) && typeof o.label === 'string' && isOptionalString(o.description))
  );
}

/** True when an `aidev:user_question` interrupt has at least one well-formed question. */
export function isUserQuestionInterrupt(
  interrupt: UnwrappedInterrupt,
): interrupt is UnwrappedInterrupt<{ questions: UserQuestionItem[] } & Record<string, unknown>> {
  if (interrupt.reason !== InterruptReason.UserQuestion) return false;
  const { questions } = interrupt.metadata;
  return Array.isArray(questions) && questions.length > 0 && questions.every(isQuestion);
}

/** True when a payload is what TimePickerCard reads: `{topic?, attendee?, slots?: [{label, iso}]}`. */
export function isTimePickerPayload(payload: unknown): payload is TimePickerPayload {
  return (
    isRecord(payload) &&
    isOptionalString(payload.topic) &&
    isOptionalString(payload.attendee) &&
    isOptionalList(payload.slots, (s) => isRecord(s) && typeof s.label === 'string' && typeof s.iso === 'string')
  );
}
