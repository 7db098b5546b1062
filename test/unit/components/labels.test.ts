// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { APPROVAL_STATUS, APPROVAL_STATUS_MAP } from '../../../src/protocol';
import { approvalStatusLabel, EN_LABELS, formatLabel, resolveLabels, resolveLanguage } from '../../../src/i18n';
import { zhCN } from '../../../src/i18n/locales/zh-CN';

const ZH_CN_LABELS = zhCN.labels;

describe('labels', () => {
  it('ships the QA contract texts verbatim in English', () => {
    expect([
      EN_LABELS.timePickerEyebrow,
      EN_LABELS.timePickerPrompt,
      EN_LABELS.timePickerNone,
      EN_LABELS.timePickerBooked,
      EN_LABELS.timePickerCancelled,
      EN_LABELS.timePickerNoTime,
    ]).toEqual(['Book a call', 'Pick a time that works for you.', 'None of these work', 'Booked', 'Cancelled', 'No time picked.']);
    expect(formatLabel(EN_LABELS.timePickerWith, { attendee: 'Alice' })).toBe('With Alice');
  });

  it('uses the protocol status map for zh-CN and the English map for en', () => {
    for (const status of Object.values(APPROVAL_STATUS)) {
      expect(approvalStatusLabel(ZH_CN_LABELS, status)).toBe(APPROVAL_STATUS_MAP[status]);
    }
    expect(approvalStatusLabel(EN_LABELS, 'approved')).toBe('Approved');
    expect(approvalStatusLabel(EN_LABELS, 'on_hold')).toBe('on_hold');
  });

  describe('given every locale module in src/i18n/locales', () => {
    const modules = import.meta.glob<Record<string, unknown>>('../../../src/i18n/locales/*.ts', { eager: true });
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const locales = Object.entries(modules).map(([path, module]) => {
      const tag = path.slice(path.lastIndexOf('/') + 1, -'.ts'.length);
      return { tag, exports: Object.values(module) as Array<{ locale?: unknown; labels?: Record<string, unknown> }> };
    });

    it('should find at least the shipped zh-CN module', () => {
      expect(locales.map(({ tag }) => tag)).toContain('zh-CN');
    });

    it.each(locales)(
      '$tag: should export one { locale, labels } named after its file, with every English key and placeholder',
      ({ tag, exports }) => {
        const [locale, ...others] = exports;
        expect(others).toEqual([]);
        expect(locale.locale).toBe(tag);
        const labels = locale.labels as Record<string, string>;
        expect(Object.keys(labels).sort()).toEqual(Object.keys(EN_LABELS).sort());
        for (const [key, english] of Object.entries(EN_LABELS)) {
          expect(typeof labels[key] === 'string' && labels[key].trim() !== '', `${tag}.${key} is empty`).toBe(true);
          expect(placeholders(labels[key]), `${tag}.${key} placeholders`).toEqual(placeholders(english));
        }
      },
    );
  });

  it('merges string overrides over English and ignores other values', () => {
    const labels = resolveLabels('en', { timePickerBooked: 'Locked in', timePickerNone: 42, __proto__: 'x' } as Record<string, unknown>);
    expect(labels.timePickerBooked).toBe('Locked in');
    expect(labels.timePickerNone).toBe('None of these work');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('takes another language as a whole table spread into the options', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const language = resolveLanguage(zhCN.locale, { ...zhCN.labels, timePickerBooked: '已锁定' });
    expect(language.locale).toBe('zh-CN');
    expect(language.labels.timePickerBooked).toBe('已锁定');
    expect(language.labels.timePickerNone).toBe('这些时间都不合适');
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('stays English throughout for zh-CN without its table, and says once which import is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // A few overrides are not a table: the cards would be half Chinese, half English.
    const language = resolveLanguage('zh-CN', { expired: '过期' });
    expect(language.locale).toBe('en');
    expect(language.labels.timePickerNone).toBe('None of these work');
    expect(language.labels.expired).toBe('过期');
    resolveLanguage('zh-CN');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('No whole label table for locale "zh-CN"');
    expect(warn.mock.calls[0][0]).toContain('{ ...zhCN } from "copilotkit-interrupts/locales/zh-CN"');
    warn.mockRestore();
  });

  it('asks for every key of a locale the package has no table for', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(resolveLabels('fr', { timePickerBooked: 'Réservé' }).timePickerBooked).toBe('Réservé');
    expect(resolveLanguage('fr').locale).toBe('en');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('give labels for every key of EN_LABELS');
    const french = Object.fromEntries(Object.keys(EN_LABELS).map((key) => [key, `fr:${key}`]));
    expect(resolveLanguage('fr', french).locale).toBe('fr');
    warn.mockRestore();
  });

  it("given a whole table from before a label was added, should keep the table's language", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // `loading` came after the other labels: an app's French table written before it lacks it.
    const french = Object.fromEntries(
      Object.keys(EN_LABELS)
        .filter((key) => key !== 'loading')
        .map((key) => [key, `fr:${key}`]),
    );
    const language = resolveLanguage('fr-CA', french);
    expect(language.locale).toBe('fr-CA');
    expect(language.labels.timePickerNone).toBe('fr:timePickerNone');
    expect(language.labels.loading).toBe(EN_LABELS.loading);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('fills placeholders as text and leaves unknown ones', () => {
    expect(formatLabel('{a} and {b}', { a: '<b>x</b>' })).toBe('<b>x</b> and {b}');
  });
});
