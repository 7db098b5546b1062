/**
 * copilotkit-interrupts — everything a React app needs: the core (protocol, unwrap, registry),
 * the hooks and the cards.
 */
export * from '../src/index';
// The history store, card labels and candidate slots serve the React layer: exported here,
// keeping `./core` to what any framework or server needs to read an interrupt.
export * from '../src/history';
export * from '../src/i18n';
export * from '../src/time-slots';
export { TimePickerCard, type TimePickerCardProps, type TimePickerResult } from './time-picker-card';
export { ToolApprovalCard, type ToolApprovalCardProps, type ToolApprovalResult } from './tool-approval-card';
export {
  UserQuestionCard,
  type RenderQuestionContext,
  type UserQuestionCardProps,
  type UserQuestionResult,
} from './user-question-card';
export { FallbackInterruptCard, type FallbackInterruptCardProps } from './fallback-interrupt-card';
export { InterruptMessageRender, type InterruptMessageRenderProps } from './interrupt-message-render';
export { defaultFallback, defaultRenderers } from './default-renderers';
export { useCountdown, formatRemaining, type Clock, type Countdown } from '../hooks/use-countdown';
export { useLocalInterruptState, type LocalInterruptState, type LocalInterruptStateOptions } from '../hooks/use-local-interrupt-state';
export { useInterruptRenderers, InterruptRenderers } from './interrupt-renderers';
export {
  DEFAULT_RESOLVE_DELAY_MS,
  type InterruptRenderer,
  type InterruptRendererProps,
  type InterruptRenderersConfig,
  type InterruptResumeHandler,
  type InterruptStatus,
} from '../hooks';
export { BuiltinFallbackCard, withInterruptEcho } from './host';
