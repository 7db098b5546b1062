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

/**
 * A graph with every way a LangGraph app interrupts, chosen by the user's last message:
 * "question" (node-level interrupt with a reason payload), "plain" (a string), "tool" (inside a
 * tool run by ToolNode), "sequence" (two nodes one after the other), "parallel" (two branches).
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
    .addNode('question', () => say(`You answered ${JSON.stringify(ask('question', { reason: 'aidev:user_question', message: 'One question first', metadata: { questions: QUESTIONS } }))}`))
    .addNode('plain', () => say(`Plain answer: ${JSON.stringify(ask('plain', 'Approve the deploy?'))}`))
    .addNode('call_tool', () => ({
      messages: [new AIMessage({ content: '', tool_calls: [{ id: 'call_delete_1', name: 'delete_branch', args: { name: 'old-feature' }, type: 'tool_call' }] })],
    }))
    .addNode('tools', new ToolNode([deleteBranch]))
    .addNode('after_tool', (state) => say(`Tool said: ${String(state.messages[state.messages.length - 1]?.content)}`))
    .addNode('first', () => say(`First: ${JSON.stringify(ask('first', { reason: 'aidev:user_question', message: 'First question', metadata: { questions: QUESTIONS } }))}`))
    .addNode('second', () => say(`Second: ${JSON.stringify(ask('second', { reason: 'aidev:user_question', message: 'Second question', metadata: { questions: QUESTIONS } }))}`))
    .addNode('left', () => say(`Left: ${JSON.stringify(ask('left', { reason: 'aidev:user_question', message: 'Left question', metadata: { questions: QUESTIONS } }))}`))
    .addNode('right', () => say(`Right: ${JSON.stringify(ask('right', { reason: 'aidev:user_question', message: 'Right question', metadata: { questions: QUESTIONS } }))}`))
    .addNode('chat', () => say('Hello! Ask me for a question, a plain interrupt, a tool, a sequence or parallel questions.'))
    .addConditionalEdges(START, (state) => {
      const text = lastHumanText(state.messages);
      if (text.includes('parallel')) return ['left', 'right'];
      for (const node of ['question', 'plain', 'tool', 'sequence'] as const) {
        if (text.includes(node)) return node === 'tool' ? 'call_tool' : node === 'sequence' ? 'first' : node;
      }
      return 'chat';
    }, ['question', 'plain', 'call_tool', 'first', 'left', 'right', 'chat'])
    .addEdge('call_tool', 'tools')
    .addEdge('tools', 'after_tool')
    .addEdge('first', 'second')
    .addEdge('after_tool', END)
    .addEdge('question', END)
    .addEdge('plain', END)
    .addEdge('second', END)
    .addEdge('left', END)
    .addEdge('right', END)
    .addEdge('chat', END)
    .compile();
}
