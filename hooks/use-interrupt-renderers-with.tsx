import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ComponentType, type ReactElement } from 'react';
import { useAgent, useCopilotKit, useInterrupt } from '@copilotkit/react-core/v2';
import { createInterruptHistory } from '../src/history';
import { unwrapInterrupts } from '../src/unwrap';
import { BuiltinFallbackCard } from './builtin-fallback-card';
import { controllerRegistry } from './controller-registry';
import { createInterruptEcho } from './interrupt-echo';
import { InterruptController, type ControlledAgent, type ControlledCopilotKit } from './interrupt-controller';
import { InterruptSlot } from './interrupt-slot';
import { createRendererPicker } from './pick-renderer';
import { DEFAULT_RESOLVE_DELAY_MS, type InterruptRendererDefaults, type InterruptRenderersConfig } from './types';
import { useEchoRegistration, type CustomMessageRendererHost } from './use-echo-registration';

const DEFAULT_AGENT_ID = 'default';

/**
 * The implementation behind `useInterruptRenderers`, with the default cards passed in (the
 * component layer owns them; hooks must not import components). Apps use
 * `useInterruptRenderers` from the package root instead.
 *
 * @example
 * useInterruptRenderersWith({ renderers: { 'aidev:user_question': MyQuestionCard } }, { renderers: {} });
 */
export function useInterruptRenderersWith(
  config: InterruptRenderersConfig,
  defaults: InterruptRendererDefaults,
): ReactElement | null {
  const { copilotkit } = useCopilotKit();
  const { agent } = useAgent({ agentId: config.agentId, updates: [] });
  const agentId = config.agentId ?? agent?.agentId ?? DEFAULT_AGENT_ID;
  const renderInChat = config.renderInChat !== false;

  const [ownHistory] = useState(createInterruptHistory);
  const history = config.history ?? ownHistory;
  const settings = {
    agentId,
    resolveDelayMs: config.resolveDelayMs ?? DEFAULT_RESOLVE_DELAY_MS,
    onInterruptResume: config.onInterruptResume,
    allowAlways: config.allowAlways,
  };

  const fallback = config.fallback ?? defaults.fallback ?? BuiltinFallbackCard;
  const view = useMemo(
    () => ({
      pick: createRendererPicker(defaults.renderers, config.renderers, fallback),
      fallback,
      locale: config.locale ?? 'en',
      labels: config.labels,
    }),
    [defaults.renderers, config.renderers, fallback, config.locale, config.labels],
  );

  // One controller per history; the echo component is bound to it, so both change together.
  const displaced = useRef<ComponentType<any> | null>(null);
  const { controller, Echo } = useMemo(() => {
    const created = new InterruptController(history, settings, view);
    return { controller: created, Echo: createInterruptEcho(created, () => displaced.current) };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- settings and view are pushed below, not rebuilt.
  }, [history]);
  // Read at send time only; no card shows them, so assigning during render is safe.
  controller.settings = settings;
  // Assigned during render so cards drawn in this pass see it; the layout effect then wakes the
  // cards CopilotKit keeps memoized (a card whose view is already current does not redraw).
  controller.view = view;
  useLayoutEffect(() => controller.setView(view), [controller, view]);

  useEffect(() => {
    if (!agent) return;
    const detach = controller.attach(agent as unknown as ControlledAgent, copilotkit as unknown as ControlledCopilotKit);
    return () => {
      detach();
      controller.dispose();
    };
  }, [controller, agent, copilotkit]);

  useEchoRegistration(copilotkit as unknown as CustomMessageRendererHost, agentId, Echo, renderInChat, displaced);
  // For `withInterruptEcho` (v1 UI), which finds this controller by CopilotKit instance and agent.
  useLayoutEffect(() => controllerRegistry.set(copilotkit, agentId, controller), [copilotkit, agentId, controller]);

  const element = useInterrupt({
    agentId: config.agentId,
    renderInChat,
    render: (props) => {
      const kind = props.interrupts?.length ? 'standard' : 'legacy';
      const unwrapped = unwrapInterrupts(props);
      const interrupts = kind === 'legacy' ? controller.identifyLegacy(unwrapped) : unwrapped;
      controller.setOpen(kind, interrupts, { resolve: props.resolve, cancel: props.cancel });
      return <InterruptSlot controller={controller} interrupts={interrupts} />;
    },
  } as Parameters<typeof useInterrupt>[0]);
  return (element as ReactElement | null | undefined) ?? null;
}
