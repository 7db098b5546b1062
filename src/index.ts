/**
 * copilotkit-interrupts/core — the framework-free half: protocol types and constants,
 * `unwrapInterrupt`, the renderer registry. Safe to import on a server; imports no React.
 * Every export is listed by name: what is not here is internal.
 */

// Reading an interrupt, whatever shape it arrived in
export { unwrapInterrupt, UNKNOWN_REASON } from './unwrap/unwrap-interrupt';
export { unwrapInterrupts, type InterruptRenderInput } from './unwrap/unwrap-interrupts';
export type { InterruptSource, UnwrappedInterrupt } from './unwrap/types';
export { LANGGRAPH_INTERRUPT_REASON, MASTRA_SUSPEND_REASON } from './unwrap/shapes';
export {
  isApprovalTicket,
  isTimePickerPayload,
  isToolApprovalInterrupt,
  isUserQuestionInterrupt,
  type TimePickerPayload,
  type TimeSlot,
} from './unwrap/guards';

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
  isTerminalApprovalStatus,
} from './protocol/constants';
export type {
  AIDevToolApprovalInterrupt,
  AIDevToolApprovalInterruptPayloadMetaData,
  AIDevToolApprovalResume,
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
} from './protocol/types';
export type { InterruptLocale } from './i18n/locale';
