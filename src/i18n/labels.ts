import { APPROVAL_STATUS, APPROVAL_STATUS_MAP, APPROVAL_STATUS_MAP_EN } from '../protocol/constants';
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

const statusLabels = (map: Readonly<Record<APPROVAL_STATUS, string>>) =>
  Object.fromEntries(Object.values(APPROVAL_STATUS).map((s) => [`status.${s}`, map[s]])) as Record<`status.${string}`, string>;

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

/** Simplified Chinese labels; ticket statuses are the seed's `APPROVAL_STATUS_MAP`. */
export const ZH_CN_LABELS: Readonly<InterruptLabels> = Object.freeze({
  expired: '已过期',
  expiredText: '该请求已过期，未作答。',
  expiresIn: '{time} 后过期',
  sending: '发送中…',
  errorTitle: '回答发送失败。',
  retry: '重试',
  cancelledBadge: '已取消',
  answerFirst: '请先回答或忽略此卡片，再发送新消息。',
  timePickerEyebrow: '预约通话',
  timePickerWith: '参与人：{attendee}',
  timePickerDefaultTopic: '通话',
  timePickerPrompt: '请选择一个合适的时间。',
  timePickerNone: '这些时间都不合适',
  timePickerBooked: '已预约',
  timePickerCancelled: '已取消',
  timePickerNoTime: '未选择时间。',
  timePickerSlots: '可选时间',
  approvalEyebrow: '需要审批',
  approvalSn: '单号',
  approvalSubmitTime: '提交时间',
  approvalApprovers: '审批人',
  approvalViewTicket: '查看审批单',
  approvalCancel: '取消审批',
  approvalCancelling: '取消中…',
  approvalRefresh: '刷新',
  approvalRefreshing: '刷新中…',
  approvalRefreshCooldown: '刚刚已刷新，请稍后再试。',
  approvalTerminal: '审批单{status}，无法再取消。',
  approvalOperationFailed: '操作失败：{error}',
  approvalTool: '工具',
  approvalArguments: '参数',
  approvalReason: '理由（可选）',
  approvalApprove: '批准',
  approvalReject: '拒绝',
  approvalApproved: '已批准',
  approvalRejected: '已拒绝',
  approvalStatusChanged: '审批单状态：{status}',
  questionEyebrow: '问题',
  questionPosition: '{index} / {total}',
  questionPrevious: '上一题',
  questionNext: '下一题',
  questionSingle: '单选',
  questionMultiple: '多选',
  questionOthers: '其他',
  questionOthersPlaceholder: '请输入你的回答',
  questionFreeText: '你的回答',
  questionSubmit: '提交',
  questionSkip: '跳过',
  questionIncomplete: '请回答所有问题后再提交。',
  questionAnswered: '已回答',
  questionSkipped: '已跳过',
  questionNoAnswer: '未回答',
  fallbackEyebrow: '需要输入',
  fallbackReason: '原因',
  fallbackDetails: '详情',
  fallbackProblem: '问题',
  fallbackContinue: '继续',
  fallbackDismiss: '忽略',
  fallbackSent: '已发送',
  fallbackDismissed: '已忽略',
  fallbackRequired: '必填',
  ...statusLabels(APPROVAL_STATUS_MAP),
});

const BY_LOCALE: Readonly<Record<InterruptLocale, Readonly<InterruptLabels>>> = {
  en: EN_LABELS,
  'zh-CN': ZH_CN_LABELS,
};

/**
 * The label set for a locale with the app's overrides merged over it. Unknown locales fall back
 * to English; override values that are not strings are ignored.
 *
 * @example
 * resolveLabels('zh-CN', { timePickerBooked: '已锁定' }).timePickerBooked; // '已锁定'
 */
export function resolveLabels(
  locale: InterruptLocale | string | undefined,
  overrides?: Readonly<Record<string, unknown>>,
): InterruptLabels {
  const base = BY_LOCALE[locale as InterruptLocale] ?? EN_LABELS;
  if (!overrides) return base;
  const merged: Record<string, string> = { ...base };
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
