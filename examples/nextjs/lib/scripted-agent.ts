import { randomUUID } from 'node:crypto';
import { AbstractAgent, EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import { userQuestionInterrupt } from 'copilotkit-interrupts/runtime';
import { Observable } from 'rxjs';
import { PICK_TIME_REASON } from './reasons';

/**
 * An AG-UI agent that plays a script instead of calling a model, so the example runs without
 * an API key. "question" in the user's message raises a question card, "book" or "schedule" a
 * time picker; the run that answers an interrupt replies with text quoting the answer.
 * Swap it for any real agent (Mastra, LangGraph, your own): the page does not change.
 */
export class ScriptedAgent extends AbstractAgent {
  override run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      const events = [{ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId }, ...this.respond(input)] as BaseEvent[];
      for (const event of events) subscriber.next(event);
      subscriber.complete();
    });
  }

  private respond(input: RunAgentInput): object[] {
    const finished = { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId };
    const answer = input.resume?.[0];
    if (answer) return [...text(replyTo(answer.status, answer.payload)), finished];

    const asked = lastUserText(input);
    const toolCallId = `call_${randomUUID()}`;
    if (/question/i.test(asked)) {
      const interrupt = userQuestionInterrupt({
        toolCallId,
        questions: [
          { header: 'Stack', question: 'Which database should the project use?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] },
        ],
      });
      return [{ ...finished, outcome: { type: 'interrupt', interrupts: [interrupt] } }];
    }
    if (/book|schedule/i.test(asked)) {
      const interrupt = {
        id: `${PICK_TIME_REASON}::${toolCallId}`,
        reason: PICK_TIME_REASON,
        toolCallId,
        metadata: { topic: 'Intro call', slots: SLOTS },
      };
      return [{ ...finished, outcome: { type: 'interrupt', interrupts: [interrupt] } }];
    }
    return [...text('Ask me a question, or ask me to book a call.'), finished];
  }

  override clone(): ScriptedAgent {
    return new ScriptedAgent({ agentId: this.agentId, threadId: this.threadId, initialMessages: this.messages });
  }
}

const SLOTS = [
  { label: 'Mon 10:00', iso: '2030-01-07T10:00:00Z' },
  { label: 'Mon 14:00', iso: '2030-01-07T14:00:00Z' },
  { label: 'Tue 09:00', iso: '2030-01-08T09:00:00Z' },
  { label: 'Tue 15:30', iso: '2030-01-08T15:30:00Z' },
];

function replyTo(status: string, payload: unknown): string {
  const answer = (payload ?? {}) as {
    chosen_label?: string;
    cancelled?: boolean;
    answers?: { answer?: { label?: string; description?: string }[] }[];
  };
  if (status === 'cancelled' || answer.cancelled) return 'Understood, nothing was done.';
  if (answer.chosen_label) return `Scheduled "Intro call" for ${answer.chosen_label}.`;
  const picked = answer.answers?.flatMap((item) => item.answer ?? []).map((item) => item.description || item.label);
  return `You answered: ${picked?.join(', ') || 'nothing'}.`;
}

function lastUserText(input: RunAgentInput): string {
  const last = [...input.messages].reverse().find((message) => message.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

function text(content: string): object[] {
  const messageId = randomUUID();
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: content },
    { type: EventType.TEXT_MESSAGE_END, messageId },
  ];
}
