/**
 * copilotkit-interrupts — the React half: the hook (which fetches the built-in cards on demand),
 * the stored-message renderer and the history store, plus the few framework-free names a React
 * app types its own renderers with (the rest is in `copilotkit-interrupts/core`). Every export is
 * listed by name: what is not here is internal.
 */

// The hook, and the contract every renderer implements
export { useInterruptRenderers, InterruptRenderers } from './interrupt-renderers';
export type { InterruptRenderersConfig } from '../hooks/types';
export type { WaitingNoticeOptions } from '../hooks/use-waiting-notice';
export type { InterruptRenderer, InterruptRendererProps, ToolGrants } from '../hooks/renderer-props';
export type { InterruptStatus } from '../src/session/status';

// The built-in renderers, fetched on demand (the cards themselves: `copilotkit-interrupts/cards`),
// and what each one resolves with
export { defaultRenderers } from './default-renderers';
export type { ToolApprovalResult } from './tool-approval-card/tool-approval-card';
export type { UserQuestionResult } from './user-question-card/user-question-card';
export type { TimePickerResult } from './time-picker-card/time-picker-card';

// Stored transcripts and CopilotKit's v1 chat
export { InterruptMessageRender, type InterruptMessageRenderProps } from './interrupt-message-render';
export { withInterruptEcho } from './host/with-interrupt-echo';

// Building your own renderer
export { useLocalInterruptState, type LocalInterruptState, type LocalInterruptStateOptions } from '../hooks/use-local-interrupt-state';
export { useCountdown, type Clock, type Countdown } from '../hooks/use-countdown';

// The inbox: threads waiting for the user, from the runtime's inbox endpoint
export { usePendingInterrupts, type PendingInterrupts, type UsePendingInterruptsOptions } from '../hooks/use-pending-interrupts';
export type { PendingInterrupt, PendingThread } from '../src/inbox';
export {
  PendingInterruptsList,
  PENDING_LIST_LABELS,
  type PendingInterruptsListLabels,
  type PendingInterruptsListProps,
} from './pending-interrupts-list';
export type { InboxCardsConfig } from './pending-thread-cards';

// Answers kept for the transcript (and across reloads)
export { createInterruptHistory } from '../src/history/create-interrupt-history';
export type { InterruptHistory, InterruptHistoryOptions, InterruptHistoryPersistence, InterruptHistoryRecord } from '../src/history/types';

// Languages: English built in, others one import away (`copilotkit-interrupts/locales/zh-CN`)
export { EN_LABELS, type InterruptLabels } from '../src/i18n/labels';
export type { InterruptLocale } from '../src/i18n/locale';

// From `./core`: what a React app's own renderers are typed with
export { InterruptReason, APPROVAL_STATUS } from '../src/protocol/constants';
export type {
  AIDevToolApprovalInterrupt,
  AnyInterruptResume,
  Interrupt,
  InterruptMessage,
  OnInterruptResume,
  UserQuestionInterrupt,
} from '../src/protocol/types';
export type { UnwrappedInterrupt } from '../src/unwrap/types';
export type { TimePickerPayload, TimeSlot } from '../src/unwrap/guards';
