/**
 * copilotkit-interrupts/runtime — the server half for agents served by CopilotRuntime (AG-UI):
 * the `normalizeInterrupts()` middleware and builders of standard interrupts. Imports no React.
 */
export {
  LANGGRAPH_CANCELLED_KEY,
  LANGGRAPH_INTERRUPT_ID_PREFIX,
  LEGACY_INTERRUPT_EVENT,
  LEGACY_INTERRUPT_ID_PREFIX,
  LEGACY_INTERRUPT_REASON,
  liftInterrupt,
  normalizeInterrupts,
  withNormalizedInterrupts,
  type NormalizeInterruptsMiddleware,
  type NormalizeInterruptsOptions,
} from './normalize-interrupts';
export { MISSING_BRIDGE_INTERNALS, approvalChunkAsSuspend, enableMastraToolApprovals } from './mastra-approvals';
export {
  toolApprovalInterrupt,
  userQuestionInterrupt,
  type DirectApprovalInput,
  type DirectToolApprovalInterrupt,
  type DirectToolApprovalMetadata,
  type TicketApprovalInput,
  type UserQuestionInput,
} from './builders';
export { InterruptReason, APPROVAL_STATUS } from '../protocol/constants';
export { LANGGRAPH_INTERRUPT_REASON, MASTRA_SUSPEND_REASON } from '../unwrap/shapes';
