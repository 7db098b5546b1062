import { memo, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { InterruptHistoryRecord } from '../../src/history';
import { InterruptCard } from './interrupt-card';
import type { InterruptController } from '../../hooks/interrupt-controller';

export interface AnchoredEchoesProps {
  controller: InterruptController;
  threadId: string;
  agentId: string;
  /** The transcript spot: the message id the records are anchored to, `null` before the first message. */
  anchor: string | null;
}

type Records = readonly InterruptHistoryRecord[];
const NONE: Records = [];

// A thread's records grouped by anchor, once per history snapshot (snapshots are immutable): each
// spot of a long transcript looks up its own records instead of filtering the whole thread.
const byAnchor = new WeakMap<Records, Map<string | null, InterruptHistoryRecord[]>>();
function recordsAt(records: Records, anchor: string | null): Records {
  let index = byAnchor.get(records);
  if (!index) {
    index = new Map();
    for (const record of records) {
      const list = index.get(record.anchor);
      if (list) list.push(record);
      else index.set(record.anchor, [record]);
    }
    byAnchor.set(records, index);
  }
  return index.get(anchor) ?? NONE;
}

const sameRecords = (a: Records, b: Records) => a.length === b.length && a.every((record, i) => record === b[i]);

/** The read-only cards of one thread and agent that are anchored at one spot of the transcript. */
export function AnchoredEchoes({ controller, threadId, agentId, anchor }: AnchoredEchoesProps) {
  // The history keeps unchanged records identical, so a change elsewhere in the thread leaves this
  // spot's list equal: the previous one is kept and the spot does not re-render.
  const last = useRef(NONE);
  const here = useSyncExternalStore(controller.history.subscribe, () => {
    const next = recordsAt(controller.history.getSnapshot(threadId), anchor).filter((record) => (record.agentId ?? agentId) === agentId);
    if (!sameRecords(next, last.current)) last.current = next;
    return last.current;
  });
  return here.map((record) => <EchoEntry key={record.id} controller={controller} record={record} />);
}

// Memoized: a spot that does re-render leaves its unchanged cards alone.
const EchoEntry = memo(function EchoEntry({ controller, record }: { controller: InterruptController; record: InterruptHistoryRecord }) {
  // Claimed in a layout effect: the slot copy hides in the same frame, before anything is painted.
  useLayoutEffect(() => controller.claim(record.id), [controller, record.id]);
  return <InterruptCard controller={controller} interrupt={record.interrupt} record={record} />;
});
