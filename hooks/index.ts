export type {
  ApprovalTicket,
  InterruptRenderer,
  InterruptRendererProps,
  InterruptResumeHandler,
  InterruptStatus,
} from './renderer-props';
export { DEFAULT_RESOLVE_DELAY_MS, type InterruptRendererDefaults, type InterruptRenderersConfig } from './types';
export { afterPaint } from './after-paint';
