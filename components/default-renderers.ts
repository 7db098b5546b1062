import type { AnyInterruptRenderer } from '../hooks/renderer-props';
import { onDemand } from './host/on-demand';

// Each card is its own chunk, fetched when the hook mounts (see `preloadCards`) or when an
// interrupt first needs it: an app's first load carries the hook, not the cards.
/** Every built-in card by its key, the fallback under `fallback`: what `preloadCards` fetches. */
const cards = {
  'aidev:tool_approval': onDemand(() => import('./tool-approval-card/tool-approval-card').then((m) => m.ToolApprovalCard)),
  'aidev:user_question': onDemand(() => import('./user-question-card/user-question-card').then((m) => m.UserQuestionCard)),
  'tool:schedule_meeting': onDemand(() => import('./time-picker-card/time-picker-card').then((m) => m.TimePickerCard)),
  fallback: onDemand(() => import('./fallback-interrupt-card/fallback-interrupt-card').then((m) => m.FallbackInterruptCard)),
};
const { fallback, ...builtIn } = cards;

/** The renderer for every interrupt no key claims (and for one whose renderer threw). */
export const defaultFallback = fallback as AnyInterruptRenderer;

/**
 * The built-in cards, keyed the way the registry looks them up:
 * exact reason, `tool:<toolName>`, `<namespace>:*`. Each fetches its code on demand, so one drawn
 * outside the hook needs a `<Suspense>` around it; to draw a card yourself, import it from
 * `copilotkit-interrupts/cards` instead.
 */
export const defaultRenderers: Readonly<Record<string, AnyInterruptRenderer>> = Object.freeze(
  builtIn as Record<string, AnyInterruptRenderer>,
);

/**
 * The keys of the built-in cards a chat with these options draws, as one string (an effect's
 * dependency that changes only with the set): those the app's `renderers` do not replace, and the
 * fallback unless it gives its own. (A built-in card an app puts under another key is fetched when
 * first drawn.)
 *
 * @example
 * cardsInUse({ 'tool:schedule_meeting': MyPicker }); // 'aidev:tool_approval aidev:user_question fallback'
 */
export const cardsInUse = (renderers: Readonly<Record<string, unknown>> = {}, fallback?: unknown): string =>
  Object.keys(cards)
    .filter((key) => !(key === 'fallback' ? fallback : renderers[key]))
    .join(' ');

/**
 * Fetches the built-in cards in use (see {@link cardsInUse}), so the first interrupt draws at once
 * and a card the app replaced is never downloaded. Never rejects: a card that cannot be fetched
 * is reported when it is drawn, by the renderer's error boundary.
 */
export function preloadCards(inUse: string): void {
  for (const key of inUse.split(' ')) cards[key as keyof typeof cards]?.preload().catch(() => undefined);
}
