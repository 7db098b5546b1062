import { memo, useLayoutEffect, useRef, useSyncExternalStore, type CSSProperties } from 'react';
import type { InterruptHistoryRecord } from '../../src/history';
import { InterruptCard } from './interrupt-card';
import type { InterruptController } from '../../hooks/card-view';

type Records = readonly InterruptHistoryRecord[];
type ByAnchor = ReadonlyMap<string | null, Records>;
const NONE: Records = [];

// A thread's records grouped by anchor, once per history snapshot (snapshots are immutable): each
// spot of a long transcript looks up its own records instead of filtering the whole thread.
const groups = new WeakMap<Records, Map<string | null, InterruptHistoryRecord[]>>();
function byAnchor(records: Records): ByAnchor {
  let index = groups.get(records);
  if (!index) {
    index = new Map();
    for (const record of records) {
      const list = index.get(record.anchor);
      if (list) list.push(record);
      else index.set(record.anchor, [record]);
    }
    groups.set(records, index);
  }
  return index;
}

const sameRecords = (a: Records, b: Records) => a.length === b.length && a.every((record, i) => record === b[i]);

interface EchoListProps {
  controller: InterruptController;
  threadId: string;
  agentId: string;
  /** This spot's records, picked from the thread's records grouped by anchor. */
  pick: (groups: ByAnchor) => Records;
}

function EchoList({ controller, threadId, agentId, pick }: EchoListProps) {
  // The history keeps unchanged records identical, so a change elsewhere in the thread leaves this
  // spot's list equal: the previous one is kept and the spot does not re-render.
  const last = useRef(NONE);
  const here = useSyncExternalStore(controller.history.subscribe, () => {
    const next = pick(byAnchor(controller.history.getSnapshot(threadId))).filter((record) => (record.agentId ?? agentId) === agentId);
    if (!sameRecords(next, last.current)) last.current = next;
    return last.current;
  });
  if (here.length === 0) return null;
  // One group per spot: the stylesheet lets the browser skip it while it is off screen.
  return (
    <div className="cki-echoes" style={{ '--cki-echo-count': here.length } as CSSProperties}>
      {here.map((record) => (
        <EchoEntry key={record.id} controller={controller} record={record} />
      ))}
    </div>
  );
}

export interface AnchoredEchoesProps {
  controller: InterruptController;
  threadId: string;
  agentId: string;
  /** The transcript spot: the message id the records are anchored to, `null` before the first message. */
  anchor: string | null;
}

/** The read-only cards of one thread and agent that are anchored at one spot of the transcript. */
export function AnchoredEchoes({ anchor, ...props }: AnchoredEchoesProps) {
  return <EchoList {...props} pick={(grouped) => grouped.get(anchor) ?? NONE} />;
}

export interface UnanchoredEchoesProps extends Omit<AnchoredEchoesProps, 'anchor'> {
  /** The ids of the messages in the transcript now. */
  shown: ReadonlySet<string>;
}

/**
 * The cards with no spot of their own: anchored to an empty transcript (`null`), or to a message
 * that is no longer shown (a chat remounted while the agent held the interrupt cannot restore its
 * turn). They are drawn before the first message instead of vanishing.
 */
export function UnanchoredEchoes({ shown, ...props }: UnanchoredEchoesProps) {
  return (
    <EchoList
      {...props}
      pick={(grouped) => {
        const lost: InterruptHistoryRecord[] = [];
        for (const [anchor, records] of grouped) if (anchor === null || !shown.has(anchor)) lost.push(...records);
        return lost;
      }}
    />
  );
}

export interface ChosenEchoesProps extends Omit<AnchoredEchoesProps, 'anchor'> {
  /** The card ids to draw (those of one stop), wherever they are anchored. */
  ids: ReadonlySet<string>;
}

/**
 * The read-only cards of the given ids, wherever they are anchored: a place with no transcript (an
 * inbox row answering in place) keeps the cards it answered, and none of the thread's older ones.
 */
export function ChosenEchoes({ ids, ...props }: ChosenEchoesProps) {
  return <EchoList {...props} pick={(grouped) => [...grouped.values()].flat().filter((record) => ids.has(record.id))} />;
}

// Memoized: a spot that does re-render leaves its unchanged cards alone.
const EchoEntry = memo(function EchoEntry({ controller, record }: { controller: InterruptController; record: InterruptHistoryRecord }) {
  // Claimed in a layout effect: the slot copy hides in the same frame, before anything is painted.
  useLayoutEffect(() => controller.claim(record.id), [controller, record.id]);
  return <InterruptCard controller={controller} interrupt={record.interrupt} threadId={record.threadId} />;
});
