import { APPROVAL_STATUS_MAP_EN } from '../protocol/constants';
import { statusLabels } from './status-labels';
import type { InterruptLocale } from './locale';

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
  /** Shown on an open card when the user sent a chat message the agent refused while it waits for the card. */
  answerFirst: string;
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
  approvalApprove: string;
  approvalReject: string;
  approvalApproved: string;
  approvalRejected: string;
  approvalStatusChanged: string;
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


/** English labels; the TimePickerCard texts are the seed's QA contract, verbatim. */
export const EN_LABELS: Readonly<InterruptLabels> = Object.freeze({
  expired: 'Expired',
  expiredText: 'This request expired before it was answered.',
  expiresIn: 'Expires in {time}',
  sending: 'Sending…',
  errorTitle: 'Your answer could not be sent.',
  retry: 'Retry',
  cancelledBadge: 'Cancelled',
  answerFirst: 'Answer or dismiss this card before sending a new message.',
  timePickerEyebrow: 'Book a call',
  timePickerWith: 'With {attendee}',
  timePickerDefaultTopic: 'a call',
  timePickerPrompt: 'Pick a time that works for you.',
  timePickerNone: 'None of these work',
  timePickerBooked: 'Booked',
  timePickerCancelled: 'Cancelled',
  timePickerNoTime: 'No time picked.',
  timePickerSlots: 'Available times',
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
  approvalApprove: 'Approve',
  approvalReject: 'Reject',
  approvalApproved: 'Approved',
  approvalRejected: 'Rejected',
  approvalStatusChanged: 'Ticket status: {status}',
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
 * The English labels with the app's overrides merged over them. Other languages come as a label
 * table (`zhCN` from `copilotkit-interrupts/locales/zh-CN`), so an app ships only the ones it uses;
 * a non-English `locale` without one gets English and a console warning. Override values that
 * are not strings are ignored.
 *
 * @example
 * resolveLabels('en', { timePickerBooked: 'Locked in' }).timePickerBooked; // 'Locked in'
 */
export function resolveLabels(
  locale: InterruptLocale | string | undefined,
  overrides?: Readonly<Record<string, unknown>>,
): InterruptLabels {
  // A table for another language replaces every label; a few overrides only some.
  if (locale && locale !== 'en' && typeof overrides?.expired !== 'string' && !warnedLocales.has(locale)) {
    warnedLocales.add(locale);
    console.warn(
      `[copilotkit-interrupts] No labels for locale "${locale}": the cards show English. Spread its table into the options, e.g. { ...zhCN } from "copilotkit-interrupts/locales/zh-CN".`,
    );
  }
  if (!overrides) return EN_LABELS;
  const merged: Record<string, string> = { ...EN_LABELS };
  for (const [key, value] of Object.entries(overrides)) {
    if (typeof value === 'string' && key !== '__proto__' && key !== 'constructor') merged[key] = value;
  }
  return merged as unknown as InterruptLabels;
}

/**
 * Fills `{name}` placeholders. Values are inserted as plain text; unknown placeholders stay.
 *
 * @example
 * formatLabel('With {attendee}', { attendee: 'Alice' }); // 'With Alice'
 */
export function formatLabel(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

/** The display label of an approval status, or the raw value for a status the protocol lacks. */
export function approvalStatusLabel(labels: InterruptLabels, status: string): string {
  return labels[`status.${status}`] ?? status;
}
