/**
 * copilotkit-interrupts/runtime — the server half for agents served by CopilotRuntime (AG-UI):
 * the `normalizeInterrupts()` middleware and builders of standard interrupts. Imports no React.
 */
export {
  LANGGRAPH_CANCELLED_KEY,
  normalizeInterrupts,
  withNormalizedInterrupts,
  type NormalizeInterruptsMiddleware,
  type NormalizeInterruptsOptions,
} from './normalize-interrupts';
export { enableMastraToolApprovals } from './mastra-approvals';
export { ANSWER_NOT_ALLOWED, INTERRUPT_CHANGED, INTERRUPT_ID_REFUSED, SECRET_ENV as INTERRUPTS_SECRET_ENV } from './signed-ids';
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
