import { describe, expect, it } from 'vitest';
import { APPROVAL_STATUS, APPROVAL_STATUS_MAP } from '../../../src/protocol';
import { approvalStatusLabel, EN_LABELS, formatLabel, resolveLabels, ZH_CN_LABELS } from '../../../src/i18n';

describe('labels', () => {
  it('ships the QA contract texts verbatim in English', () => {
    expect([EN_LABELS.timePickerEyebrow, EN_LABELS.timePickerPrompt, EN_LABELS.timePickerNone, EN_LABELS.timePickerBooked, EN_LABELS.timePickerCancelled, EN_LABELS.timePickerNoTime]).toEqual([
      'Book a call',
      'Pick a time that works for you.',
      'None of these work',
      'Booked',
      'Cancelled',
      'No time picked.',
    ]);
    expect(formatLabel(EN_LABELS.timePickerWith, { attendee: 'Alice' })).toBe('With Alice');
  });

  it('uses the seed status map for zh-CN and the English map for en', () => {
    for (const status of Object.values(APPROVAL_STATUS)) {
      expect(approvalStatusLabel(ZH_CN_LABELS, status)).toBe(APPROVAL_STATUS_MAP[status]);
    }
    expect(approvalStatusLabel(EN_LABELS, 'approved')).toBe('Approved');
    expect(approvalStatusLabel(EN_LABELS, 'on_hold')).toBe('on_hold');
  });

  it('has the same keys in every locale', () => {
    expect(Object.keys(ZH_CN_LABELS).sort()).toEqual(Object.keys(EN_LABELS).sort());
  });

  it('merges string overrides, ignores other values and unknown locales fall back to English', () => {
    const labels = resolveLabels('zh-CN', { timePickerBooked: '已锁定', timePickerNone: 42, __proto__: 'x' } as Record<string, unknown>);
    expect(labels.timePickerBooked).toBe('已锁定');
    expect(labels.timePickerNone).toBe(ZH_CN_LABELS.timePickerNone);
    expect(resolveLabels('fr').timePickerBooked).toBe('Booked');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('fills placeholders as text and leaves unknown ones', () => {
    expect(formatLabel('{a} and {b}', { a: '<b>x</b>' })).toBe('<b>x</b> and {b}');
  });
});
