import type { UnwrappedInterrupt } from './types';
import { unwrapInterrupt } from './unwrap-interrupt';

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
  if (Array.isArray(input.interrupts) && input.interrupts.length > 0) {
    return input.interrupts.map(unwrapInterrupt);
  }
  if (input.interrupt != null) return [unwrapInterrupt(input.interrupt)];
  if (input.event != null) return [unwrapInterrupt(input.event)];
  return [];
}
