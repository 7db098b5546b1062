import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approvalOutcome,
  decisionAnswer,
  ticketAfter,
  type ApprovalOutcomeInput,
  type ToolApprovalResult,
} from '../../../components/tool-approval-card/approval-outcome';
import type { ApprovalTicket } from '../../../hooks/renderer-props';
import { approvalStatusLabel, EN_LABELS, formatLabel } from '../../../src/i18n/labels';
import { zhCN } from '../../../src/i18n/locales/zh-CN';
import { APPROVAL_STATUS } from '../../../src/protocol';

const allowedArb = fc.record({
  approvable: fc.boolean(),
  rejectable: fc.boolean(),
  editable: fc.boolean(),
  reasonOnlyOnReject: fc.boolean(),
});
const argsArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const reasonArb = fc.oneof(
  fc.constant(''),
  fc.constant('   '),
  fc.string({ maxLength: 20 }),
  fc.string({ maxLength: 10 }).map((s) => `  ${s} \n`),
);
const statusArb = fc.constantFrom(...Object.values(APPROVAL_STATUS), 'some-new-status');
const ticketArb: fc.Arbitrary<ApprovalTicket> = fc.record(
  { title: fc.string({ maxLength: 12 }), sn: fc.string({ maxLength: 8 }), status: statusArb, url: fc.webUrl() },
  { requiredKeys: ['title', 'sn', 'status'] },
) as fc.Arbitrary<ApprovalTicket>;
const decisionArb = fc.record(
  { approved: fc.boolean(), reason: fc.string({ maxLength: 10 }), editedArgs: argsArb, autoApproved: fc.constant(true as const) },
  { requiredKeys: ['approved'] },
);
/** Anything a stored result may hold: a decision, a ticket answer, or junk from another version. */
const resultArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  decisionArb,
  ticketArb.map((ticket) => ({ metadata: { ticket } })),
  ticketArb.map((ticket) => ({ metadata: ticket })),
  fc.anything(),
);
const phaseArb = fc.constantFrom('interactive', 'answered', 'cancelled', 'dismissed', 'expired' as const);
const labelsArb = fc.constantFrom(EN_LABELS, zhCN.labels);

describe('approval outcome: what a direct decision sends', () => {
  it('given any decision, reason, edits and allowed actions, should send only a decision the backend takes, with the reason trimmed where it belongs', () => {
    fc.assert(
      fc.property(fc.boolean(), reasonArb, fc.option(argsArb, { nil: undefined }), allowedArb, (approved, reason, editedArgs, allowed) => {
        const answer = decisionAnswer({ approved, reason, editedArgs, allowed });
        const refused =
          (approved ? !allowed.approvable : !allowed.rejectable) || (editedArgs !== undefined && (!approved || !allowed.editable));
        if (refused) {
          expect(answer).toBeUndefined();
          return;
        }
        const note = reason.trim();
        const sendsNote = note !== '' && allowed.rejectable && !(approved && allowed.reasonOnlyOnReject);
        expect(answer).toEqual({ approved, ...(sendsNote ? { reason: note } : {}), ...(editedArgs ? { editedArgs } : {}) });
        // Edited arguments are sent as the user left them, whole.
        if (editedArgs) expect(answer?.editedArgs).toBe(editedArgs);
      }),
    );
  });

  it('given "reason only on reject", should send the reason with Reject and never with Approve', () => {
    const allowed = { approvable: true, rejectable: true, editable: true, reasonOnlyOnReject: true };
    expect(decisionAnswer({ approved: false, reason: ' too risky ', allowed })).toEqual({ approved: false, reason: 'too risky' });
    expect(decisionAnswer({ approved: true, reason: 'too risky', allowed })).toEqual({ approved: true });
    expect(decisionAnswer({ approved: true, reason: 'ok', editedArgs: { a: 1 }, allowed })).toEqual({
      approved: true,
      editedArgs: { a: 1 },
    });
  });
});

describe('approval outcome: the ticket after Cancel or Refresh', () => {
  const kindArb = fc.constantFrom('cancel', 'refresh' as const);
  it('given a reply that is a ticket or {ticket}, should hold that ticket', () => {
    fc.assert(
      fc.property(kindArb, ticketArb, ticketArb, fc.boolean(), (kind, ticket, replied, wrapped) => {
        expect(ticketAfter(kind, wrapped ? { ticket: replied } : replied, ticket)).toBe(replied);
      }),
    );
  });

  it('given a reply with no ticket in it, should withdraw the ticket on Cancel and keep it as it was on Refresh', () => {
    const noTicketArb = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string(),
      fc.integer(),
      fc.record({ ok: fc.boolean() }),
      fc.record({ ticket: fc.string() }),
    );
    fc.assert(
      fc.property(kindArb, ticketArb, noTicketArb, (kind, ticket, reply) => {
        const next = ticketAfter(kind, reply, ticket);
        if (kind === 'cancel') expect(next).toEqual({ ...ticket, status: APPROVAL_STATUS.CANCELLED });
        else expect(next).toBe(ticket);
      }),
    );
  });
});

