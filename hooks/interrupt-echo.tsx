import { useLayoutEffect, useSyncExternalStore, type ComponentType } from 'react';
import { useCopilotChatConfiguration } from '@copilotkit/react-core/v2';
import type { InterruptHistoryRecord } from '../src/history';
import { InterruptCard } from './interrupt-card';
import type { InterruptController } from './interrupt-controller';

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
  delegate: () => ComponentType<any> | null | undefined,
): ComponentType<CustomMessageRendererProps> {
  function InterruptEcho(props: CustomMessageRendererProps) {
    const chat = useCopilotChatConfiguration();
    const threadId = chat?.threadId ?? controller.threadId;
    const records = useSyncExternalStore(controller.history.subscribe, () => controller.history.getSnapshot(threadId));
    const here = records.filter((record) => isAnchoredHere(record, props) && (record.agentId ?? props.agentId) === props.agentId);
    const Delegate = delegate();
    return (
      <>
        {Delegate ? <Delegate {...props} /> : null}
        {here.map((record) => (
          <EchoEntry key={record.id} controller={controller} record={record} />
        ))}
      </>
    );
  }
  return InterruptEcho;
}

function isAnchoredHere(record: InterruptHistoryRecord, { message, position, messageIndex }: CustomMessageRendererProps) {
  if (record.anchor === null) return position === 'before' && messageIndex === 0;
  return position === 'after' && record.anchor === message.id;
}

function EchoEntry({ controller, record }: { controller: InterruptController; record: InterruptHistoryRecord }) {
  // Claimed in a layout effect: the slot copy hides in the same frame, before anything is painted.
  useLayoutEffect(() => controller.claim(record.id), [controller, record.id]);
  return <InterruptCard controller={controller} interrupt={record.interrupt} record={record} />;
}
