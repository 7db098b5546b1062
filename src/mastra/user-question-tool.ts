import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { InterruptReason } from '../protocol/constants';
import type { UserQuestionItem } from '../protocol/types';
import { missingSuspend, suspendContext } from './context';
import { asSentence } from './sentences';
import {
  userQuestionItemSchema,
  userQuestionResumeSchema,
  userQuestionSuspendSchema,
  type UserQuestionResumeData,
  type UserQuestionSuspend,
} from './schemas';

export interface UserQuestionToolInput {
  questions?: UserQuestionItem[];
  message?: string;
}

export interface UserQuestionToolOptions {
  /** Tool id. Default `ask_user_questions`. */
  id?: string;
  description?: string;
  /** Questions to ask when the model passes none (fixed, or computed from the input). */
  questions?: UserQuestionItem[] | ((input: UserQuestionToolInput) => UserQuestionItem[] | Promise<UserQuestionItem[]>);
  /** The text the agent gets on resume. Default: see {@link userQuestionResultText}. */
  resultText?: (input: UserQuestionToolInput, resume: UserQuestionResumeData) => string;
  /** Answers are accepted for this long (the card counts down, then shows "Expired"). Default: no limit. */
  expiresInMs?: number;
}

export const DEFAULT_USER_QUESTION_DESCRIPTION =
  'Ask the user one or more questions, each with options to choose from (or free text), before ' +
  'going on. Shows a question card in the chat and returns the answers.';

/** The result a resumed question tool returns: `The user answered: "Q" → A; "Q2" → B, C.` */
export function userQuestionResultText(_input: UserQuestionToolInput, resume: UserQuestionResumeData): string {
  if (resume.answers.length === 0) return 'The user gave no answers.';
  const parts = resume.answers.map((item) => {
    // Typed answers end however the user ended them; a full stop or comma inside the list would not read.
    const picked = item.answer
      .map((a) => (a.label === 'others' ? (a.description ?? '').replace(/[\s.,;:\-–—]+$/u, '').trim() || 'other' : a.label))
      .join(', ');
    return `"${item.question}" → ${picked || '(no answer)'}`;
  });
  return asSentence(`The user answered: ${parts.join('; ')}`);
}

/**
 * A Mastra tool that suspends with an `aidev:user_question` payload
 * (`{reason, message?, metadata: {questions}}`) for the UserQuestionCard, and on resume returns the
 * answers as a text the agent can quote.
 *
 * @example
 * createUserQuestionTool({ questions: [{ header: 'Stack', question: 'Which database?', options: [{ label: 'Postgres', description: 'Relational' }] }] });
 */
export function createUserQuestionTool(options: UserQuestionToolOptions = {}) {
  const id = options.id ?? 'ask_user_questions';
  const resultText = options.resultText ?? userQuestionResultText;
  return createTool({
    id,
    description: options.description ?? DEFAULT_USER_QUESTION_DESCRIPTION,
    inputSchema: z.object({
      questions: z
        .array(userQuestionItemSchema)
        .optional()
        .describe(
          'The questions: header (a short tag), question, multiSelect, options [{label, description}]; no options means free text.',
        ),
      message: z.string().optional().describe('One sentence shown above the questions.'),
    }),
    outputSchema: z.string(),
    suspendSchema: userQuestionSuspendSchema,
    resumeSchema: userQuestionResumeSchema,
    execute: async (input, executionContext) => {
      const { suspend, resumeData } = suspendContext<UserQuestionSuspend, UserQuestionResumeData>(executionContext);
      if (resumeData) return resultText(input, resumeData);
      if (!suspend) throw missingSuspend(id);
      let questions = input.questions;
      if (!questions || questions.length === 0) {
        questions = typeof options.questions === 'function' ? await options.questions(input) : options.questions;
      }
      if (!questions || questions.length === 0) throw new Error(`${id} needs at least one question.`);
      const payload: UserQuestionSuspend = { reason: InterruptReason.UserQuestion, metadata: { questions } };
      if (input.message) payload.message = input.message;
      if (options.expiresInMs !== undefined) payload.expiresAt = new Date(Date.now() + options.expiresInMs).toISOString();
      return suspend(payload) as unknown as string;
    },
  });
}
