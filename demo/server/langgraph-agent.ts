import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { END, MessagesValue, START, StateGraph, StateSchema, interrupt } from '@langchain/langgraph';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { InterruptReason } from '../../src/protocol/constants';
import {
  approvalResultText,
  timePickerResultText,
  userQuestionResultText,
  type ApprovalToolInput,
  type TimePickerToolInput,
  type TimePickerToolOptions,
} from '../../src/mastra';
import { sentences } from '../../src/mastra/sentences';
import { LANGGRAPH_CANCELLED_KEY } from '../../src/runtime';
import { generateCandidateSlots } from '../../src/time-slots';
import type { ApprovalStore } from './approvals';
import { DEPLOY_ARGS_SCHEMA, deployResultText } from './agent';
import { decide } from './scripted-model';

/** The graph id the demo's LangGraph server serves. */
export const DEMO_GRAPH_ID = 'assistant';

const textOf = (message: BaseMessage | undefined) => (typeof message?.content === 'string' ? message.content : '');
const say = (text: string) => ({ messages: [new AIMessage(text)] });
/** What a dismissed card sends the graph: @ag-ui/langgraph's cancel value. */
const isCancel = (value: unknown) =>
  typeof value === 'object' && value !== null && (value as Record<string, unknown>)[LANGGRAPH_CANCELLED_KEY] === true;
const DISMISSED = 'The user dismissed the card; nothing was done.';
/** "Deploy v2 to staging for review": the deploy approval as a LangGraph review request. */
const REVIEW = /\breview\b/i;

/**
 * The demo agent as a LangGraph JS graph: the same scripted decisions, the same cards and the
 * same replies as the Mastra agent, with `interrupt()` where the Mastra tools `suspend()`.
 * A node runs again from the top when it is resumed, so the approval ticket is opened once per
 * user message (the approval store remembers it by thread and message id, across restarts too)
 * rather than on every pass.
 */
export function createDemoGraph({ approvals, timeSlots }: { approvals: ApprovalStore; timeSlots?: TimePickerToolOptions['slots'] }) {
  const State = new StateSchema({ messages: MessagesValue });
  return new StateGraph(State)
    .addNode('agent', async (state, config: LangGraphRunnableConfig) => {
      const human = [...state.messages].reverse().find((m) => m.getType() === 'human');
      const turn = decide([{ role: 'user', content: textOf(human) }] as never);
      if (turn.kind === 'text') return say(turn.text);
      if (turn.toolName === 'schedule_meeting') {
        const input = turn.input as unknown as TimePickerToolInput;
        const slots = timeSlots ? await timeSlots(input) : generateCandidateSlots({ now: new Date() });
        const resume = interrupt({
          toolName: 'schedule_meeting',
          topic: input.topic,
          ...(input.attendee ? { attendee: input.attendee } : {}),
          slots,
        });
        return say(timePickerResultText(input, isCancel(resume) ? { cancelled: true } : resume));
      }
      if (turn.toolName === 'request_approval') {
        const input = turn.input as unknown as ApprovalToolInput;
        const key = `${String(config.configurable?.thread_id)}:${human?.id ?? textOf(human)}`;
        const { sn } = approvals.open(input.action, key);
        const resume = interrupt({
          reason: InterruptReason.AIDevToolApproval,
          message: `Approval needed: ${input.action}`,
          metadata: { ticket: approvals.get(sn) },
        });
        if (isCancel(resume)) return say(DISMISSED);
        const known = approvals.get(sn);
        return say(approvalResultText(input, known ? { ...resume, metadata: { ticket: known } } : resume));
      }
      if (turn.toolName === 'deploy' && REVIEW.test(textOf(human))) {
        // The same approval as a LangGraph review request (agent-inbox's HumanInterrupt): the
        // answer is LangGraph's HumanResponse list, read back into the direct-mode decision.
        const input = turn.input as unknown as ApprovalToolInput;
        const [response] = interrupt([
          {
            action_request: { action: 'deploy', args: input.args ?? {} },
            config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
            description: `Review needed: ${input.action}`,
          },
        ]) as [{ type: string; args: unknown }];
        if (!['accept', 'edit', 'response'].includes(response?.type)) return say(DISMISSED);
        const edited = response.type === 'edit' ? (response.args as { args: Record<string, unknown> }).args : undefined;
        const decision =
          response.type === 'response'
            ? { approved: false, reason: String(response.args) }
            : { approved: true, ...(edited ? { editedArgs: edited } : {}) };
        const text = approvalResultText(input, decision);
        return say(decision.approved ? sentences(text, `Result: ${deployResultText(edited ?? input.args ?? {})}`) : text);
      }
      if (turn.toolName === 'deploy') {
        // Direct mode: the user approves the call itself, and may edit its arguments.
        const input = turn.input as unknown as ApprovalToolInput;
        const resume = interrupt({
          reason: InterruptReason.AIDevToolApproval,
          message: `Approval needed: ${input.action}`,
          metadata: { toolName: 'deploy', args: input.args, argsSchema: DEPLOY_ARGS_SCHEMA },
        }) as { approved?: boolean; editedArgs?: Record<string, unknown> };
        if (isCancel(resume)) return say(DISMISSED);
        const text = approvalResultText(input, resume as never);
        return say(
          resume?.approved === true ? sentences(text, `Result: ${deployResultText(resume.editedArgs ?? input.args ?? {})}`) : text,
        );
      }
      const input = turn.input as { message?: string; questions: unknown[] };
      const resume = interrupt({
        reason: InterruptReason.UserQuestion,
        ...(input.message ? { message: input.message } : {}),
        metadata: { questions: input.questions },
      });
      return say(isCancel(resume) ? DISMISSED : userQuestionResultText(input as never, resume));
    })
    .addEdge(START, 'agent')
    .addEdge('agent', END)
    .compile();
}
