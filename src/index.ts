/**
 * copilotkit-interrupts/core — the framework-free half: protocol types and constants,
 * `unwrapInterrupt`, the renderer registry. Safe to import on a server; imports no React.
 * Every export is listed by name: what is not here is internal.
 */

// Reading an interrupt, whatever shape it arrived in
export {
  isApprovalTicket,
  isTimePickerPayload,
  isToolApprovalInterrupt,
  isUserQuestionInterrupt,
  LANGGRAPH_INTERRUPT_REASON,
  MASTRA_SUSPEND_REASON,
  UNKNOWN_REASON,
  unwrapInterrupt,
  unwrapInterrupts,
  type InterruptRenderInput,
  type InterruptSource,
  type TimePickerPayload,
  type TimeSlot,
  type UnwrappedInterrupt,
} from './unwrap';

// Picking a renderer by reason
export { createRendererRegistry, type RendererMap, type RendererRegistry } from './registry';

// The protocol: the interrupt, resume and stored-message types (src/protocol)
export {
  APPROVAL_STATUS,
  APPROVAL_STATUS_MAP,
  APPROVAL_STATUS_MAP_EN,
  InterruptReason,
  InterruptResumeOperation,
  MessageRole,
  MessageStatus,
  RenderMode,
  ResumeRefusal,
  isTerminalApprovalStatus,
} from './protocol';
export type {
  AIDevToolApprovalInterrupt,
  AIDevToolApprovalInterruptPayloadMetaData,
  AIDevToolApprovalResume,
  AnyInterruptResume,
  BaseInterrupt,
  BaseMessage,
  BaseResume,
  FlowNodeResume,
  Interrupt,
  InterruptMessage,
  InterruptResult,
  InterruptResume,
  OnInterruptResume,
  RunFinishedOutcome,
  ToolApprovalResume,
  UserQuestionAnswerItem,
  UserQuestionInterrupt,
  UserQuestionItem,
  UserQuestionOptionItem,
  UserQuestionResume,
} from './protocol';
export type { InterruptLocale } from './i18n/locale';

// The package's debug messages (off by default): what happens in normal use, e.g. an interrupt expiring
export { setInterruptsDebug } from './log';
