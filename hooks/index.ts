export type {
  ApprovalTicket,
  InterruptRenderer,
  InterruptRendererProps,
  InterruptResumeHandler,
  InterruptStatus,
} from './renderer-props';
export { useInterruptRenderersWith } from './use-interrupt-renderers-with';
export { DEFAULT_RESOLVE_DELAY_MS, type InterruptRendererDefaults, type InterruptRenderersConfig } from './types';
export { BuiltinFallbackCard } from './builtin-fallback-card';
export { afterPaint } from './after-paint';
export { withInterruptEcho, type V1RenderMessageProps } from './with-interrupt-echo';
