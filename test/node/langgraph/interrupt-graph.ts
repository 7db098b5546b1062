import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesValue, START, StateGraph, StateSchema, interrupt } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';

export const QUESTIONS = [
  { header: 'Stack', question: 'Which database?', multiSelect: false, options: [{ label: 'Postgres', description: 'Relational' }] },
];

/** What each node got back from `interrupt()`, in order. */
export type Received = { node: string; value: unknown }[];

const lastHumanText = (messages: BaseMessage[]) => {
  const human = [...messages].reverse().find((m) => m.getType() === 'human');
  return typeof human?.content === 'string' ? human.content.toLowerCase() : '';
};
const say = (text: string) => ({ messages: [new AIMessage(text)] });

/** The agent-inbox review request (`HumanInterrupt`) the "review" node sends. */
export const REVIEW_REQUEST = {
  action_request: { action: 'send_email', args: { to: 'ops@example.com', subject: 'Deploy done' } },
  config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
  description: 'Send the deploy email?',
};
/** The "strict review" node's request: accept or ignore only. */
export const STRICT_REVIEW_REQUEST = {
  ...REVIEW_REQUEST,
  config: { allow_accept: true, allow_edit: false, allow_respond: false, allow_ignore: true },
};

/**
 * A graph with every way a LangGraph app interrupts, chosen by the user's last message:
 * "question" (node-level interrupt with a reason payload), "plain" (a string), "tool" (inside a
 * tool run by ToolNode), "sequence" (two nodes one after the other), "parallel" (two branches),
 * "review" (an agent-inbox review request, sent as a list of one as agent-inbox asks), "strict
 * review" (one that allows accept and ignore only, sent as the object itself).
 * Every value `interrupt()` returns is recorded in `received`.
 */
export function createInterruptGraph(received: Received) {
  // Not MessagesAnnotation: with it the server's schema endpoint needs a TypeScript compiler at run time.
  const State = new StateSchema({ messages: MessagesValue });
  const ask = (node: string, value: unknown) => {
    const answer = interrupt(value);
    received.push({ node, value: answer });
    return answer;
  };

  const deleteBranch = tool(
    async (args: { name: string }, config) => {
      const decision = ask('delete_branch', {
        reason: 'aidev:tool_approval',
        message: `Delete the branch ${args.name}?`,
        toolCallId: config?.toolCall?.id,
        metadata: { toolName: 'delete_branch', args },
      }) as { approved?: boolean; reason?: string };
      return decision?.approved ? `Deleted ${args.name}.` : `Not deleted: ${decision?.reason ?? 'declined'}.`;
    },
    { name: 'delete_branch', description: 'Deletes a git branch', schema: z.object({ name: z.string() }) },
  );

  return new StateGraph(State)
    .addNode('question', () =>
      say(
        `You answered ${JSON.stringify(ask('question', { reason: 'aidev:user_question', message: 'One question first', metadata: { questions: QUESTIONS } }))}`,
      ),
    )
    .addNode('plain', () => say(`Plain answer: ${JSON.stringify(ask('plain', 'Approve the deploy?'))}`))
    .addNode('call_tool', () => ({
      messages: [
        new AIMessage({
          content: '',
          tool_calls: [{ id: 'call_delete_1', name: 'delete_branch', args: { name: 'old-feature' }, type: 'tool_call' }],
        }),
      ],
    }))
    .addNode('tools', new ToolNode([deleteBranch]))
    .addNode('after_tool', (state) => say(`Tool said: ${String(state.messages[state.messages.length - 1]?.content)}`))
    .addNode('first', () =>
      say(
        `First: ${JSON.stringify(ask('first', { reason: 'aidev:user_question', message: 'First question', metadata: { questions: QUESTIONS } }))}`,
      ),
    )
    .addNode('second', () =>
      say(
        `Second: ${JSON.stringify(ask('second', { reason: 'aidev:user_question', message: 'Second question', metadata: { questions: QUESTIONS } }))}`,
      ),
    )
    .addNode('left', () =>
      say(
        `Left: ${JSON.stringify(ask('left', { reason: 'aidev:user_question', message: 'Left question', metadata: { questions: QUESTIONS } }))}`,
      ),
    )
    .addNode('right', () =>
      say(
        `Right: ${JSON.stringify(ask('right', { reason: 'aidev:user_question', message: 'Right question', metadata: { questions: QUESTIONS } }))}`,
      ),
    )
    .addNode('review', (state) => {
      const strict = lastHumanText(state.messages).includes('strict');
      return say(`Review answer: ${JSON.stringify(ask('review', strict ? STRICT_REVIEW_REQUEST : [REVIEW_REQUEST]))}`);
    })
    .addNode('chat', () => say('Hello! Ask me for a question, a plain interrupt, a tool, a sequence or parallel questions.'))
    .addConditionalEdges(
      START,
      (state) => {
        const text = lastHumanText(state.messages);
        if (text.includes('parallel')) return ['left', 'right'];
        if (text.includes('review')) return 'review';
        for (const node of ['question', 'plain', 'tool', 'sequence'] as const) {
          if (text.includes(node)) return node === 'tool' ? 'call_tool' : node === 'sequence' ? 'first' : node;
        }
        return 'chat';
      },
      ['question', 'plain', 'call_tool', 'first', 'left', 'right', 'review', 'chat'],
    )
    .addEdge('call_tool', 'tools')
    .addEdge('tools', 'after_tool')
    .addEdge('first', 'second')
    .addEdge('after_tool', END)
    .addEdge('question', END)
    .addEdge('plain', END)
    .addEdge('second', END)
    .addEdge('left', END)
    .addEdge('right', END)
    .addEdge('review', END)
    .addEdge('chat', END)
    .compile();
}
