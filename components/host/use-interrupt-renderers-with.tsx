import { useEffect, useLayoutEffect, useMemo, useState, useSyncExternalStore, type ComponentType, type ReactElement } from 'react';
import { useAgent, useCopilotKit, useInterrupt } from '@copilotkit/react-core/v2';
import { createInterruptHistory, type InterruptHistory } from '../../src/history';
import { LastResortCard } from './last-resort-card';
import { controllerRegistry } from '../../src/controller/controller-registry';
import { createInterruptEcho, type CustomMessageRendererProps } from './interrupt-echo';
import {
  InterruptController as Controller,
  type ControlledAgent,
  type ControlledCopilotKit,
  type ControllerSettings,
} from '../../src/controller/interrupt-controller';
import type { CardView, InterruptController } from '../../hooks/card-view';
import { BatchReview, InterruptSlot } from './interrupt-slot';
import { createRendererRegistry } from '../../src/registry';
import { DEFAULT_RESOLVE_DELAY_MS, type InterruptRendererDefaults, type InterruptRenderersConfig } from '../../hooks/types';
import { displacedRenderer, useEchoRegistration, type CustomMessageRendererHost } from '../../hooks/use-echo-registration';
import { watchSharedInterruptSlot } from './shared-slot-warning';
import { useWaitingNotice } from '../../hooks/use-waiting-notice';
import { useThreadRefresh } from '../../hooks/use-thread-refresh';

const DEFAULT_AGENT_ID = 'default';

type MessageRenderer = ComponentType<CustomMessageRendererProps>;

interface Host {
  controller: InterruptController;
  Echo: MessageRenderer;
}

/** One host per agent (or per hook, before the agent is known), outliving unmounts. */
const hosts = new WeakMap<object, Host>();

function createHost(
  history: InterruptHistory,
  settings: ControllerSettings,
  view: CardView,
  messages: CustomMessageRendererHost<MessageRenderer>,
): Host {
  const controller: InterruptController = new Controller(history, settings, view);
  const Echo: MessageRenderer = createInterruptEcho(controller, () => displacedRenderer(messages, controller.settings.agentId, Echo));
  return { controller, Echo };
}

/**
 * The host kept under `key`, unless the app now gives another history. A host whose set is still
 * open (or whose answers are on their way) is kept until it is done, whatever history comes: the
 * open cards and an answer waiting for its siblings live in it, and a component that creates its
 * history on every mount would otherwise strand them.
 */
function hostFor(key: object, history: InterruptHistory | undefined, create: () => Host): Host {
  const existing = hosts.get(key);
  if (existing && (!history || existing.controller.history === history || existing.controller.busy)) return existing;
  const created = create();
  hosts.set(key, created);
  return created;
}

/**
 * The implementation behind `useInterruptRenderers`, with the default cards passed in (the
 * component layer owns them; hooks must not import components). Apps use
 * `useInterruptRenderers` from the package root instead.
 *
 * @example
 * useInterruptRenderersWith({ renderers: { 'aidev:user_question': MyQuestionCard } }, { renderers: {} });
 */
