import { useLayoutEffect } from 'react';

/** One of CopilotKit's custom message renderers; `R` is the component type. */
export interface CustomMessageRendererEntry<R> {
  agentId?: string;
  render: R | null;
}

/** The part of CopilotKit's core that holds the chat's custom message renderers. */
export interface CustomMessageRendererHost<R> {
  renderCustomMessages: CustomMessageRendererEntry<R>[];
  setRenderCustomMessages(renderers: CustomMessageRendererEntry<R>[]): void;
}

/**
 * The renderer CopilotKit would draw for `agentId` if `render` were not registered: CopilotKit
 * draws only the first match, so the echo draws this one too. Derived from the host's list on
 * every call, never stored, so it follows the app registering or removing renderers.
 */
export function displacedRenderer<R>(host: CustomMessageRendererHost<R>, agentId: string, render: R): R | null {
  // CopilotKit's own order: renderers for this agent first, then agent-less ones.
  const applicable = host.renderCustomMessages.filter(
    (entry) => entry.render && entry.render !== render && (entry.agentId === undefined || entry.agentId === agentId),
  );
  return (applicable.find((entry) => entry.agentId !== undefined) ?? applicable[0])?.render ?? null;
}

function register<R>(host: CustomMessageRendererHost<R>, agentId: string, render: R): void {
  if (host.renderCustomMessages.some((entry) => entry.render === render)) return;
  host.setRenderCustomMessages([{ agentId, render }, ...host.renderCustomMessages]);
}

/**
 * Adds the echo to CopilotKit's custom message renderers for one agent, through the public
 * `setRenderCustomMessages`. Registration happens during render as well as in a layout effect:
 * a chat that mounts with messages already in it (a remount, a restored thread) reads the list
 * while rendering and would otherwise miss the echoes until its next update. Registering is
 * idempotent, so a repeated render does nothing.
 */
export function useEchoRegistration<R>(host: CustomMessageRendererHost<R>, agentId: string, render: R, enabled: boolean): void {
  if (enabled) register(host, agentId, render);

  useLayoutEffect(() => {
    if (!enabled) return;
    register(host, agentId, render);
    return () => {
      host.setRenderCustomMessages(host.renderCustomMessages.filter((entry) => entry.render !== render));
    };
  }, [host, agentId, render, enabled]);
}
