import { createUnwrapBudget, UNWRAP_LIMITS } from './sanitize';
import type { UnwrappedInterrupt } from './types';
import { UNKNOWN_REASON, unwrapInterrupt } from './unwrap-interrupt';

/** The part of CopilotKit's `useInterrupt` render props that carries interrupts. */
export interface InterruptRenderInput {
  event?: unknown;
  interrupt?: unknown;
  interrupts?: readonly unknown[] | null;
}

/**
 * One {@link UnwrappedInterrupt} per open interrupt in CopilotKit's render props: the standard
 * ones from `interrupts` (or `interrupt`), else the legacy `on_interrupt` event.
 *
 * @example
 * useInterrupt({ render: (props) => unwrapInterrupts(props).map((i) => <Card key={i.id} interrupt={i} />) });
 */
export function unwrapInterrupts(input: InterruptRenderInput | null | undefined): UnwrappedInterrupt[] {
  if (!input || typeof input !== 'object') return [];
  // One budget for the whole set: the caps hold for all interrupts together, not each.
  const budget = createUnwrapBudget();
  const { interrupts } = input;
  if (Array.isArray(interrupts) && interrupts.length > 0) {
    const count = Math.min(interrupts.length, UNWRAP_LIMITS.maxInterrupts);
    const out: UnwrappedInterrupt[] = [];
    for (let i = 0; i < count; i++) out.push(unwrapInterrupt(interrupts[i], budget));
    if (interrupts.length > count) out.push(tooManyInterrupts(interrupts.length));
    return out;
  }
  if (input.interrupt != null) return [unwrapInterrupt(input.interrupt, budget)];
  if (input.event != null) return [unwrapInterrupt(input.event, budget)];
  return [];
}

/** Stands for the interrupts past the limit, so they are not dropped without a word. */
const tooManyInterrupts = (count: number): UnwrappedInterrupt => ({
  id: `invalid-too-many-interrupts-${count}`,
  reason: UNKNOWN_REASON,
  metadata: {},
  payload: undefined,
  source: 'raw',
  raw: undefined,
  problem: `Only ${UNWRAP_LIMITS.maxInterrupts} of ${count} interrupts are shown.`,
});
