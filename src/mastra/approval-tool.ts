import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { APPROVAL_STATUS, APPROVAL_STATUS_MAP_EN, InterruptReason } from '../protocol/constants';
import { missingSuspend, suspendContext } from './context';
import { sentences } from './sentences';
import { approvalResumeSchema, approvalSuspendSchema, type ApprovalResume, type ApprovalSuspend, type ApprovalTicket } from './schemas';

export interface ApprovalToolInput {
  /** What needs approval, in a few words (e.g. "Deploy v2 to production"). */
  action: string;
  /** The tool the approval is for (direct mode shows it). */
  toolName?: string;
  /** Its arguments (direct mode shows them, formatted). */
  args?: Record<string, unknown>;
}

export interface ApprovalToolOptions {
  /** Tool id. Default `request_approval`. */
  id?: string;
  description?: string;
  /**
   * Ticket mode: open a third-party approval ticket for the request. The card shows it, the user
   * refreshes it until it is decided, and the decided ticket comes back as `{metadata: {ticket}}`.
   * Without it the tool runs in direct mode: the user approves or rejects (`{approved, reason?}`).
   */
  createTicket?: (input: ApprovalToolInput) => ApprovalTicket | Promise<ApprovalTicket>;
  /**
   * Ticket mode: the ticket as the approval system knows it, by `sn`. When given, the result is
   * built from it rather than from the ticket the browser sent back.
   */
  getTicket?: (sn: string) => ApprovalTicket | undefined | Promise<ApprovalTicket | undefined>;
  /** The card's message. Default: "Approval needed: {action}". */
  message?: (input: ApprovalToolInput) => string;
  /** The text the agent gets on resume. Default: see {@link approvalResultText}. */
  resultText?: (input: ApprovalToolInput, resume: ApprovalResume) => string;
  /**
   * Direct mode: what to do once the user approves, called with the arguments they approved: their
   * edits (`editedArgs`) when they edited them, which replace the agent's whole, else the agent's.
   * Not called on a rejection. Its result (text, or anything JSON) follows the approval text.
   */
  run?: (args: Record<string, unknown>, input: ApprovalToolInput) => unknown;
  /**
   * Direct mode: a JSON schema of the arguments, sent to the card as `metadata.argsSchema`; a flat
   * one (string, number, integer, boolean fields) gives the card an Edit form instead of JSON text.
   */
  argsSchema?: Record<string, unknown>;
}

export const DEFAULT_APPROVAL_DESCRIPTION =
  'Ask for approval before doing something that needs it (a deployment, a payment, deleting data). ' +
  'Shows an approval card in the chat and returns the decision.';

/**
 * The result a resumed approval tool returns: whether the action may go ahead, and why. Every part
 * ends a sentence whatever the user typed ("until Friday" or "until Friday!").
 */
export function approvalResultText(input: ApprovalToolInput, resume: ApprovalResume): string {
  const action = input.action.trim();
  const reason = resume.reason?.trim();
  const ticket = resume.metadata?.ticket;
  if (ticket) {
    const status = APPROVAL_STATUS_MAP_EN[ticket.status]?.toLowerCase() ?? ticket.status;
    const head = `Approval ${ticket.sn} ("${ticket.title}") is ${status}`;
    return sentences(head, ticket.status === APPROVAL_STATUS.APPROVED ? `Go ahead with: ${action}` : `Do not go ahead with: ${action}`);
  }
  if (resume.approved === true) {
    if (resume.autoApproved) return `"${action}" was approved automatically: the user always allows it in this conversation.`;
    const edits = resume.editedArgs ? ` with edited arguments ${JSON.stringify(resume.editedArgs)}` : '';
    return sentences(`The user approved "${action}"${edits}`, reason && `Note: ${reason}`);
  }
  if (resume.approved === false) {
    return sentences(`The user rejected "${action}"${reason ? `: ${reason}` : ''}`, 'Do not go ahead');
  }
  return `No approval decision was received for "${action}". Do not go ahead.`;
}

/**
 * A Mastra tool that suspends with an `aidev:tool_approval` payload for the ToolApprovalCard:
 * `{reason, message, metadata: {ticket}}` in ticket mode, `{reason, message, metadata: {toolName, args}}`
 * in direct mode. On resume it returns a text the agent can quote.
 *
 * @example
 * createApprovalTool({ createTicket: (input) => tickets.open(input.action), getTicket: (sn) => tickets.get(sn) });
 * createApprovalTool({ run: (args) => deploy(args) }); // direct mode: runs with the approved (maybe edited) arguments
 */
export function createApprovalTool(options: ApprovalToolOptions = {}) {
  const id = options.id ?? 'request_approval';
  const resultText = options.resultText ?? approvalResultText;
  return createTool({
    id,
    description: options.description ?? DEFAULT_APPROVAL_DESCRIPTION,
    inputSchema: z.object({
      action: z.string().describe("What needs approval, in a few words (e.g. 'Deploy v2 to production')."),
      toolName: z.string().optional().describe('The tool the approval is for, if any.'),
      args: z.record(z.string(), z.unknown()).optional().describe("That tool's arguments, if any."),
    }),
    outputSchema: z.string(),
    suspendSchema: approvalSuspendSchema,
    resumeSchema: approvalResumeSchema,
    execute: async (input, executionContext) => {
      const { suspend, resumeData } = suspendContext<ApprovalSuspend, ApprovalResume>(executionContext);
      if (resumeData) {
        const sent = resumeData.metadata?.ticket;
        if (sent && options.getTicket) {
          const known = await options.getTicket(sent.sn);
          if (known) return resultText(input, { ...resumeData, metadata: { ticket: known } });
        }
        const text = resultText(input, resumeData);
        if (resumeData.approved !== true || !options.run || options.createTicket) return text;
        const ran = await options.run(resumeData.editedArgs ?? input.args ?? { action: input.action }, input);
        return ran === undefined ? text : sentences(text, `Result: ${typeof ran === 'string' ? ran.trim() : JSON.stringify(ran)}`);
      }
      if (!suspend) throw missingSuspend(id);
      const message = options.message ? options.message(input) : `Approval needed: ${input.action}`;
      const payload: ApprovalSuspend = options.createTicket
        ? { reason: InterruptReason.AIDevToolApproval, message, metadata: { ticket: await options.createTicket(input) } }
        : {
            reason: InterruptReason.AIDevToolApproval,
            message,
            metadata: {
              toolName: input.toolName ?? id,
              args: input.args ?? { action: input.action },
              ...(options.argsSchema ? { argsSchema: options.argsSchema } : {}),
            },
          };
      return suspend(payload) as unknown as string;
    },
  });
}
