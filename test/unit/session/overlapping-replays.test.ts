// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InterruptSession, keyOf, type InterruptKey, type SessionDecision } from '../../../src/session';

/** One stop of a thread's past: the run that raised it and the ids it asked for. */
interface Stop {
  runId: string;
  ids: string[];
}

/** What one connect's stream shows the session, in order. */
type ReplayStep =
  { type: 'start' } | { type: 'raised'; stop: number } | { type: 'answered'; stop: number } | { type: 'chat-turn' } | { type: 'end' };

/** A thread's stops: runs drawn from a small pool (a resume run may continue the run that stopped), ids unique per stop. */
const history = fc
  .array(fc.record({ run: fc.integer({ min: 1, max: 3 }), size: fc.integer({ min: 1, max: 2 }) }), { minLength: 1, maxLength: 5 })
  .map((stops) =>
    stops.map(({ run, size }, n): Stop => ({ runId: `run-${run}`, ids: Array.from({ length: size }, (_, i) => `s${n}-${i}`) })),
  );

/** One connect's replay of `stops`: each settled stop, the run that answered it, sometimes a chat turn; the last stop left open. */
function replayOf(stops: Stop[], chatTurns: boolean[]): ReplayStep[] {
  const steps: ReplayStep[] = [{ type: 'start' }];
  stops.forEach((_, stop) => {
    steps.push({ type: 'raised', stop });
    if (stop === stops.length - 1) return;
    steps.push({ type: 'answered', stop });
    if (chatTurns[stop % chatTurns.length]) steps.push({ type: 'chat-turn' });
  });
  steps.push({ type: 'end' });
  return steps;
}

/** Two sequences merged in the order `picks` gives, each keeping its own order. */
function interleave<T>(a: T[], b: T[], picks: boolean[]): Array<[0 | 1, T]> {
  const merged: Array<[0 | 1, T]> = [];
  let i = 0;
  let j = 0;
  for (let n = 0; i < a.length || j < b.length; n++) {
    const fromA = j >= b.length || (i < a.length && picks[n % picks.length]);
    merged.push(fromA ? [0, a[i++]] : [1, b[j++]]);
  }
  return merged;
}

describe('InterruptSession, given connects that overlap (the chat connects twice on one switch)', () => {
  it('should draw each stop once whatever the interleaving: settled cards stay as they were, the open set stays open, nothing is sent', () => {
    fc.assert(
      fc.property(
        history,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 24 }),
        fc.boolean(),
        (stops, chatTurns, picks, leftAndCameBack) => {
          const s = new InterruptSession({ threadId: 't1' });
          const raisedKeys: InterruptKey[][] = [];
          // The thread as it happened here: each stop answered and delivered, the last one left open.
          stops.forEach((stop, n) => {
            s.raised(
              stop.runId,
              stop.ids.map((id) => ({ id })),
            );
            raisedKeys.push([...s.openSet]);
            if (n === stops.length - 1) return;
            for (const key of s.openSet) s.answered(key, { status: 'resolved', payload: key.id });
            for (const decision of s.openSet.flatMap((key) => s.painted(key))) {
              if (decision.type === 'send') s.delivered(decision.batch.batchId);
            }
          });
          const recordIds = raisedKeys.flat().map((key) => s.get(key)?.recordId);
          const open = raisedKeys[raisedKeys.length - 1];
          if (leftAndCameBack) {
            s.threadSwitched('t2');
            s.threadSwitched('t1');
          }

          const streams = [{}, {}];
          const decisions: SessionDecision[] = [];
          const steps = interleave(replayOf(stops, chatTurns), replayOf(stops, chatTurns), picks);
          for (const [n, step] of steps) {
            const stream = streams[n];
            if (step.type === 'start') decisions.push(...s.replayStarted());
            if (step.type === 'end') s.replayEnded();
            if (step.type === 'raised') {
              const { runId, ids } = stops[step.stop];
              decisions.push(
                ...s.raised(
                  runId,
                  ids.map((id) => ({ id })),
                  { stream },
                ),
              );
            }
            if (step.type === 'answered') {
              const resume = stops[step.stop].ids.map((id) => ({ interruptId: id, status: 'resolved' as const, payload: id }));
              decisions.push(...s.answeredInThread(resume, { stream }));
            }
            if (step.type === 'chat-turn') decisions.push(...s.otherRunStarted({ stream }));
          }

          expect(s.replaying).toBe(false);
          expect(s.openSet.map(keyOf)).toEqual(open.map(keyOf));
          expect(open.map((key) => s.get(key)?.phase)).toEqual(open.map(() => 'open'));
          expect(
            raisedKeys
              .slice(0, -1)
              .flat()
              .map((key) => s.get(key)?.phase),
          ).toEqual(
            raisedKeys
              .slice(0, -1)
              .flat()
              .map(() => 'resolved'),
          );
          // No stop got a second card: its key counted as a later raise of its run names nothing.
          for (const key of raisedKeys.flat()) expect(s.get({ ...key, raise: (key.raise ?? 0) + 1 })).toBeUndefined();
          expect(raisedKeys.flat().map((key) => s.get(key)?.recordId)).toEqual(recordIds);
          expect(decisions.filter((d) => d.type === 'send' || d.type === 'show-error')).toEqual([]);
        },
      ),
    );
  });
});
