import { useEffect, useId, useRef, useState } from 'react';
import type { ApprovalTicket } from '../../hooks/renderer-props';
import { InterruptResumeOperation, isTerminalApprovalStatus } from '../../src/protocol/index';
import { approvalStatusLabel, formatLabel } from '../../src/i18n/labels';
import { toProtocolInterrupt } from '../../src/unwrap/index';
import { errorMessage } from '../../src/error-message';
import { CardShell } from '../shared/card-shell';
import { CountdownText } from '../shared/countdown-text';
import { useCardBasics } from '../shared/use-card-basics';
import { approvalOutcome, ticketAfter } from './approval-outcome';
import { approvalReadOnly } from './approval-read-only';
import { ApprovalTicketDetails } from './approval-ticket-details';
import type { ToolApprovalCardProps } from './tool-approval-card';

/**
 * Ticket mode: the third-party ticket with its status, "Cancel approval" and "Refresh" (both
 * through `onInterruptResume`); a terminal status resolves `{metadata: {ticket}}`.
 */
export function ApprovalTicketBody(props: ToolApprovalCardProps & { initialTicket: ApprovalTicket }) {
  const { interrupt, onInterruptResume, refreshCooldownMs = 2000, now, initialTicket, toolGrants } = props;
  const basics = useCardBasics(props, now);
  const { locale, labels, countdown, phase, shownResult, submit } = basics;
  const titleId = useId();
  const terminalId = useId();
  const [ticket, setTicket] = useState(initialTicket);
  const [busy, setBusy] = useState<'cancel' | 'refresh' | undefined>();
  const [opError, setOpError] = useState<string | undefined>();
  const [coolingDown, setCoolingDown] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!coolingDown) return undefined;
    const timer = setTimeout(() => setCoolingDown(false), refreshCooldownMs);
    return () => clearTimeout(timer);
  }, [coolingDown, refreshCooldownMs]);

  async function operate(kind: 'cancel' | 'refresh') {
    if (busy || !onInterruptResume) return;
    setBusy(kind);
    setOpError(undefined);
    try {
      const operation = kind === 'cancel' ? InterruptResumeOperation.ApprovalCancel : InterruptResumeOperation.ApprovalRefresh;
      const returned = await onInterruptResume({ operation, payload: { interrupt_id: interrupt.id } }, toProtocolInterrupt(interrupt));
      // React ignores state updates on an unmounted card, but a card that is gone must not resolve.
      if (!mounted.current) return;
      const next = ticketAfter(kind, returned, ticket);
      setTicket(next);
      if (isTerminalApprovalStatus(next.status)) submit({ metadata: { ticket: next } });
    } catch (failure) {
      setOpError(formatLabel(labels.approvalOperationFailed, { error: errorMessage(failure) }));
    } finally {
      setBusy(undefined);
      if (kind === 'refresh' && refreshCooldownMs > 0) setCoolingDown(true);
    }
  }

  const outcome = approvalOutcome({ phase, result: shownResult, ticket, initialTicket }, labels);
  const terminal = isTerminalApprovalStatus(ticket.status);
  return (
    <CardShell
      card={props}
      basics={basics}
      announcement={opError ?? outcome.announcement}
      expired={{ testId: 'approval-card-expired', title: outcome.ticket?.title ?? interrupt.message }}
      readOnly={() => approvalReadOnly({ outcome, interrupt, labels, locale, toolGrants })}
      busy={busy !== undefined}
      interactive={() => (
        <div className="cki-card cki-approval" data-testid="approval-card" role="group" tabIndex={-1} aria-labelledby={titleId}>
          <ApprovalTicketDetails ticket={ticket} labels={labels} locale={locale} titleId={titleId} message={interrupt.message} />
          {onInterruptResume ? (
            <div className="cki-actions">
              <button
                type="button"
                className="cki-button cki-button--secondary"
                data-testid="approval-cancel"
                disabled={terminal || busy !== undefined}
                aria-describedby={terminal ? terminalId : undefined}
                onClick={() => void operate('cancel')}
              >
                {busy === 'cancel' ? labels.approvalCancelling : labels.approvalCancel}
              </button>
              <button
                type="button"
                className="cki-button cki-button--ghost"
                data-testid="approval-refresh"
                disabled={busy !== undefined || coolingDown}
                title={coolingDown ? labels.approvalRefreshCooldown : undefined}
                onClick={() => void operate('refresh')}
              >
                {busy === 'refresh' ? labels.approvalRefreshing : labels.approvalRefresh}
              </button>
            </div>
          ) : null}
          {terminal ? (
            <p className="cki-card__note" id={terminalId}>
              {formatLabel(labels.approvalTerminal, { status: approvalStatusLabel(labels, ticket.status) })}
            </p>
          ) : null}
          {opError ? (
            <p className="cki-error__text" data-testid="approval-operation-error">
              {opError}
            </p>
          ) : null}
          <CountdownText countdown={countdown} labels={labels} />
        </div>
      )}
    />
  );
}
