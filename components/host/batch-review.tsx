import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { InterruptHistoryRecord } from '../../src/history';
import { formatLabel, resolveLanguage } from '../../src/i18n/labels';
import { InterruptReason } from '../../src/protocol/constants';
import type { UnwrappedInterrupt } from '../../src/unwrap';
import type { InterruptController } from '../../hooks/card-view';
import { handFocusTo } from '../shared/focus-after-answer';
import { toolCallOf } from '../../src/unwrap/approval-call';

/**
 * The direct-mode approvals of a set that still wait for the user: what "Approve all" and
 * "Reject all" answer. A ticket approval is decided by its ticket system, not by a click, and one
 * the runner gave to other people is theirs to answer (this viewer's card is read-only).
 */
export function pendingApprovals(
  interrupts: readonly UnwrappedInterrupt[],
  records: readonly InterruptHistoryRecord[],
): UnwrappedInterrupt[] {
  return interrupts.filter(
    (interrupt) =>
      interrupt.reason === InterruptReason.AIDevToolApproval &&
      interrupt.metadata.ticket === undefined &&
      interrupt.people?.viewerMayAnswer !== false &&
      !records.some((record) => record.id === interrupt.id),
  );
}

/**
 * Shown above a set holding two or more approvals that wait: "Approve all" and "Reject all" (with
 * one reason) answer every approval still waiting, each as its own card would. A card decided on its
 * own first keeps its answer; the whole set still goes to the agent in one resume.
 */
export function BatchReview({ controller, interrupts }: { controller: InterruptController; interrupts: readonly UnwrappedInterrupt[] }) {
  const records = useSyncExternalStore(controller.history.subscribe, () => controller.history.getSnapshot(controller.threadId));
  const view = useSyncExternalStore(controller.subscribe, () => controller.view);
  const [reason, setReason] = useState('');
  // What the last "all" did, said where the buttons were: keyboard focus lands there, not on <body>.
  const [done, setDone] = useState<{ approved: boolean; count: number; ids: string[] } | null>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  // The notice had focus when the set moved on and the bar went with it: the answered cards take it.
  const heldFocus = useRef<string[] | null>(null);
  useEffect(
    () => () => {
      const active = document.activeElement;
      if (heldFocus.current && (!active || active === document.body)) handFocusTo(heldFocus.current);
    },
    [],
  );
  const ids = { title: useId(), reason: useId() };
  const waiting = pendingApprovals(interrupts, records);
  const { locale, labels } = resolveLanguage(view.locale, view.labels);
  useEffect(() => doneRef.current?.focus(), [done]);
  if (waiting.length < 2) {
    if (!done) return null;
    return (
      <p
        ref={doneRef}
        className="cki-root cki-batch__done"
        role="status"
        tabIndex={-1}
        lang={locale}
        data-testid="batch-review-done"
        onFocus={() => (heldFocus.current = done.ids)}
        onBlur={(event) => {
          if (event.relatedTarget) heldFocus.current = null;
        }}
      >
        {formatLabel(done.approved ? labels.batchApproved : labels.batchRejected, { count: done.count })}
      </p>
    );
  }
  const calls = waiting.map((interrupt) => ({ interrupt, call: toolCallOf(interrupt) }));
  const approvable = calls.filter(({ call }) => call.approvable);
  const rejectable = calls.filter(({ call }) => call.rejectable);
  const note = reason.trim();

  const approveAll = () => {
    setDone({ approved: true, count: approvable.length, ids: approvable.map(({ interrupt }) => interrupt.id) });
    approvable.forEach(({ interrupt }) => controller.answer(interrupt, { approved: true }));
  };
  const rejectAll = () => {
    setDone({ approved: false, count: rejectable.length, ids: rejectable.map(({ interrupt }) => interrupt.id) });
    rejectable.forEach(({ interrupt }) => controller.answer(interrupt, { approved: false, ...(note ? { reason: note } : {}) }));
  };

  return (
    <div className="cki-root cki-card cki-batch" role="group" aria-labelledby={ids.title} lang={locale} data-testid="batch-review">
      <p id={ids.title} className="cki-batch__title">
        {formatLabel(labels.batchTitle, { count: waiting.length })}
      </p>
      {rejectable.length > 0 ? (
        <label className="cki-field" htmlFor={ids.reason}>
          <span className="cki-field__label">{labels.batchRejectReason}</span>
          <input id={ids.reason} className="cki-input" value={reason} onChange={(event) => setReason(event.target.value)} />
        </label>
      ) : null}
      <div className="cki-actions">
        {approvable.length > 0 ? (
          <button type="button" className="cki-button cki-button--primary" onClick={approveAll}>
            {formatLabel(labels.batchApproveAll, { count: approvable.length })}
          </button>
        ) : null}
        {rejectable.length > 0 ? (
          <button type="button" className="cki-button cki-button--danger" onClick={rejectAll}>
            {formatLabel(labels.batchRejectAll, { count: rejectable.length })}
          </button>
        ) : null}
      </div>
    </div>
  );
}
