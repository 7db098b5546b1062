import { APPROVAL_STATUS_MAP_EN } from '../protocol/constants';
import { statusLabels } from './status-labels';
import type { InterruptLocale } from './locale';
import { LOG } from '../log';

/**
 * Every user-visible text of the built-in cards. `{name}` placeholders are filled by
 * {@link formatLabel}. Override any key through the `labels` option.
 */
export interface InterruptLabels {
  // Shared
  expired: string;
  expiredText: string;
  expiresIn: string;
  sending: string;
  errorTitle: string;
  retry: string;
  cancelledBadge: string;
  /** The disclosure button of a read-only card: shows or hides its full details. */
  details: string;
  /**
   * Read by screen readers in the busy placeholder of a card whose code is still loading. Added
   * after the other labels, so optional: an app's own table written before it stays whole (its
   * cards keep their language), and this one text is English until the table has it.
   */
  loading?: string;
  /** Shown on an open card when the user sent a chat message the agent refused while it waits for the card. */
  answerFirst: string;
  /** Shown on a card closed because the user sent a chat message instead (the agent got `cancelled`). */
  dismissed: string;
  /**
   * The tab title's prefix while cards wait in a hidden tab (`{count}`: how many). Optional like
   * `loading`: a table written before it stays whole, and this one text is English until it has it.
   */
  waitingTitle?: string;
  /**
   * Above a card another device answered first: the answer shown is the one that counts. Not shown
   * when the card names someone else who answered (`answeredByOther` says it). Optional like `loading`.
   */
  answeredElsewhere?: string;
  /**
   * Above a card drawn again because its request (tool or arguments) changed after the user
   * answered it; the card shows the request as it is now. Optional like `loading`.
   */
  requestChanged?: string;
  /** Above a set of two or more approvals that wait (`{count}`); added later, so optional like `loading`. */
  batchTitle?: string;
  /**
   * On an open card the viewer may read but not answer (the runner gave it to others): `{who}` is
   * who it waits for. This and the next four were added later, so optional like `loading`.
   */
  waitingFor?: string;
  /** The same, when the runner names no one in particular (four eyes: anyone but the viewer). */
  waitingForSomeoneElse?: string;
  /** On an open card whose approvers name no one: no person can answer it. */
  waitingForNoOne?: string;
  /** A role among those `waitingFor` names (`{role}`). */
  approverRole?: string;
  /** Under a card someone else answered: `{outcome}` is its badge ("Approved"), `{name}` who, `{time}` when. */
  answeredByOther?: string;
  /**
   * On an open card given to others, after the viewer sent a chat message: the agent takes no
   * message while it waits for that card, and this viewer may not dismiss it. Optional like `loading`.
   */
  chatHeldForOthers?: string;
  /**
   * Above a card the viewer answered while another card of its set waits for someone else (`{who}`):
   * the agent takes the set's answers together, so this one is not sent yet. Optional like `loading`.
   */
  answerHeldForOthers?: string;
  /** `{who}` of `answerHeldForOthers` when the other card names no one in particular. Optional like `loading`. */
  someoneElse?: string;
  /** Answers every waiting approval of the set with an approval (`{count}`). */
  batchApproveAll?: string;
  /** Answers every waiting approval of the set with a rejection (`{count}`). */
  batchRejectAll?: string;
  /** The one reason "Reject all" sends with each rejection. */
  batchRejectReason?: string;
  /** Said (and focused) where the batch buttons were, after "Approve all" (`{count}`). */
  batchApproved?: string;
  /** Said (and focused) where the batch buttons were, after "Reject all" (`{count}`). */
  batchRejected?: string;
  // TimePickerCard
  timePickerEyebrow: string;
  timePickerWith: string;
  timePickerDefaultTopic: string;
  timePickerPrompt: string;
  timePickerNone: string;
  timePickerBooked: string;
  timePickerCancelled: string;
  timePickerNoTime: string;
  timePickerSlots: string;
  /** The candidate slots offered when the tool sends none: `{time}` is `slotAm` or `slotPm` filled. */
  slotTomorrow: string;
  slotMonday: string;
  /** A morning / afternoon clock time: `{h}` is 1–12, `{mm}` two digits. */
  slotAm: string;
  slotPm: string;
  // ToolApprovalCard
  approvalEyebrow: string;
  approvalSn: string;
  approvalSubmitTime: string;
  approvalApprovers: string;
  approvalViewTicket: string;
  approvalCancel: string;
  approvalCancelling: string;
  approvalRefresh: string;
  approvalRefreshing: string;
  approvalRefreshCooldown: string;
  approvalTerminal: string;
  approvalOperationFailed: string;
  approvalTool: string;
  approvalArguments: string;
  approvalReason: string;
  approvalRejectReason: string;
  approvalApprove: string;
  approvalReject: string;
  approvalApproved: string;
  approvalRejected: string;
  approvalStatusChanged: string;
  approvalEdit: string;
  approvalApproveEdited: string;
  approvalBack: string;
  approvalDismiss: string;
  approvalArgumentsJson: string;
  approvalArgsInvalid: string;
  approvalEditedArguments: string;
  approvalArgAdded: string;
  approvalArgRemoved: string;
  approvalArgChanged: string;
  approvalAlwaysAllow: string;
  approvalAutoApproved: string;
  approvalAutoApprovedNote: string;
  approvalRevoke: string;
  approvalRevoked: string;
  // UserQuestionCard
  questionEyebrow: string;
  questionPosition: string;
  questionPrevious: string;
  questionNext: string;
  questionSingle: string;
  questionMultiple: string;
  questionOthers: string;
  questionOthersPlaceholder: string;
  questionFreeText: string;
  questionSubmit: string;
  questionSkip: string;
  questionIncomplete: string;
  questionAnswered: string;
  questionSkipped: string;
  questionNoAnswer: string;
  // FallbackInterruptCard
  fallbackEyebrow: string;
  fallbackReason: string;
  fallbackDetails: string;
  fallbackProblem: string;
  fallbackContinue: string;
  fallbackDismiss: string;
  fallbackSent: string;
  fallbackDismissed: string;
  fallbackRequired: string;
  // Approval ticket statuses, keyed `status.<value>`.
  [key: `status.${string}`]: string;
}

