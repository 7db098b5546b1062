import { useLayoutEffect, type ComponentType } from 'react';

interface CustomMessageRendererEntry {
  agentId?: string;
  render: ComponentType<any> | null;
}

/** The part of CopilotKit's core that holds the chat's custom message renderers. */
export interface CustomMessageRendererHost {
  renderCustomMessages: CustomMessageRendererEntry[];
  setRenderCustomMessages(renderers: CustomMessageRendererEntry[]): void;
}

function register(host: CustomMessageRendererHost, agentId: string, render: ComponentType<any>): CustomMessageRendererEntry[] {
  const current = host.renderCustomMessages;
  if (current.some((entry) => entry.render === render)) return current.filter((entry) => entry.render !== render);
  host.setRenderCustomMessages([{ agentId, render }, ...current]);
  return current;
}

/**
 * Adds the echo to CopilotKit's custom message renderers for one agent, through the public
 * `setRenderCustomMessages`. Registration happens during render as well as in a layout effect:
 * a chat that mounts with messages already in it (a remount, a restored thread) reads the list
 * while rendering and would otherwise miss the echoes until its next update. Registering is
 * idempotent, so a repeated render does nothing.
 *
 * Returns a getter for the renderer the echo displaced (CopilotKit draws only the first match).
 */
export function useEchoRegistration(
  host: CustomMessageRendererHost,
  agentId: string,
  render: ComponentType<any>,
  enabled: boolean,
  displaced: { current: ComponentType<any> | null },
): void {
  const registerEcho = () => {
    // CopilotKit's own order: renderers for this agent first, then agent-less ones.
    const applicable = register(host, agentId, render).filter(
      (entry) => entry.render && (entry.agentId === undefined || entry.agentId === agentId),
    );
    displaced.current = (applicable.find((entry) => entry.agentId !== undefined) ?? applicable[0])?.render ?? null;
  };

  if (enabled && !host.renderCustomMessages.some((entry) => entry.render === render)) registerEcho();

  useLayoutEffect(() => {
    if (!enabled) return;
    registerEcho();
    return () => {
      host.setRenderCustomMessages(host.renderCustomMessages.filter((entry) => entry.render !== render));
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- registerEcho only reads these deps.
  }, [host, agentId, render, enabled, displaced]);
}
