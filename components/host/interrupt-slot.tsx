import { useSyncExternalStore } from 'react';
import type { UnwrappedInterrupt } from '../../src/unwrap';
import { InterruptCard } from './interrupt-card';
import type { InterruptController } from '../../hooks/card-view';
import { BatchReview } from './batch-review';

/**
 * What the hook hands to CopilotKit's single interrupt slot: every open interrupt as its card.
 * Without `interrupts` (the hook placed it while CopilotKit shows none), the set the agent still
 * waits on, as the controller drew it. A card whose read-only echo is mounted in the transcript
 * steps aside, so it is shown once, at the place the interrupt appeared, and survives CopilotKit
 * clearing the slot; so do the cards of a thread the chat left. Cards the controller drew again
 * after the server refused an answer as changed replace the set CopilotKit still shows.
 */
export function InterruptSlot({ controller, interrupts }: { controller: InterruptController; interrupts?: UnwrappedInterrupt[] }) {
  const waiting = useSyncExternalStore(controller.subscribe, () => controller.waiting);
  const reopened = useSyncExternalStore(controller.subscribe, () => controller.reopened);
  const set = reopened ?? interrupts ?? waiting;
  return (
    <>
      <BatchReview controller={controller} interrupts={set} />
      {set.map((interrupt) => (
        <InterruptCard key={interrupt.id} controller={controller} interrupt={interrupt} threadId={controller.threadId} slot />
      ))}
    </>
  );
}
