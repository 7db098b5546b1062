import { Suspense, useSyncExternalStore } from 'react';
import type { UnwrappedInterrupt } from '../../src/unwrap';
import { InterruptCard } from './interrupt-card';
import type { InterruptController } from '../../hooks/card-view';
import { onDemand } from './on-demand';

const NoBatchReview = () => null;

/**
 * The "Approve all" bar over a set of two approvals or more. Like the built-in cards, its code is
 * its own chunk, fetched when the hook mounts (see `useInterruptRenderersWith`), not carried in an
 * app's first load. A fetch that fails leaves the bar out: each card still answers on its own.
 */
export const BatchReview = onDemand(() =>
  import('./batch-review').then(
    (m) => m.BatchReview,
    () => NoBatchReview,
  ),
);

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
      <Suspense fallback={null}>
        <BatchReview controller={controller} interrupts={set} />
      </Suspense>
      {set.map((interrupt) => (
        <InterruptCard key={interrupt.id} controller={controller} interrupt={interrupt} threadId={controller.threadId} slot />
      ))}
    </>
  );
}
