import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { END, MessagesValue, START, StateGraph, StateSchema } from '@langchain/langgraph';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { z } from 'zod';

/** The graph id the LangChain `createAgent` graph is served under. */
export const HITL_GRAPH_ID = 'hitl';

/** The argument form of `send_email` (a flat JSON schema: the card builds a form from it). */
export const SEND_EMAIL_ARGS_SCHEMA = {
  type: 'object',
  properties: {
    to: { type: 'string', title: 'To' },
    subject: { type: 'string', title: 'Subject' },
  },
  required: ['to', 'subject'],
};

/** "Release v2": the scripted model plans these three gated tool calls in one step. */
export const RELEASE_CALLS = [
  { id: 'call_tag', name: 'tag_release', args: { version: 'v2.0.0' } },
  { id: 'call_email', name: 'send_email', args: { to: 'team@example.com', subject: 'v2.0.0 is out' } },
  { id: 'call_delete', name: 'delete_branch', args: { name: 'release-candidate' } },
];
/** "Email the team": one gated tool call. */
export const EMAIL_CALL = { id: 'call_email_1', name: 'send_email', args: { to: 'team@example.com', subject: 'Standup moved to 10:00' } };

const RELEASE = /\brelease\b/i;
/** What the demo's LangGraph agent hands to the LangChain agent: a release, or an email to the team. */
const HITL_ROUTE = /\brelease\b|\bemail the team\b/i;
const EMAIL = /\bemail\b/i;
export const HITL_GREETING =
  'Hi! I run on LangChain createAgent with humanInTheLoopMiddleware. Try "Email the team" (one gated tool call) ' +
  'or "Release v2" (three gated tool calls in one step).';

const textOf = (message: BaseMessage | undefined) => (typeof message?.content === 'string' ? message.content : '');

/**
 * The scripted language model of the LangChain agent (the only scripted part): asked after a user
 * message, it plans the tool calls that message names; asked after tool results, it reports them.
 */
export class ScriptedToolModel extends BaseChatModel {
  _llmType() {
    return 'scripted-tool-model';
  }

  // The agent binds its tools; the script already knows them.
  override bindTools() {
    return this as never;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages[messages.length - 1];
    let message: AIMessage;
    if (last?.getType() === 'tool') {
      const lastCall = messages.map((m) => m.getType()).lastIndexOf('ai');
      const results = messages.slice(lastCall + 1).map((m) => `${(m as { name?: string }).name ?? 'tool'}: ${textOf(m)}`);
      message = new AIMessage(`Done. ${results.join(' | ')}`);
    } else {
      const human = textOf([...messages].reverse().find((m) => m.getType() === 'human'));
      const calls = RELEASE.test(human) ? RELEASE_CALLS : EMAIL.test(human) ? [EMAIL_CALL] : [];
      message =
        calls.length > 0
          ? new AIMessage({ content: '', tool_calls: calls.map((call) => ({ ...call, type: 'tool_call' as const })) })
          : new AIMessage(HITL_GREETING);
    }
    return { generations: [{ text: textOf(message), message }] };
  }
}

/** What each tool ran with, in order (tests read it; the demo ignores it). */
export type ToolRuns = { name: string; args: Record<string, unknown> }[];

/**
 * A LangChain `createAgent` graph whose tools are gated by `humanInTheLoopMiddleware`:
 * `send_email` allows approve, edit (with a form from its argsSchema) and reject; `delete_branch`
 * approve and reject only; `tag_release` approve and edit only.
 */
export function createHitlGraph(runs: ToolRuns = []) {
  const record = (name: string, args: Record<string, unknown>) => void runs.push({ name, args });
  const sendEmail = tool(
    async (args: { to: string; subject: string }) => {
      record('send_email', args);
      return `Sent "${args.subject}" to ${args.to}.`;
    },
    { name: 'send_email', description: 'Sends an email', schema: z.object({ to: z.string(), subject: z.string() }) },
  );
  const deleteBranch = tool(
    async (args: { name: string }) => {
      record('delete_branch', args);
      return `Deleted the branch ${args.name}.`;
    },
    { name: 'delete_branch', description: 'Deletes a git branch', schema: z.object({ name: z.string() }) },
  );
  const tagRelease = tool(
    async (args: { version: string }) => {
      record('tag_release', args);
      return `Tagged ${args.version}.`;
    },
    { name: 'tag_release', description: 'Tags a release', schema: z.object({ version: z.string() }) },
  );
  const agent = createAgent({
    model: new ScriptedToolModel({}),
    tools: [sendEmail, deleteBranch, tagRelease],
    middleware: [
      humanInTheLoopMiddleware({
        interruptOn: {
          send_email: {
            allowedDecisions: ['approve', 'edit', 'reject'],
            argsSchema: SEND_EMAIL_ARGS_SCHEMA,
            description: 'Send this email?',
          },
          delete_branch: { allowedDecisions: ['approve', 'reject'], description: 'Delete this branch?' },
          tag_release: { allowedDecisions: ['approve', 'edit'] },
        },
      }),
    ],
  });
  return agent.graph;
}

/**
 * The demo's LangGraph agent with the LangChain agent beside it: a user message that asks for a
 * release ("Release v2") or to email the team goes to {@link createHitlGraph}; any other to `graph`.
 */
export function withHitlRoute(graph: ReturnType<typeof createHitlGraph> | object) {
  const State = new StateSchema({ messages: MessagesValue });
  return new StateGraph(State)
    .addNode('assistant', graph as never)
    .addNode('hitl', createHitlGraph() as never)
    .addConditionalEdges(
      START,
      (state) => {
        const human = [...state.messages].reverse().find((m) => m.getType() === 'human');
        return HITL_ROUTE.test(textOf(human)) ? 'hitl' : 'assistant';
      },
      ['assistant', 'hitl'],
    )
    .addEdge('assistant', END)
    .addEdge('hitl', END)
    .compile();
}
