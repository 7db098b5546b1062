/**
 * copilotkit-interrupts/runtime — the server half for agents served by CopilotRuntime (AG-UI):
 * the `normalizeInterrupts()` middleware and builders of standard interrupts. Imports no React.
 */
export {
  LEGACY_INTERRUPT_EVENT,
  LEGACY_INTERRUPT_ID_PREFIX,
  LEGACY_INTERRUPT_REASON,
  fromLegacyValue,
  liftInterrupt,
  normalizeInterrupts,
  withNormalizedInterrupts,
  type NormalizeInterruptsMiddleware,
  type NormalizeInterruptsOptions,
} from './normalize-interrupts';
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
export { MASTRA_SUSPEND_REASON } from '../unwrap/unwrap-interrupt';
