/**
 * copilotkit-interrupts/cards — the built-in cards as components, for an app that draws one
 * itself: under its own reason, wrapped, or outside the chat. The hook in the main entry does not
 * need this entry: it fetches the cards it draws on demand.
 */
export { ToolApprovalCard, type ToolApprovalCardProps } from './tool-approval-card/tool-approval-card';
export { UserQuestionCard, type RenderQuestionContext, type UserQuestionCardProps } from './user-question-card/user-question-card';
export { TimePickerCard, type TimePickerCardProps } from './time-picker-card/time-picker-card';
export { FallbackInterruptCard, type FallbackInterruptCardProps } from './fallback-interrupt-card/fallback-interrupt-card';
export { CardShell, type CardShellProps, type ReadOnlyView } from './shared/card-shell';
export { useCardBasics, type CardBasics, type CardPhase } from './shared/use-card-basics';
