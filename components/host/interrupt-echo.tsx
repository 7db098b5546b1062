import type { ComponentType } from 'react';
import { useCopilotChatConfiguration } from '@copilotkit/react-core/v2';
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
 * when the transcript was empty). CopilotKit renders only the first matching custom renderer,
 * so this one also draws the renderer it displaced (`delegate`).
 */
export function createInterruptEcho(
  controller: InterruptController,
  delegate: () => ComponentType<CustomMessageRendererProps> | null | undefined,
): ComponentType<CustomMessageRendererProps> {
  function InterruptEcho(props: CustomMessageRendererProps) {
    const chat = useCopilotChatConfiguration();
    const Delegate = delegate();
    const anchor = anchorHere(props);
    return (
      <>
        {Delegate ? <Delegate {...props} /> : null}
        {anchor !== undefined ? (
          <AnchoredEchoes controller={controller} threadId={chat?.threadId ?? controller.threadId} agentId={props.agentId} anchor={anchor} />
        ) : null}
      </>
    );
  }
  return InterruptEcho;
}

/**
 * The anchor whose records belong at this spot: the message's id after it, `null` (records from an
 * empty transcript) before the first message; none elsewhere, which then renders no echoes at all.
 */
function anchorHere({ message, position, messageIndex }: CustomMessageRendererProps): string | null | undefined {
  if (position === 'after') return message.id;
  return messageIndex === 0 ? null : undefined;
}
