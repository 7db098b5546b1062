// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isTimePickerPayload, isToolApprovalInterrupt, isUserQuestionInterrupt, unwrapInterrupt } from '../../../src/unwrap';
import { approvalInterrupt, questionInterrupt, mastraQuestionInterrupt, slots, ticket } from '../../fixtures/interrupts';

describe('shape guards', () => {
  it('accepts an approval with a complete ticket, or with none (direct mode)', () => {
    expect(isToolApprovalInterrupt(unwrapInterrupt(approvalInterrupt))).toBe(true);
    expect(isToolApprovalInterrupt(unwrapInterrupt({ ...approvalInterrupt, metadata: {} }))).toBe(true);
  });

  it('rejects an approval whose ticket lacks what the card shows', () => {
    const broken = { ...approvalInterrupt, metadata: { ticket: { ...ticket, title: 7 } } };
    expect(isToolApprovalInterrupt(unwrapInterrupt(broken))).toBe(false);
    expect(isToolApprovalInterrupt(unwrapInterrupt(questionInterrupt))).toBe(false);
  });

  it('accepts questions with options or free text, also lifted from Mastra', () => {
    expect(isUserQuestionInterrupt(unwrapInterrupt(questionInterrupt))).toBe(true);
    expect(isUserQuestionInterrupt(unwrapInterrupt(mastraQuestionInterrupt))).toBe(true);
    const freeText = { ...questionInterrupt, metadata: { questions: [{ header: 'Why', question: 'Why?' }] } };
    expect(isUserQuestionInterrupt(unwrapInterrupt(freeText))).toBe(true);
  });

  it('rejects empty or malformed questions', () => {
    for (const questions of [[], [{ header: 'x' }], [{ question: 'q', options: [{ label: 3 }] }], 'nope']) {
      expect(isUserQuestionInterrupt(unwrapInterrupt({ ...questionInterrupt, metadata: { questions } }))).toBe(false);
    }
  });

  it('checks time-picker payloads slot by slot', () => {
    expect(isTimePickerPayload({ topic: 'Sales', attendee: 'Alice', slots })).toBe(true);
    expect(isTimePickerPayload({})).toBe(true);
    expect(isTimePickerPayload({ slots: [{ label: 'Soon' }] })).toBe(false);
    expect(isTimePickerPayload({ topic: 3 })).toBe(false);
    expect(isTimePickerPayload('Sales')).toBe(false);
  });
});
