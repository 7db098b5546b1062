import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { generateCandidateSlots } from '../time-slots';
import type { TimeSlot } from '../unwrap/guards';
import { missingSuspend, suspendContext } from './context';
import { asSentence } from './sentences';
import { timePickerResumeSchema, timePickerSuspendSchema, type TimePickerResume, type TimePickerSuspend } from './schemas';

export interface TimePickerToolInput {
  topic: string;
  attendee?: string;
}

export interface TimePickerToolOptions {
  /** Tool id. Default `schedule_meeting` (the TimePickerCard is registered as `tool:schedule_meeting`). */
  id?: string;
  description?: string;
  /**
   * The candidate slots to offer. Default: the four relative slots (Tomorrow 10:00 AM, Tomorrow
   * 2:00 PM, Monday 9:00 AM, Monday 3:30 PM) with ISO times, computed from `now()`.
   */
  slots?: (input: TimePickerToolInput) => TimeSlot[] | Promise<TimeSlot[]>;
  /** The clock for the default slots. Default: the current time. */
  now?: () => Date;
  /** The text the agent gets once the user picked or cancelled. Default: see {@link timePickerResultText}. */
  resultText?: (input: TimePickerToolInput, resume: TimePickerResume) => string;
}

export const DEFAULT_TIME_PICKER_DESCRIPTION =
  'Ask the user to pick a meeting time. Shows an interactive time picker in the chat and returns ' +
  'their selection. Call this whenever the user asks to book or schedule a meeting or a call.';

/**
 * The result a resumed `schedule_meeting` returns: `Scheduled "{topic}" for {label}.`, or, when the
 * user picked none, `The user cancelled — no meeting was scheduled.`
 */
export function timePickerResultText(input: TimePickerToolInput, resume: TimePickerResume): string {
  if (resume.cancelled) return 'The user cancelled — no meeting was scheduled.';
  const when = resume.chosen_label?.trim() || resume.chosen_time?.trim() || 'the chosen time';
  return asSentence(`Scheduled "${input.topic.trim()}" for ${when}`);
}

/**
 * A Mastra tool (`schedule_meeting`) that suspends the agent with `{topic, attendee?, slots}` for
 * the TimePickerCard and, once the user picked, returns a text the agent can quote.
 * The agent's Mastra instance needs storage so the suspended run can be resumed.
 *
 * @example
 * const agent = new Agent({ id: 'assistant', name: 'assistant', instructions, model, tools: { schedule_meeting: createTimePickerTool() } });
 */
export function createTimePickerTool(options: TimePickerToolOptions = {}) {
  const id = options.id ?? 'schedule_meeting';
  const resultText = options.resultText ?? timePickerResultText;
  return createTool({
    id,
    description: options.description ?? DEFAULT_TIME_PICKER_DESCRIPTION,
    inputSchema: z.object({
      topic: z.string().describe("What the meeting is about (e.g. 'Intro with sales')."),
      attendee: z.string().optional().describe("Who the meeting is with (e.g. 'Alice'), if known."),
    }),
    outputSchema: z.string(),
    suspendSchema: timePickerSuspendSchema,
    resumeSchema: timePickerResumeSchema,
    execute: async (input, executionContext) => {
      const { suspend, resumeData } = suspendContext<TimePickerSuspend, TimePickerResume>(executionContext);
      if (resumeData) return resultText(input, resumeData);
      if (!suspend) throw missingSuspend(id);
      const slots = options.slots ? await options.slots(input) : generateCandidateSlots({ now: options.now ? options.now() : new Date() });
      const payload: TimePickerSuspend = { topic: input.topic, slots };
      if (input.attendee) payload.attendee = input.attendee;
      // `return suspend(...)`: awaiting it and returning something else lets the loop run past the pause.
      return suspend(payload) as unknown as string;
    },
  });
}
