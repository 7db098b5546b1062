import type { AnyInterruptRenderer } from '../hooks/renderer-props';
import { onDemand } from './host/on-demand';

// Each card is its own chunk, fetched when the hook mounts (see `preloadCards`) or when an
// interrupt first needs it: an app's first load carries the hook, not the cards.
const ToolApprovalCard = onDemand(() => import('./tool-approval-card/tool-approval-card').then((m) => m.ToolApprovalCard));
const UserQuestionCard = onDemand(() => import('./user-question-card/user-question-card').then((m) => m.UserQuestionCard));
const TimePickerCard = onDemand(() => import('./time-picker-card/time-picker-card').then((m) => m.TimePickerCard));

const FallbackInterruptCard = onDemand(() =>
  import('./fallback-interrupt-card/fallback-interrupt-card').then((m) => m.FallbackInterruptCard),
);

/** The renderer for every interrupt no key claims (and for one whose renderer threw). */
export const defaultFallback = FallbackInterruptCard as AnyInterruptRenderer;

/**
 * The built-in cards, keyed the way the registry looks them up:
 * exact reason, `tool:<toolName>`, `<namespace>:*`. Each fetches its code on demand, so one drawn
 * outside the hook needs a `<Suspense>` around it; to draw a card yourself, import it from
 * `copilotkit-interrupts/cards` instead.
 */
export const defaultRenderers: Readonly<Record<string, AnyInterruptRenderer>> = Object.freeze({
  'aidev:tool_approval': ToolApprovalCard as AnyInterruptRenderer,
  'aidev:user_question': UserQuestionCard as AnyInterruptRenderer,
  'tool:schedule_meeting': TimePickerCard as AnyInterruptRenderer,
});

/**
 * Fetches every built-in card, so the first interrupt draws at once. Never rejects: a card that
 * cannot be fetched is reported when it is drawn, by the renderer's error boundary.
 */
export function preloadCards(): void {
  for (const card of [ToolApprovalCard, UserQuestionCard, TimePickerCard, FallbackInterruptCard]) card.preload().catch(() => undefined);
}