/** English labels; the TimePickerCard texts are a contract the QA checklist asserts verbatim (test/e2e). */
export const EN_LABELS: Readonly<InterruptLabels> = Object.freeze({
  expired: 'Expired',
  expiredText: 'This request expired before it was answered.',
  expiresIn: 'Expires in {time}',
  sending: 'Sending…',
  errorTitle: 'Your answer could not be sent.',
  retry: 'Retry',
  cancelledBadge: 'Cancelled',
  details: 'Details',
  loading: 'Loading the card…',
  answerFirst: 'Answer or dismiss this card before sending a new message.',
  dismissed: 'Dismissed',
  waitingTitle: '({count}) Waiting for you',
  answeredElsewhere: 'Answered on another device. This is the answer the agent received.',
  requestChanged: 'This request changed. Review it again.',
  batchTitle: '{count} approvals wait for you',
  waitingFor: 'Waiting for {who}',
  waitingForSomeoneElse: 'Waiting for someone else',
  waitingForNoOne: 'No one can answer this request',
  approverRole: 'anyone in {role}',
  answeredByOther: '{outcome} by {name} · {time}',
  chatHeldForOthers: 'Your message was not sent: the agent takes no message until this request is answered.',
  answerHeldForOthers: 'Not sent yet: the agent takes the answers of this set together, and one request waits for {who}.',
  someoneElse: 'someone else',
  batchApproveAll: 'Approve all ({count})',
  batchRejectAll: 'Reject all ({count})',
  batchRejectReason: 'Reason for rejecting all (optional)',
  batchApproved: 'Approved {count} requests.',
  batchRejected: 'Rejected {count} requests.',
  timePickerEyebrow: 'Book a call',
  timePickerWith: 'With {attendee}',
  timePickerDefaultTopic: 'a call',
  timePickerPrompt: 'Pick a time that works for you.',
  timePickerNone: 'None of these work',
  timePickerBooked: 'Booked',
  timePickerCancelled: 'Cancelled',
  timePickerNoTime: 'No time picked.',
  timePickerSlots: 'Available times',
  slotTomorrow: 'Tomorrow {time}',
  slotMonday: 'Monday {time}',
  slotAm: '{h}:{mm} AM',
  slotPm: '{h}:{mm} PM',
  approvalEyebrow: 'Approval required',
  approvalSn: 'Ticket',
  approvalSubmitTime: 'Submitted',
  approvalApprovers: 'Approvers',
  approvalViewTicket: 'View ticket',
  approvalCancel: 'Cancel approval',
  approvalCancelling: 'Cancelling…',
  approvalRefresh: 'Refresh',
  approvalRefreshing: 'Refreshing…',
  approvalRefreshCooldown: 'Refreshed just now; try again in a moment.',
  approvalTerminal: 'The ticket is {status}; it can no longer be cancelled.',
  approvalOperationFailed: 'That did not work: {error}',
  approvalTool: 'Tool',
  approvalArguments: 'Arguments',
  approvalReason: 'Reason (optional)',
  approvalRejectReason: 'Reason for rejecting (optional)',
  approvalApprove: 'Approve',
  approvalReject: 'Reject',
  approvalApproved: 'Approved',
  approvalRejected: 'Rejected',
  approvalStatusChanged: 'Ticket status: {status}',
  approvalEdit: 'Edit arguments',
  approvalApproveEdited: 'Approve with edits',
  approvalBack: 'Back',
  approvalDismiss: 'Dismiss',
  approvalArgumentsJson: 'Arguments (JSON)',
  approvalArgsInvalid: 'These arguments cannot be sent: {problem}',
  approvalEditedArguments: 'Edited arguments',
  approvalArgAdded: '{name} added: {after}',
  approvalArgRemoved: '{name} removed (was {before})',
  approvalArgChanged: '{name} changed from {before} to {after}',
  approvalAlwaysAllow: 'Always allow {tool} in this conversation',
  approvalAutoApproved: 'Auto-approved',
  approvalAutoApprovedNote: '{tool} is always allowed in this conversation.',
  approvalRevoke: 'Ask again for {tool}',
  approvalRevoked: '{tool} will ask for approval again.',
  questionEyebrow: 'Question',
  questionPosition: '{index} / {total}',
  questionPrevious: 'Previous question',
  questionNext: 'Next question',
  questionSingle: 'Single choice',
  questionMultiple: 'Multiple choice',
  questionOthers: 'Others',
  questionOthersPlaceholder: 'Type your answer',
  questionFreeText: 'Your answer',
  questionSubmit: 'Submit',
  questionSkip: 'Skip',
  questionIncomplete: 'Answer every question to submit.',
  questionAnswered: 'Answered',
  questionSkipped: 'Skipped',
  questionNoAnswer: 'No answer',
  fallbackEyebrow: 'Input needed',
  fallbackReason: 'Reason',
  fallbackDetails: 'Details',
  fallbackProblem: 'Problem',
  fallbackContinue: 'Continue',
  fallbackDismiss: 'Dismiss',
  fallbackSent: 'Sent',
  fallbackDismissed: 'Dismissed',
  fallbackRequired: 'required',
  ...statusLabels(APPROVAL_STATUS_MAP_EN),
});

