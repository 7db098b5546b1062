import type { ComponentType } from 'react';
import { useAgent, useCopilotChatConfiguration, UseAgentUpdate } from '@copilotkit/react-core/v2';
import type { InterruptHistoryRecord } from '../../src/history';
import { AnchoredEchoes } from './anchored-echoes';
import type { InterruptController } from '../../hooks/interrupt-controller';

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
    return (
      <>
        {/* The displaced renderer is the app's own component, looked up (not created) here. */}
        {/* eslint-disable-next-line react-hooks/static-components */}
        {Delegate ? <Delegate {...props} /> : null}
        {props.position === 'before' && props.messageIndex === 0 ? (
          <UnanchoredEchoes controller={controller} threadId={chat?.threadId ?? controller.threadId} agentId={props.agentId} />
        ) : (
          <AnchoredEchoes
            controller={controller}
            threadId={chat?.threadId ?? controller.threadId}
            agentId={props.agentId}
            isHere={(record) => props.position === 'after' && record.anchor === props.message.id}
          />
        )}
      </>
    );
  }
  return InterruptEcho;
}

/**
 * Before the first message: the cards whose anchor is not in the transcript. Either it was empty
 * when the interrupt appeared, or the turn they were anchored to is gone: a chat remounted while
 * the agent held the interrupt cannot restore it (CopilotKit's reconnect is refused then), and
 * the answered card must not vanish with it. Only this spot follows the messages, so a streaming
 * reply does not redraw every echo.
 */
function UnanchoredEchoes({ controller, threadId, agentId }: { controller: InterruptController; threadId: string; agentId: string }) {
  const { agent } = useAgent({ agentId, updates: [UseAgentUpdate.OnMessagesChanged] });
  const shown = new Set(agent.messages.map((m) => m.id));
  const isHere = (record: InterruptHistoryRecord) => record.anchor === null || !shown.has(record.anchor);
  return <AnchoredEchoes controller={controller} threadId={threadId} agentId={agentId} isHere={isHere} />;
}
