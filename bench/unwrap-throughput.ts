/**
 * Figure 5, unwrap throughput: `unwrapInterrupt` on the legacy Mastra `on_interrupt` value (a JSON
 * string of the `mastra_suspend` wrapper, exactly as @ag-ui/mastra emits it) vs a bare `JSON.parse`
 * of the same string. Both run in the same Node process, interleaved round by round, and the
 * medians of the per-call times are compared.
 */
import { performance } from 'node:perf_hooks';
import { unwrapInterrupt } from '../src/unwrap';
import { legacyScheduleEvent } from '../test/fixtures/interrupts';
import { median } from './stats';

export interface ThroughputResult {
  /** Median nanoseconds per call. */
  oursNs: number;
  baselineNs: number;
  rounds: number;
  callsPerRound: number;
}

let sink: unknown;

function timeRound(fn: (input: string) => unknown, input: string, calls: number): number {
  const start = performance.now();
  for (let i = 0; i < calls; i++) sink = fn(input);
  return ((performance.now() - start) * 1e6) / calls;
}

export function measureUnwrapThroughput(rounds = 21, callsPerRound = 5000): ThroughputResult {
  const input = legacyScheduleEvent.value;
  const ours = (value: string) => unwrapInterrupt(value);
  const baseline = (value: string) => JSON.parse(value);
  // Sanity: the two must agree on the business payload, or the comparison means nothing.
  const unwrapped = unwrapInterrupt(input);
  if (unwrapped.problem || JSON.stringify(unwrapped.payload) !== JSON.stringify(JSON.parse(input).suspendPayload)) {
    throw new Error(`unwrapInterrupt did not recover the suspend payload: ${unwrapped.problem ?? 'payload differs'}`);
  }
  // Warm-up so both functions are optimised before timing.
  timeRound(ours, input, callsPerRound);
  timeRound(baseline, input, callsPerRound);
  const oursTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate the order so neither side always runs right after a GC of the other's garbage.
    if (round % 2 === 0) {
      oursTimes.push(timeRound(ours, input, callsPerRound));
      baselineTimes.push(timeRound(baseline, input, callsPerRound));
    } else {
      baselineTimes.push(timeRound(baseline, input, callsPerRound));
      oursTimes.push(timeRound(ours, input, callsPerRound));
    }
  }
  if (sink === undefined) throw new Error('unreachable');
  return { oursNs: median(oursTimes), baselineNs: median(baselineTimes), rounds, callsPerRound };
}
