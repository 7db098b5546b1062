/**
 * copilotkit-interrupts/mastra — Mastra tool factories whose suspend payloads are exactly what the
 * cards read and whose resume schemas are exactly what the cards send. Needs `@mastra/core` and
 * `zod` (optional peers); imports no React.
 */
export {
  createTimePickerTool,
  timePickerResultText,
  DEFAULT_TIME_PICKER_DESCRIPTION,
  type TimePickerToolInput,
  type TimePickerToolOptions,
} from './time-picker-tool';
export {
  createApprovalTool,
  approvalResultText,
  DEFAULT_APPROVAL_DESCRIPTION,
  type ApprovalToolInput,
  type ApprovalToolOptions,
} from './approval-tool';
export {
  createUserQuestionTool,
  userQuestionResultText,
  DEFAULT_USER_QUESTION_DESCRIPTION,
  type UserQuestionToolInput,
  type UserQuestionToolOptions,
} from './user-question-tool';
export {
  approvalResumeSchema,
  approvalSuspendSchema,
  approvalTicketSchema,
  timePickerResumeSchema,
  timePickerSuspendSchema,
  timeSlotSchema,
  userQuestionItemSchema,
  userQuestionOptionSchema,
  userQuestionResumeSchema,
  userQuestionSuspendSchema,
  type ApprovalResume,
  type ApprovalSuspend,
  type ApprovalTicket,
  type TimePickerResume,
  type TimePickerSuspend,
  type UserQuestionResumeData,
  type UserQuestionSuspend,
} from './schemas';
export { generateCandidateSlots } from '../time-slots';
