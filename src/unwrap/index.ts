export type { InterruptSource, UnwrappedInterrupt } from './types';
export { MASTRA_SUSPEND_REASON, UNKNOWN_REASON, unwrapInterrupt } from './unwrap-interrupt';
export { LANGGRAPH_INTERRUPT_REASON } from '../wire/ids';
export { unwrapInterrupts, type InterruptRenderInput } from './unwrap-interrupts';
export {
  isApprovalTicket,
  isTimePickerPayload,
  isToolApprovalInterrupt,
  isUserQuestionInterrupt,
  type TimePickerPayload,
  type TimeSlot,
} from './guards';
export { UNWRAP_LIMITS } from '../wire/sanitize';
export { decodeUntrusted } from '../wire/json';
export { toProtocolInterrupt } from './to-protocol-interrupt';
