/**
 * copilotkit-interrupts/locales/zh-CN — the built-in cards in Simplified Chinese. A separate
 * entry, so apps in other languages do not ship this table.
 */
import { APPROVAL_STATUS_MAP } from '../../protocol/constants';
import type { InterruptLabels } from '../labels';
import { statusLabels } from '../status-labels';

/** Simplified Chinese labels; ticket statuses are the protocol's `APPROVAL_STATUS_MAP`. */
const ZH_CN_LABELS: Readonly<InterruptLabels> = Object.freeze({
  expired: '已过期',
  expiredText: '该请求已过期，未作答。',
  expiresIn: '{time} 后过期',
  sending: '发送中…',
  errorTitle: '回答发送失败。',
  retry: '重试',
  cancelledBadge: '已取消',
  details: '详情',
  loading: '卡片加载中…',
  answerFirst: '请先回答或忽略此卡片，再发送新消息。',
  dismissed: '已忽略',
  waitingTitle: '（{count}）等待你的回复',
  answeredElsewhere: '已在另一台设备上回答。以下是智能体收到的回答。',
  requestChanged: '此请求已更改，请重新审核。',
  batchTitle: '{count} 个审批等待你处理',
  batchApproveAll: '全部批准（{count}）',
  batchRejectAll: '全部拒绝（{count}）',
  batchRejectReason: '全部拒绝的理由（可选）',
  batchApproved: '已批准 {count} 个请求。',
  batchRejected: '已拒绝 {count} 个请求。',
  timePickerEyebrow: '预约通话',
  timePickerWith: '参与人：{attendee}',
  timePickerDefaultTopic: '通话',
  timePickerPrompt: '请选择一个合适的时间。',
  timePickerNone: '这些时间都不合适',
  timePickerBooked: '已预约',
  timePickerCancelled: '已取消',
  timePickerNoTime: '未选择时间。',
  timePickerSlots: '可选时间',
  slotTomorrow: '明天 {time}',
  slotMonday: '周一 {time}',
  slotAm: '上午{h}:{mm}',
  slotPm: '下午{h}:{mm}',
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
  approvalRejectReason: '拒绝理由（可选）',
  approvalApprove: '批准',
  approvalReject: '拒绝',
  approvalApproved: '已批准',
  approvalRejected: '已拒绝',
  approvalStatusChanged: '审批单状态：{status}',
  approvalEdit: '编辑参数',
  approvalApproveEdited: '按修改后的参数批准',
  approvalBack: '返回',
  approvalDismiss: '关闭',
  approvalArgumentsJson: '参数（JSON）',
  approvalArgsInvalid: '这些参数无法发送：{problem}',
  approvalEditedArguments: '修改后的参数',
  approvalArgAdded: '新增 {name}：{after}',
  approvalArgRemoved: '删除 {name}（原为 {before}）',
  approvalArgChanged: '{name} 由 {before} 改为 {after}',
  approvalAlwaysAllow: '在本次对话中始终允许 {tool}',
  approvalAutoApproved: '已自动批准',
  approvalAutoApprovedNote: '本次对话始终允许 {tool}。',
  approvalRevoke: '{tool} 重新需要审批',
  approvalRevoked: '{tool} 下次将重新请求审批。',
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

/**
 * The zh-CN locale for `useInterruptRenderers`, `<InterruptRenderers>`, any card and
 * `InterruptMessageRender`: spread it into their options or props.
 *
 * @example
 * import { zhCN } from 'copilotkit-interrupts/locales/zh-CN';
 * useInterruptRenderers({ ...zhCN, agentId: 'scheduler' });
 * // with overrides:
 * useInterruptRenderers({ ...zhCN, labels: { ...zhCN.labels, timePickerBooked: '已锁定' } });
 */
export const zhCN = Object.freeze({ locale: 'zh-CN', labels: ZH_CN_LABELS } as const);
