import { errorMessage } from '../error-message';
import { ResumeRefusal } from '../protocol/constants';
import { isRecord } from '../wire/guards';
import { REQUEST_CHANGED } from './interrupt-session';
import type { ResumeEntry } from './status';

/** A RUN_ERROR as the run carrying an answer reports it: its message, code and what the server sent with it. */
export interface RunErrorEvent {
  message?: unknown;
  code?: unknown;
  /** With `interrupt_already_answered`: the answers that won. */
  answers?: unknown;
  /** With `interrupt_changed`: the requests open now, signed by the server. */
  interrupts?: unknown;
}

/** What a run's error means for the answers it carried. */
export interface RunErrorMeaning {
  /** What the cards say went wrong. */
  failure: string;
  /** Sending the same answers again cannot work: no Retry. */
  final: boolean;
  /** Another device answered first, with these answers: the cards show them. */
  elsewhere?: ResumeEntry[];
  /** The requests changed: these are open now, to be drawn for a fresh review. */
  reopen?: Array<{ id: string; expiresAt?: unknown }>;
  /** An expected end the cards show, not a failed run: CopilotKit is not told (no console error). */
  expected: boolean;
}

/**
 * What a RUN_ERROR means for the answers the run carried, from its code: another device's answer
 * came first (`elsewhere`, expected); the request changed (final, and the requests open now are
 * drawn again); the interrupt is other people's to answer (final); anything else fails the answers
 * with the run's message, and Retry may send them again.
 */
export function runErrorMeaning(event: RunErrorEvent | undefined): RunErrorMeaning {
  const code = event?.code;
  const meaning: RunErrorMeaning = {
    failure: errorMessage(event?.message, 'The agent reported an error.'),
    final: false,
    expected: code === ResumeRefusal.AlreadyAnswered,
  };
  if (code === ResumeRefusal.Changed) {
    const reopen = openRequests(event?.interrupts);
    Object.assign(meaning, { failure: REQUEST_CHANGED, final: true }, reopen.length > 0 && { reopen });
  }
  if (code === ResumeRefusal.NotAnApprover || code === ResumeRefusal.FourEyes) meaning.final = true;
  if (code === ResumeRefusal.AlreadyAnswered && Array.isArray(event?.answers)) {
    meaning.elsewhere = event.answers.filter((a): a is ResumeEntry => isRecord(a) && typeof a.interruptId === 'string');
  }
  return meaning;
}

/** The requests a refusal as changed says are open now (those with an id). */
export function openRequests(interrupts: unknown): Array<{ id: string; expiresAt?: unknown }> {
  return Array.isArray(interrupts) ? interrupts.filter((i): i is { id: string } => isRecord(i) && typeof i.id === 'string') : [];
}
