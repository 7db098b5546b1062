import { useId } from 'react';
import { CardShell, useCardBasics } from '../../components/cards';
import type { InterruptRendererProps } from '../../components/index';

/** What the card resolves with. */
export interface ConfirmResult {
  confirmed: true;
}

/**
 * An app's own card built on the library's shell, as docs/cards.md shows it: a message with
 * Confirm and Skip. The shell draws the frame (live region, focus after answering), the expired
 * body, and the read-only form with "Sending…", the error and Retry.
 */
export function ConfirmCard(props: InterruptRendererProps<ConfirmResult>) {
  const basics = useCardBasics(props);
  const { phase, labels, submit, dismiss } = basics;
  const titleId = useId();
  const question = props.interrupt.message ?? 'Go ahead?';
  const done = phase === 'answered' ? 'Confirmed' : phase === 'dismissed' ? labels.dismissed : 'Skipped';
  return (
    <CardShell
      card={props}
      basics={basics}
      announcement={phase === 'interactive' ? '' : done}
      expired={{ testId: 'confirm-card-expired', title: question }}
      readOnly={() => ({
        testId: 'confirm-card-answered',
        tone: phase === 'answered' ? 'success' : 'neutral',
        badge: done,
        title: question,
      })}
      interactive={() => (
        // tabIndex -1: where focus goes when the card opens again after an answer failed.
        <div className="cki-card" data-testid="confirm-card" role="group" tabIndex={-1} aria-labelledby={titleId}>
          <p className="cki-card__title" id={titleId}>
            {question}
          </p>
          <div className="cki-actions">
            <button type="button" className="cki-button cki-button--primary" onClick={() => submit({ confirmed: true })}>
              Confirm
            </button>
            <button type="button" className="cki-button cki-button--ghost" onClick={dismiss}>
              Skip
            </button>
          </div>
        </div>
      )}
    />
  );
}
