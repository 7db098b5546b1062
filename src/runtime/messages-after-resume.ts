/**
 * A chat message sent with a resume, for an agent that takes no new message with one (a LangGraph
 * resume is a `Command`, and a run with a Command ignores its input): the middleware runs the
 * resume, keeps the message in what the chat is shown, then runs the message as a turn of its own
 * (see `CommandAnswer.messagesAfterResume`). No backend is named here.
 */
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/client';
import { isRecord } from '../wire/guards';

/** The user messages at the end of a run's input: what the chat sent with its answers (a steer-away's message). */
export function trailingUserMessages(input: RunAgentInput): Message[] {
  const messages = Array.isArray(input.messages) ? input.messages : [];
  let from = messages.length;
  while (from > 0 && isRecord(messages[from - 1]) && messages[from - 1].role === 'user') from--;
  return messages.slice(from).filter((message) => typeof message.id === 'string');
}

/**
 * A `MESSAGES_SNAPSHOT` with those of `waiting` it lacks appended (the chat keeps showing them
 * while their turn runs), and which those were; any other event as it is, with none missing.
 */
export function keepWaiting(event: BaseEvent, waiting: readonly Message[]): { event: BaseEvent; missing: Message[] } {
  const messages = (event as { messages?: unknown }).messages;
  if (event.type !== 'MESSAGES_SNAPSHOT' || !Array.isArray(messages)) return { event, missing: [] };
  const ids = new Set(messages.map((message: unknown) => (isRecord(message) ? message.id : undefined)));
  const missing = waiting.filter((message) => !ids.has(message.id));
  return { event: missing.length === 0 ? event : ({ ...event, messages: [...messages, ...missing] } as BaseEvent), missing };
}

/** Whether a RUN_FINISHED stops for interrupts (the agent asks again: the waiting message goes with that answer instead). */
export const stopsForInterrupts = (event: BaseEvent) => {
  const outcome = (event as { outcome?: unknown }).outcome;
  return isRecord(outcome) && outcome.type === 'interrupt';
};

/** The run that follows a resume for the messages it did not take: the same input without the answers. */
export function withoutResume(input: RunAgentInput): RunAgentInput {
  const rest: Record<string, unknown> = { ...input };
  delete rest.resume;
  return rest as unknown as RunAgentInput;
}
