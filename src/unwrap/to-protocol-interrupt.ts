import type { Interrupt } from '../protocol/types';
import type { UnwrappedInterrupt } from './types';

/**
 * The protocol `Interrupt` (src/protocol) for an unwrapped one: what `onInterruptResume` receives as its
 * second argument.
 *
 * @example
 * onInterruptResume({ operation: 'approval_cancel', payload: { interrupt_id: i.id } }, toProtocolInterrupt(i));
 */
export function toProtocolInterrupt(interrupt: UnwrappedInterrupt): Interrupt {
  const out: Record<string, unknown> = {
    id: interrupt.id,
    reason: interrupt.reason,
    toolCallId: interrupt.toolCallId ?? '',
    metadata: interrupt.metadata,
  };
  if (interrupt.message !== undefined) out.message = interrupt.message;
  if (interrupt.expiresAt !== undefined) out.expiresAt = interrupt.expiresAt;
  return out as Interrupt;
}
