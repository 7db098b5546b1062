import { createUnwrapBudget, UNWRAP_LIMITS } from '../wire/sanitize';
import type { UnwrappedInterrupt } from './types';
import { errorMessage } from '../error-message';
import { invalid, unwrapInterrupt } from './unwrap-interrupt';

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
  const out: UnwrappedInterrupt[] = [];
  try {
    if (!input || typeof input !== 'object') return out;
    // One budget for the whole set: the caps hold for all interrupts together, not each.
    const budget = createUnwrapBudget();
    const { interrupts } = input;
    if (Array.isArray(interrupts) && interrupts.length > 0) {
      const count = Math.min(interrupts.length, UNWRAP_LIMITS.maxInterrupts);
      for (let i = 0; i < count; i++) out.push(unwrapInterrupt(interrupts[i], budget));
      // Stands for the interrupts left out, so none is dropped without a word.
      if (interrupts.length > count)
        out.push(
          invalid(
            `too-many-interrupts-${interrupts.length}`,
            undefined,
            `Only ${UNWRAP_LIMITS.maxInterrupts} of ${interrupts.length} interrupts are shown.`,
          ),
        );
    } else {
      const one = input.interrupt ?? input.event;
      if (one != null) out.push(unwrapInterrupt(one, budget));
    }
  } catch (error) {
    // Like unwrapInterrupt, never throw: props whose reading throws (a hostile getter or proxy)
    // keep what was read and get one card that says what went wrong.
    out.push(invalid(`unreadable-interrupts-${out.length}`, undefined, `The interrupts could not be read (${errorMessage(error)}).`));
  }
  return out;
}