const warnedLocales = new Set<string>();

/**
 * Whether `labels` translates every text of the cards (a table such as `zhCN.labels`), not just a
 * few. `loading` came after the other labels: a table without it is still whole.
 */
/** Keys added after the first tables were written: a table without them is still whole (English fills them in). */
const ADDED_LATER: readonly string[] = [
  'loading',
  'waitingTitle',
  'batchTitle',
  'batchApproveAll',
  'batchRejectAll',
  'batchRejectReason',
  'batchApproved',
  'batchRejected',
];

const isWholeTable = (labels: Readonly<Record<string, unknown>> | undefined): boolean =>
  !!labels && Object.keys(EN_LABELS).every((key) => typeof labels[key] === 'string' || ADDED_LATER.includes(key));

/** The language the cards speak: their `lang` and every text. */
export interface CardLanguage {
  locale: InterruptLocale;
  /** Every key filled: English stands in for a key the given table lacks. */
  labels: Required<InterruptLabels>;
}

/**
 * The cards' language. English is built in; another `locale` needs its whole label table
 * (`{ ...zhCN }` from `copilotkit-interrupts/locales/zh-CN`), so an app ships only the languages it
 * uses. Without one the cards stay English throughout (text, `lang`, slot wording) and a console
 * warning says once what is missing. Overrides are merged over English; values that are not
 * strings are ignored.
 *
 * @example
 * resolveLanguage('en', { timePickerBooked: 'Locked in' }).labels.timePickerBooked; // 'Locked in'
 * resolveLanguage(zhCN.locale, zhCN.labels).locale; // 'zh-CN'
 */
export function resolveLanguage(locale: InterruptLocale | string | undefined, overrides?: Readonly<Record<string, unknown>>): CardLanguage {
  let spoken = locale ?? 'en';
  if (spoken !== 'en' && !isWholeTable(overrides)) {
    if (!warnedLocales.has(spoken)) {
      warnedLocales.add(spoken);
      const fix =
        'spread the locale module (such as { ...zhCN } from "copilotkit-interrupts/locales/zh-CN") into the options, or give labels for every key of EN_LABELS';
      console.warn(`${LOG} No whole label table for locale "${spoken}", so the cards show English: ${fix}.`);
    }
    spoken = 'en';
  }
  const labels: Record<string, string> = { ...EN_LABELS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (typeof value === 'string' && key !== '__proto__' && key !== 'constructor') labels[key] = value;
  }
  return { locale: spoken as InterruptLocale, labels: labels as unknown as Required<InterruptLabels> };
}

/**
 * The labels of {@link resolveLanguage}.
 *
 * @example
 * resolveLabels('en', { timePickerBooked: 'Locked in' }).timePickerBooked; // 'Locked in'
 */
export function resolveLabels(
  locale: InterruptLocale | string | undefined,
  overrides?: Readonly<Record<string, unknown>>,
): Required<InterruptLabels> {
  return resolveLanguage(locale, overrides).labels;
}

/**
 * Fills `{name}` placeholders. Values are inserted as plain text; unknown placeholders stay.
 *
 * @example
 * formatLabel('With {attendee}', { attendee: 'Alice' }); // 'With Alice'
 */
export function formatLabel(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/** The display label of an approval status, or the raw value for a status the protocol lacks. */
export function approvalStatusLabel(labels: InterruptLabels, status: string): string {
  return labels[`status.${status}`] ?? status;
}