export function useInterruptRenderersWith(config: InterruptRenderersConfig, defaults: InterruptRendererDefaults): ReactElement | null {
  const { copilotkit } = useCopilotKit();
  const { agent } = useAgent({ agentId: config.agentId, updates: [] });
  const agentId = config.agentId ?? agent?.agentId ?? DEFAULT_AGENT_ID;
  const renderInChat = config.renderInChat !== false;

  const settings = {
    agentId,
    resolveDelayMs: config.resolveDelayMs ?? DEFAULT_RESOLVE_DELAY_MS,
    onInterruptResume: config.onInterruptResume,
    allowAlways: config.allowAlways,
    onChatWhileOpen: config.onChatWhileOpen,
  };

  const fallback = config.fallback ?? defaults.fallback ?? LastResortCard;
  const view = useMemo(
    () => ({
      registry: createRendererRegistry({ ...defaults.renderers, ...config.renderers }, fallback),
      locale: config.locale ?? 'en',
      labels: config.labels,
    }),
    [defaults.renderers, config.renderers, fallback, config.locale, config.labels],
  );

  // One controller per agent (and history): it outlives an unmount of the hook, so an answer not
  // yet sent goes out once the hook mounts again. The echo is bound to it; both change together.
  const [ownKey] = useState(() => ({}));
  const messages = copilotkit as unknown as CustomMessageRendererHost<MessageRenderer>;
  const { controller, Echo } = useMemo(
    () => hostFor(agent ?? ownKey, config.history, () => createHost(config.history ?? createInterruptHistory(), settings, view, messages)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- settings and view only seed a new controller; the layout effect below keeps them current.
    [agent, ownKey, config.history, messages],
  );
  // The app's latest options, before the browser paints. A new view also wakes the cards CopilotKit
  // keeps memoized (a card whose view is already current does not redraw).
  useLayoutEffect(() => controller.setSettings(settings));
  useLayoutEffect(() => controller.setView(view), [controller, view]);

  // The "Approve all" bar's code, fetched now like the cards, so a set of approvals draws it at once.
  useEffect(() => void BatchReview.preload(), []);

  useEffect(() => {
    if (!agent) return;
    const detach = controller.attach(agent as unknown as ControlledAgent, copilotkit as unknown as ControlledCopilotKit);
    return detach;
  }, [controller, agent, copilotkit]);

  if (process.env.NODE_ENV !== 'production') {
    // A build constant, the same branch on every render: an app's production build drops the check.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useEffect(() => watchSharedInterruptSlot(copilotkit, agentId, renderInChat), [copilotkit, agentId, renderInChat]);
  }
  useEchoRegistration(messages, agentId, Echo, renderInChat);
  useWaitingNotice(controller, config.waitingNotice, view.locale, view.labels);
  useThreadRefresh(controller);
  // For `withInterruptEcho` (v1 UI), which finds this controller by CopilotKit instance and agent.
  useLayoutEffect(() => controllerRegistry.set(copilotkit, agentId, controller), [copilotkit, agentId, controller]);

  const element = useInterrupt({
    agentId: config.agentId,
    renderInChat,
    render: (props) => {
      const kind = props.interrupts?.length ? 'standard' : 'legacy';
      const interrupts = controller.setOpen(kind, controller.unwrap(props), { resolve: props.resolve, cancel: props.cancel });
      return <InterruptSlot controller={controller} interrupts={interrupts} />;
    },
  } as Parameters<typeof useInterrupt>[0]) as ReactElement | undefined;
  // CopilotKit keeps the set it shows in `useInterrupt`'s state, which a remounted hook starts
  // without, and it never hears of a run that started before it mounted; another hook of the agent
  // that unmounts clears the element too. While the agent waits and the element is empty, the hook
  // places the slot with the set the controller drew (an empty element would still block the v1
  // chat's input). A server (and a page's first hydration) has a new controller: nothing waits.
  const isWaiting = () => controller.waiting.length > 0;
  const waiting = useSyncExternalStore(controller.subscribe, isWaiting, isWaiting);
  const slot = useMemo(() => <InterruptSlot controller={controller} />, [controller]);
  useEffect(() => {
    if (!renderInChat) return;
    const place = () => {
      if (waiting && !copilotkit.interruptElement) copilotkit.setInterruptElement(slot);
      else if (!waiting && copilotkit.interruptElement === slot) copilotkit.setInterruptElement(null);
    };
    place();
    const subscription = copilotkit.subscribe({ onInterruptElementChanged: place });
    return () => {
      subscription.unsubscribe();
      if (copilotkit.interruptElement === slot) copilotkit.setInterruptElement(null);
    };
  }, [copilotkit, renderInChat, waiting, slot]);
  return renderInChat ? null : (element ?? (waiting ? slot : null));
}
