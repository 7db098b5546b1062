/**
 * The legacy backend: an agent that sends only `on_interrupt` events (no interrupt outcome). The
 * run finishes with a standard interrupt outcome built from them (ids `legacy::…`, which carry the
 * event); their resume is sent the legacy way, `forwardedProps.command = {resume, interruptEvent}`
 * (several answers: `resume` maps each interrupt's own id, or ours, to its answer; a cancel is
 * `false`, as @ag-ui/mastra reads it). Last but one in the list: it reads any event.
 */
import { isRecord } from '../../wire/guards';
import { decodeValue, nonEmptyText } from '../../wire/shapes';
import type { CommandAnswer, InterruptBackend } from '../types';
import { LEGACY_INTERRUPT_ID_PREFIX, fromLegacyData, legacyInterruptId, parseLegacyId } from './ids';

export const legacyBackend: InterruptBackend = {
  name: 'legacy on_interrupt events',
  idPrefixes: [LEGACY_INTERRUPT_ID_PREFIX],
  fromEvent({ value, index }, { runId, report }) {
    if (value === undefined || value === null) return [];
    const decoded = decodeValue(value);
    const agentId = decoded.ok && isRecord(decoded.value) ? nonEmptyText(decoded.value.id) : undefined;
    const { id, problem } = legacyInterruptId(runId, index, { ...(agentId ? { agentId } : {}), event: value });
    if (problem) report(problem, value);
    return [fromLegacyData(id, value)];
  },
  toResume(answers, { report }) {
    const command: CommandAnswer[] = answers.map((answer) => {
      const parsed = parseLegacyId(answer.interruptId);
      const carried = parsed.kind === 'legacy' ? parsed.carried : undefined;
      if (parsed.kind === 'legacy' && parsed.problem) report(parsed.problem, answer.interruptId);
      return {
        key: carried?.agentId ?? answer.interruptId,
        // Two values that share their own id (a fixed id reused in one run) keep ours, so neither is lost.
        fallbackKey: answer.interruptId,
        value: answer.status === 'cancelled' ? false : (answer.payload ?? null),
        alone: true,
        ...(carried && 'event' in carried ? { interruptEvent: { value: carried.event } } : {}),
      };
    });
    return { command };
  },
};
