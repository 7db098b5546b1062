import { useSyncExternalStore, type ComponentType } from 'react';
import { useCopilotKit } from '@copilotkit/react-core/v2';
import { AnchoredEchoes } from './anchored-echoes';
import { controllerRegistry } from '../../src/controller/controller-registry';
import type { CardView } from '../../hooks/card-view';

/** The one prop the wrapper reads from what the v1 chat passes to its message components. */
export interface V1RenderMessageProps {
  message?: { id?: string };
}

/**
 * The transcript echo for the v1 UI. The v1 `CopilotChat` only draws custom message renderers
 * before assistant messages, so the echo cannot register itself there; wrap the chat's message
 * components instead (any component that gets the `message`) and the read-only cards stay right
 * after the message where the interrupt appeared.
 *
 * @example
 * import { AssistantMessage, CopilotChat, UserMessage } from '@copilotkit/react-ui';
 * const UserMessageWithEcho = withInterruptEcho(UserMessage);
 * const AssistantMessageWithEcho = withInterruptEcho(AssistantMessage);
 * <CopilotChat UserMessage={UserMessageWithEcho} AssistantMessage={AssistantMessageWithEcho} />
 */
export function withInterruptEcho<P extends object>(Message: ComponentType<P>, options: { agentId?: string } = {}): ComponentType<P> {
  const agentId = options.agentId ?? 'default';
  function MessageWithInterruptEcho(props: P) {
    const { copilotkit } = useCopilotKit();
    const messageId = (props as V1RenderMessageProps).message?.id;
    const controller = useSyncExternalStore(controllerRegistry.subscribe, () => controllerRegistry.get<CardView>(copilotkit, agentId));
    return (
      <>
        <Message {...props} />
        {controller && messageId ? (
          <AnchoredEchoes controller={controller} threadId={controller.threadId} agentId={agentId} anchor={messageId} />
        ) : null}
      </>
    );
  }
  return MessageWithInterruptEcho;
}