describe('approval outcome: what the card shows and says', () => {
  it('given any phase, result (even junk), ticket and language, should never throw and should show a badge', () => {
    fc.assert(
      fc.property(phaseArb, resultArb, fc.option(ticketArb, { nil: undefined }), labelsArb, (phase, result, ticket, labels) => {
        const outcome = approvalOutcome({ phase, result: result as ToolApprovalResult, ticket, initialTicket: ticket }, labels);
        expect(outcome.badge).not.toBe('');
        expect(typeof outcome.announcement).toBe('string');
      }),
    );
  });

  it('given an answered decision, should show the decision (never a ticket) and announce its badge', () => {
    fc.assert(
      fc.property(decisionArb, fc.option(ticketArb, { nil: undefined }), labelsArb, (decision, ticket, labels) => {
        const outcome = approvalOutcome({ phase: 'answered', result: decision, ticket, initialTicket: ticket }, labels);
        expect(outcome.ticket).toBeUndefined();
        expect(outcome.decision).toEqual(decision);
        expect(outcome.tone).toBe(decision.approved ? 'success' : 'danger');
        const badge = decision.autoApproved
          ? labels.approvalAutoApproved
          : decision.approved
            ? labels.approvalApproved
            : labels.approvalRejected;
        expect(outcome.badge).toBe(badge);
        expect(outcome.announcement).toBe(badge);
      }),
    );
  });

  it('given a stored decision whose fields have the wrong types, should show only what reads as its type (nothing that cannot be drawn as text)', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.anything(),
        fc.anything(),
        fc.anything(),
        labelsArb,
        (approved, reason, editedArgs, autoApproved, labels) => {
          const result = { approved, reason, editedArgs, autoApproved } as unknown as ToolApprovalResult;
          const { decision } = approvalOutcome({ phase: 'answered', result, ticket: undefined, initialTicket: undefined }, labels);
          expect(decision?.approved).toBe(Boolean(approved));
          expect(decision?.reason === undefined || typeof decision.reason === 'string').toBe(true);
          expect(
            decision?.editedArgs === undefined || (typeof decision.editedArgs === 'object' && !Array.isArray(decision.editedArgs)),
          ).toBe(true);
          expect(decision?.autoApproved === undefined || decision.autoApproved === true).toBe(true);
        },
      ),
    );
  });

  it('given a card closed without an answer, should say how it was closed, as the ticket number’s place when a ticket is shown', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('cancelled', 'dismissed' as const),
        fc.option(ticketArb, { nil: undefined }),
        labelsArb,
        (phase, ticket, labels) => {
          const outcome = approvalOutcome({ phase, result: undefined, ticket, initialTicket: ticket }, labels);
          const closed = phase === 'dismissed' ? labels.dismissed : labels.cancelledBadge;
          expect(outcome.announcement).toBe(closed);
          if (ticket) {
            // The ticket keeps its own status badge; the summary says it was closed.
            expect(outcome.ticket).toBe(ticket);
            expect(outcome.badge).toBe(approvalStatusLabel(labels, ticket.status));
            expect(outcome.ticketAnswer).toBe(closed);
          } else {
            expect(outcome.badge).toBe(closed);
            expect(outcome.decision).toBeUndefined();
          }
        },
      ),
    );
  });

  it('given a ticket answer, should show that ticket with its status and number, and announce the status', () => {
    fc.assert(
      fc.property(ticketArb, ticketArb, labelsArb, (held, answered, labels) => {
        const input: ApprovalOutcomeInput = {
          phase: 'answered',
          result: { metadata: { ticket: answered } },
          ticket: held,
          initialTicket: held,
        };
        const outcome = approvalOutcome(input, labels);
        expect(outcome.ticket).toBe(answered);
        expect(outcome.ticketAnswer).toBe(answered.sn);
        expect(outcome.badge).toBe(approvalStatusLabel(labels, answered.status));
        expect(outcome.announcement).toBe(
          formatLabel(labels.approvalStatusChanged, { status: approvalStatusLabel(labels, answered.status) }),
        );
      }),
    );
  });

  it('given an open ticket card, should announce a status only once Cancel or Refresh moved the ticket', () => {
    fc.assert(
      fc.property(ticketArb, statusArb, labelsArb, (initial, status, labels) => {
        expect(
          approvalOutcome({ phase: 'interactive', result: undefined, ticket: initial, initialTicket: initial }, labels).announcement,
        ).toBe('');
        const moved = { ...initial, status: status as APPROVAL_STATUS };
        expect(
          approvalOutcome({ phase: 'interactive', result: undefined, ticket: moved, initialTicket: initial }, labels).announcement,
        ).toBe(formatLabel(labels.approvalStatusChanged, { status: approvalStatusLabel(labels, status) }));
      }),
    );
  });
});
