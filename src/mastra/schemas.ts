import { z } from 'zod';
import { APPROVAL_STATUS } from '../protocol/constants';

/** A time slot the TimePickerCard offers: `{label, iso}`. */
export const timeSlotSchema = z.object({ label: z.string(), iso: z.string() });

/** What `schedule_meeting` suspends with; TimePickerCard reads exactly this. */
export const timePickerSuspendSchema = z.object({
  topic: z.string(),
  attendee: z.string().optional(),
  slots: z.array(timeSlotSchema),
});

/** What TimePickerCard resolves with: `{chosen_time, chosen_label}` or `{cancelled: true}`. */
export const timePickerResumeSchema = z.object({
  chosen_time: z.string().optional(),
  chosen_label: z.string().optional(),
  cancelled: z.boolean().optional(),
});

/** An approval ticket (`metadata.ticket`, as in `AIDevToolApprovalInterruptPayloadMetaData`). */
export const approvalTicketSchema = z.object({
  approvers: z.array(z.string()),
  sn: z.string(),
  status: z.nativeEnum(APPROVAL_STATUS),
  submit_time: z.string(),
  title: z.string(),
  url: z.string(),
});

/** What an approval tool suspends with: `{reason: 'aidev:tool_approval', message?, metadata}`. */
export const approvalSuspendSchema = z.object({
  reason: z.literal('aidev:tool_approval'),
  message: z.string().optional(),
  expiresAt: z.string().optional(),
  metadata: z.object({
    ticket: approvalTicketSchema.optional(),
    toolName: z.string().optional(),
    args: z.record(z.string(), z.unknown()).optional(),
    /** A JSON schema of `args`: the card generates its Edit form from it when it is flat. */
    argsSchema: z.record(z.string(), z.unknown()).optional(),
  }),
});

/**
 * What ToolApprovalCard resolves with: `{approved, reason?, editedArgs?}` (direct mode) or `{metadata: {ticket}}`
 * (ticket mode, once the ticket reached a terminal status).
 */
export const approvalResumeSchema = z.object({
  approved: z.boolean().optional(),
  reason: z.string().optional(),
  /** Direct mode: the arguments as the user edited them before approving; they replace the agent's whole. */
  editedArgs: z.record(z.string(), z.unknown()).optional(),
  /** Direct mode: answered without asking, because the user always allows this tool in the conversation. */
  autoApproved: z.boolean().optional(),
  metadata: z.object({ ticket: approvalTicketSchema }).optional(),
});

/** An option of a choice question. */
export const userQuestionOptionSchema = z.object({ label: z.string(), description: z.string().optional() });

/** A question (the protocol's `UserQuestionItem`). */
export const userQuestionItemSchema = z.object({
  header: z.string(),
  question: z.string(),
  multiSelect: z.boolean().optional(),
  options: z.array(userQuestionOptionSchema).optional(),
});

/** What a user question tool suspends with: `{reason: 'aidev:user_question', message?, metadata: {questions}}`. */
export const userQuestionSuspendSchema = z.object({
  reason: z.literal('aidev:user_question'),
  message: z.string().optional(),
  expiresAt: z.string().optional(),
  metadata: z.object({ questions: z.array(userQuestionItemSchema).min(1) }),
});

/** What UserQuestionCard resolves with: `{answers: [{question, multiSelect?, answer: [{label, description}]}]}`. */
export const userQuestionResumeSchema = z.object({
  answers: z.array(
    z.object({
      question: z.string(),
      multiSelect: z.boolean().optional(),
      answer: z.array(z.object({ label: z.string(), description: z.string().optional() })),
    }),
  ),
});

export type TimePickerSuspend = z.infer<typeof timePickerSuspendSchema>;
export type TimePickerResume = z.infer<typeof timePickerResumeSchema>;
export type ApprovalTicket = z.infer<typeof approvalTicketSchema>;
export type ApprovalSuspend = z.infer<typeof approvalSuspendSchema>;
export type ApprovalResume = z.infer<typeof approvalResumeSchema>;
export type UserQuestionSuspend = z.infer<typeof userQuestionSuspendSchema>;
export type UserQuestionResumeData = z.infer<typeof userQuestionResumeSchema>;
