import { memo, useLayoutEffect } from 'react';
import type { InterruptHistoryRecord } from '../../src/history';
import { InterruptCard } from './interrupt-card';
import type { InterruptController } from '../../hooks/interrupt-controller';
import { useThreadRecords } from '../../hooks/use-thread-records';

export interface AnchoredEchoesProps {
  controller: InterruptController;
  threadId: string;
  agentId: string;
  /** Which records belong at this spot of the transcript. */
  isHere: (record: InterruptHistoryRecord) => boolean;
}

/** The read-only cards of one thread and agent that are anchored at one spot of the transcript. */
export function AnchoredEchoes({ controller, threadId, agentId, isHere }: AnchoredEchoesProps) {
  const records = useThreadRecords(controller, threadId);
  return records
    .filter((record) => (record.agentId ?? agentId) === agentId && isHere(record))
    .map((record) => <EchoEntry key={record.id} controller={controller} record={record} />);
}

// Memoized: a new record elsewhere in the thread gives the list a new snapshot, but the history
// keeps unchanged records identical, so their cards skip the render.
const EchoEntry = memo(function EchoEntry({ controller, record }: { controller: InterruptController; record: InterruptHistoryRecord }) {
  // Claimed in a layout effect: the slot copy hides in the same frame, before anything is painted.
  useLayoutEffect(() => controller.claim(record.id), [controller, record.id]);
  return <InterruptCard controller={controller} interrupt={record.interrupt} record={record} />;
});
