import { useEffect, type ReactElement } from 'react';
import type { InterruptRenderersConfig } from '../hooks/types';
import { useInterruptRenderersWith } from './host/use-interrupt-renderers-with';
import { cardsInUse, defaultFallback, defaultRenderers, preloadCards } from './default-renderers';

const DEFAULTS = { renderers: defaultRenderers, fallback: defaultFallback };

/**
 * Render every interrupt of one agent as a card inside `<CopilotChat>`, drawn by the renderer
 * its reason picks: the built-in ones (approval, user question, time picker), yours merged over
 * them, and the fallback for the rest. Use it once per agent; CopilotKit has a single interrupt slot. After an answer the card
 * turns read-only, the agent resumes once that is painted, and the card stays in the transcript.
 *
 * @example
 * function Chat() {
 *   useInterruptRenderers({ onInterruptResume: (resume) => console.log(resume) });
 *   return <CopilotChat />;
 * }
 */
export function useInterruptRenderers(config: InterruptRenderersConfig = {}): ReactElement | null {
  // The cards are fetched now, while the chat starts, so the first interrupt draws without a
  // placeholder; again only when the set in use changes (inline options are new on every render).
  const inUse = cardsInUse(config.renderers, config.fallback);
  useEffect(() => preloadCards(inUse), [inUse]);
  return useInterruptRenderersWith(config, DEFAULTS);
}

/**
 * The component form of {@link useInterruptRenderers}. Place it inside the CopilotKit provider,
 * before the chat. With `renderInChat={false}` it renders the open cards where it stands.
 *
 * @example
 * <CopilotKitProvider runtimeUrl="/api/copilotkit">
 *   <InterruptRenderers history={createInterruptHistory({ persistence: 'localStorage' })} />
 *   <CopilotChat />
 * </CopilotKitProvider>
 */
export function InterruptRenderers(props: InterruptRenderersConfig): ReactElement | null {
  return useInterruptRenderers(props);
}
