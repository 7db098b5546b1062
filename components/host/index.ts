/**
 * The host: what `useInterruptRenderers` draws around the renderers. The slot CopilotKit shows,
 * the card host (renderer, error boundary, fallback), the transcript echo and the v1 wrapper.
 */
export { useInterruptRenderersWith } from './use-interrupt-renderers-with';
export { BuiltinFallbackCard } from './builtin-fallback-card';
export { withInterruptEcho, type V1RenderMessageProps } from './with-interrupt-echo';
