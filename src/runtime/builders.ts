import { InterruptReason } from '../protocol/constants';
import { builtInterruptId } from '../wire/ids';
import type {
  AIDevToolApprovalInterrupt,
  AIDevToolApprovalInterruptPayloadMetaData,
  BaseInterrupt,
  UserQuestionInterrupt,
  UserQuestionItem,
} from '../protocol/types';

type Ticket = AIDevToolApprovalInterruptPayloadMetaData['ticket'];

interface CommonInterruptInput {
  /** The tool call the interrupt pauses. */
  toolCallId: string;
  /** Defaults to `<reason>::<toolCallId>`. Resume addresses the interrupt by it. */
  id?: string;
  message?: string;
  /** ISO time after which the card turns read-only "Expired" and sends nothing. */
  expiresAt?: string;
  properties?: Record<string, unknown>;
}

/** What a direct-mode approval carries: the user is the approver of this tool call. */
export interface DirectToolApprovalMetadata {
  toolName?: string;
  args?: Record<string, unknown>;
}

/** An approval without a ticket: ToolApprovalCard shows Approve / Reject and resolves `{approved, reason?}`. */
export type DirectToolApprovalInterrupt = BaseInterrupt<InterruptReason.AIDevToolApproval, DirectToolApprovalMetadata>;

export interface TicketApprovalInput extends CommonInterruptInput {
  ticket: Ticket;
}

export interface DirectApprovalInput extends CommonInterruptInput, DirectToolApprovalMetadata {
  ticket?: undefined;
}

function base<R extends InterruptReason>(reason: R, input: CommonInterruptInput) {
  if (typeof input?.toolCallId !== 'string' || input.toolCallId === '') {
    throw new TypeError(`A ${reason} interrupt needs a toolCallId (a non-empty string).`);
  }
  const out: Record<string, unknown> = {
    id: input.id ?? builtInterruptId(reason, input.toolCallId),
    reason,
    toolCallId: input.toolCallId,
  };
  if (input.message !== undefined) out.message = input.message;
  if (input.expiresAt !== undefined) out.expiresAt = input.expiresAt;
  if (input.properties !== undefined) out.properties = input.properties;
  return out;
}

/**
 * A standard `aidev:tool_approval` interrupt for backend code (e.g. a RUN_FINISHED interrupt
 * outcome). With a `ticket` it is a third-party approval (ToolApprovalCard's ticket mode);
 * without one the user approves the tool call directly.
 *
 * @example
 * toolApprovalInterrupt({ toolCallId: 'call_1', ticket: { sn: 'APR-1', title: 'Deploy', status: APPROVAL_STATUS.PENDING, approvers: ['ops'], submit_time: '2026-01-01 10:00', url: 'https://example.com/APR-1' } });
 * toolApprovalInterrupt({ toolCallId: 'call_2', toolName: 'delete_branch', args: { name: 'old' }, message: 'Delete the branch?' });
 */
export function toolApprovalInterrupt(input: TicketApprovalInput): AIDevToolApprovalInterrupt;
export function toolApprovalInterrupt(input: DirectApprovalInput): DirectToolApprovalInterrupt;
export function toolApprovalInterrupt(
  input: TicketApprovalInput | DirectApprovalInput,
): AIDevToolApprovalInterrupt | DirectToolApprovalInterrupt {
  const out = base(InterruptReason.AIDevToolApproval, input);
  if (input.ticket !== undefined) {
    out.metadata = { ticket: input.ticket };
  } else {
    const direct = input as DirectApprovalInput;
    const metadata: DirectToolApprovalMetadata = {};
    if (direct.toolName !== undefined) metadata.toolName = direct.toolName;
    if (direct.args !== undefined) metadata.args = direct.args;
    out.metadata = metadata;
  }
  return out as AIDevToolApprovalInterrupt | DirectToolApprovalInterrupt;
}

export interface UserQuestionInput extends CommonInterruptInput {
  questions: UserQuestionItem[];
}

/**
 * A standard `aidev:user_question` interrupt: UserQuestionCard asks the questions one at a time
 * and resolves `{answers: [{question, multiSelect?, answer: [{label, description}]}]}`.
 *
 * @example
 * userQuestionInterrupt({ toolCallId: 'call_3', questions: [{ header: 'Stack', question: 'Which database?', multiSelect: false, options: [{ label: 'Postgres', description: 'Relational' }] }] });
 */
export function userQuestionInterrupt(input: UserQuestionInput): UserQuestionInterrupt {
  if (!Array.isArray(input?.questions) || input.questions.length === 0) {
    throw new TypeError('A user question interrupt needs at least one question.');
  }
  const out = base(InterruptReason.UserQuestion, input);
  out.metadata = { questions: input.questions };
  return out as UserQuestionInterrupt;
}
