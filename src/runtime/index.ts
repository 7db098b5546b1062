/**
 * copilotkit-interrupts/runtime — the server half for agents served by CopilotRuntime (AG-UI):
 * the `normalizeInterrupts()` middleware, the backend interface it dispatches to, and builders of
 * standard interrupts. Imports no React.
 */
export { normalizeInterrupts, type NormalizeInterruptsMiddleware, type NormalizeInterruptsOptions } from './normalize-interrupts';
export { withNormalizedInterrupts } from './with-normalized-interrupts';
export { LANGGRAPH_CANCELLED_KEY } from '../backends/langgraph-wire';
export { enableMastraToolApprovals } from '../backends/mastra/tool-approvals';
export type { InterruptBackend } from '../backends/types';
export {
  ANSWER_NOT_ALLOWED,
  INTERRUPT_CHANGED,
  INTERRUPT_ID_REFUSED,
  MAX_RESUME_BYTES,
  MAX_RESUME_ENTRIES,
  RESUME_TOO_LARGE,
  SECRET_ENV as INTERRUPTS_SECRET_ENV,
  SECRET_MISSING as INTERRUPTS_SECRET_MISSING,
} from './signed-ids';
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
