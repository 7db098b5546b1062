import { useLayoutEffect, useSyncExternalStore, type ComponentType } from 'react';
import { useAgent, useCopilotChatConfiguration, UseAgentUpdate } from '@copilotkit/react-core/v2';
import { AnchoredEchoes, UnanchoredEchoes } from './anchored-echoes';
import type { InterruptController } from '../../hooks/card-view';
import { createListeners } from '../../src/listeners';

/**
 * Counts the message spots the transcript mounts and unmounts, per controller. The spot before
 * the first message re-reads the transcript on each change: AG-UI tells a subscriber only of the
 * runs that start after it subscribed, and a reload restores the whole thread in one run that is
 * already under way when that spot mounts, so the agent's own notices never reach it.
 */
interface SpotChanges {
  count: number;
  listeners: ReturnType<typeof createListeners>;
}
const spotChanges = new WeakMap<InterruptController, SpotChanges>();
function changesOf(controller: InterruptController): SpotChanges {
  let changes = spotChanges.get(controller);
  if (!changes) spotChanges.set(controller, (changes = { count: 0, listeners: createListeners() }));
  return changes;
}
function spotChanged(controller: InterruptController) {
  const changes = changesOf(controller);
  changes.count++;
  changes.listeners.notify();
}

/** The props CopilotKit's chat gives a custom message renderer. */
export interface CustomMessageRendererProps {
  message: { id: string };
  position: 'before' | 'after';
  messageIndex: number;
  agentId: string;
  [key: string]: unknown;
}

/**
 * A CopilotKit custom message renderer that draws the read-only cards anchored to a message:
 * right after the message that was last when the interrupt appeared (before the first message
 * when the transcript was empty, or when that message is no longer in it). CopilotKit renders
 * only the first matching custom renderer, so this one also draws the renderer it displaced
 * (`delegate`).
 */
export function createInterruptEcho(
  controller: InterruptController,
  delegate: () => ComponentType<CustomMessageRendererProps> | null | undefined,
): ComponentType<CustomMessageRendererProps> {
  function InterruptEcho(props: CustomMessageRendererProps) {
    const chat = useCopilotChatConfiguration();
    const Delegate = delegate();
    const threadId = chat?.threadId ?? controller.threadId;
    const after = props.position === 'after';
    // A message's spot appearing or going: the spot before the transcript re-reads it.
    useLayoutEffect(() => {
      if (!after) return;
      spotChanged(controller);
      return () => spotChanged(controller);
    }, [after, props.message.id]);
    return (
      <>
        {/* The displaced renderer is the app's own component, looked up (not created) here. */}
        {/* eslint-disable-next-line react-hooks/static-components */}
        {Delegate ? <Delegate {...props} /> : null}
        {props.position === 'before' && props.messageIndex === 0 ? (
          <EchoesBeforeTranscript controller={controller} threadId={threadId} agentId={props.agentId} />
        ) : props.position === 'after' ? (
          <AnchoredEchoes controller={controller} threadId={threadId} agentId={props.agentId} anchor={props.message.id} />
        ) : null}
      </>
    );
  }
  return InterruptEcho;
}

/**
 * Before the first message: the cards whose anchor is not in the transcript. Only this spot
 * follows the messages, so a streaming reply does not redraw every echo.
 */
function EchoesBeforeTranscript({ controller, threadId, agentId }: { controller: InterruptController; threadId: string; agentId: string }) {
  const { agent } = useAgent({ agentId, updates: [UseAgentUpdate.OnMessagesChanged] });
  const changes = changesOf(controller);
  useSyncExternalStore(changes.listeners.subscribe, () => changes.count);
  const shown = new Set(agent.messages.map((m) => m.id));
  return <UnanchoredEchoes controller={controller} threadId={threadId} agentId={agentId} shown={shown} />;
}
