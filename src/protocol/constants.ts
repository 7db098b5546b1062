/** Reasons of the interrupts this library knows. Custom reasons are `<framework>:<name>`. */
export enum InterruptReason {
  AIDevToolApproval = 'aidev:tool_approval',
  UserQuestion = 'aidev:user_question',
}

/** Status of an AI Dev third-party approval ticket (`metadata.ticket.status`). */
export enum APPROVAL_STATUS {
  ABANDONED = 'abandoned',
  APPROVED = 'approved',
  CANCELLED = 'cancelled',
  DRAFT = 'draft',
  EXPIRED = 'expired',
  PENDING = 'pending',
  REJECTED = 'rejected',
  REVOKED = 'revoked',
}

/**
 * zh-CN display labels for approval statuses: the wording the approval system itself shows.
 * Marked pure so a bundle that does not use it (the English-only `.` entry) drops it: a bundler
 * cannot tell on its own that `Object.freeze` has no side effects.
 */
export const APPROVAL_STATUS_MAP: Readonly<Record<APPROVAL_STATUS, string>> = /* @__PURE__ */ Object.freeze({
  [APPROVAL_STATUS.ABANDONED]: '已废弃',
  [APPROVAL_STATUS.APPROVED]: '已通过',
  [APPROVAL_STATUS.CANCELLED]: '已取消',
  [APPROVAL_STATUS.DRAFT]: '待审批',
  [APPROVAL_STATUS.EXPIRED]: '已过期',
  [APPROVAL_STATUS.PENDING]: '待审批',
  [APPROVAL_STATUS.REJECTED]: '已拒绝',
  [APPROVAL_STATUS.REVOKED]: '已撤销',
});

/** English display labels for approval statuses. */
export const APPROVAL_STATUS_MAP_EN: Readonly<Record<APPROVAL_STATUS, string>> = Object.freeze({
  [APPROVAL_STATUS.ABANDONED]: 'Abandoned',
  [APPROVAL_STATUS.APPROVED]: 'Approved',
  [APPROVAL_STATUS.CANCELLED]: 'Cancelled',
  [APPROVAL_STATUS.DRAFT]: 'Draft',
  [APPROVAL_STATUS.EXPIRED]: 'Expired',
  [APPROVAL_STATUS.PENDING]: 'Pending approval',
  [APPROVAL_STATUS.REJECTED]: 'Rejected',
  [APPROVAL_STATUS.REVOKED]: 'Revoked',
});

/**
 * True when a ticket can no longer change: every status except `pending` and `draft`.
 *
 * @example
 * isTerminalApprovalStatus(APPROVAL_STATUS.APPROVED); // true
 */
export function isTerminalApprovalStatus(status: unknown): boolean {
  return (
    typeof status === 'string' &&
    status !== APPROVAL_STATUS.PENDING &&
    status !== APPROVAL_STATUS.DRAFT &&
    (Object.values(APPROVAL_STATUS) as string[]).includes(status)
  );
}

/** Operations a user triggers on an interrupt card that the app sends back to the agent. */
export enum InterruptResumeOperation {
  /** Withdraw a third-party tool approval. */
  ApprovalCancel = 'approval_cancel',
  /** Refresh a third-party approval ticket's status. */
  ApprovalRefresh = 'approval_refresh',
  /** Retry a failed flow node (bkflow). */
  FlowNodeRetry = 'flow_node_retry',
  /** Skip a failed flow node (bkflow). */
  FlowNodeSkip = 'flow_node_skip',
}

/** Chat-x message roles; the library uses `Interrupt` for stored interrupt messages. */
export enum MessageRole {
  User = 'user',
  Assistant = 'assistant',
  System = 'system',
  Developer = 'developer',
  Guide = 'guide',
  Hidden = 'hidden',
  HiddenAssistant = 'hidden-assistant',
  HiddenGuide = 'hidden-guide',
  HiddenSystem = 'hidden-system',
  HiddenUser = 'hidden-user',
  Info = 'info',
  Interrupt = 'interrupt',
  Loading = 'loading',
  Pause = 'pause',
  Placeholder = 'placeholder',
  Reasoning = 'reasoning',
  TemplateAssistant = 'template-assistant',
  TemplateGuide = 'template-guide',
  TemplateHidden = 'template-hidden',
  TemplateSystem = 'template-system',
  TemplateUser = 'template-user',
  Tool = 'tool',
  Activity = 'activity',
}

/** Chat-x message statuses. `Complete` and `Completed` mean the same. */
export enum MessageStatus {
  Complete = 'complete',
  Completed = 'completed',
  Disabled = 'disabled',
  Error = 'error',
  Fetching = 'fetching',
  Pending = 'pending',
  Stop = 'stop',
  StopLoading = 'stop-loading',
  Streaming = 'streaming',
  Success = 'success',
}

/** Chat-x render modes. */
export enum RenderMode {
  Chat = 'chat',
  Share = 'share',
  Test = 'test',
}

/**
 * The `code` of the RUN_ERROR that ends a refused resume: the server half never hands it to the
 * agent. `AlreadyAnswered` (the durable runner) also carries `answers`: the resume entries that won,
 * so the card can show the answer that counts.
 */
export enum ResumeRefusal {
  /** Another device's answer came first (the durable runner). */
  AlreadyAnswered = 'interrupt_already_answered',
  /** No such interrupt is open on that thread (the durable runner). */
  NotOpen = 'interrupt_not_open',
  /** An id the server did not issue, or altered, or for another thread (`normalizeInterrupts()`). */
  IdRefused = 'interrupt_id_refused',
  /** The approval was given to a request that changed since the card showed it (`normalizeInterrupts()`). */
  Changed = 'interrupt_changed',
  /** An answer the request does not take, such as a decision a LangChain action does not allow. */
  AnswerNotAllowed = 'answer_not_allowed',
  /** A resume larger than any set of open interrupts takes: an id twice, too many entries or too many bytes (`normalizeInterrupts()`). */
  TooLarge = 'resume_too_large',
  /** The interrupt waits for other people (its `approvers`), or names no one who may answer it (the durable runner). */
  NotAnApprover = 'not_an_approver',
  /** Four eyes: the person whose run raised the interrupt may not answer it (the durable runner). */
  FourEyes = 'four_eyes',
}

/**
 * The key, in a raised interrupt's `metadata`, under which the durable runner tells the person it
 * streams a thread to who the interrupt waits for, whether they may answer it, and who did
 * ({@link InterruptPeople}). Written per viewer on the way out; never stored.
 */
export const INTERRUPT_PEOPLE_KEY = 'copilotkit-interrupts:people';
