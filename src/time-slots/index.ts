import type { TimeSlot } from '../unwrap/guards';

/** Languages the candidate slot labels come in. */
export type TimeSlotLocale = 'en' | 'zh-CN';

export interface CandidateSlotOptions {
  /** The clock: a Date or epoch milliseconds. Injectable so tests and stories are deterministic. */
  now?: Date | number;
  /** Label language. Defaults to English, the labels the QA contract asserts. */
  locale?: TimeSlotLocale;
}

/** The four relative candidates, as [day, hour, minute]; "monday" is the next Monday ≥ 2 days away. */
const CANDIDATES = [
  ['tomorrow', 10, 0],
  ['tomorrow', 14, 0],
  ['monday', 9, 0],
  ['monday', 15, 30],
] as const;

const DAY_WORDS: Record<TimeSlotLocale, Record<'tomorrow' | 'monday', string>> = {
  en: { tomorrow: 'Tomorrow', monday: 'Monday' },
  'zh-CN': { tomorrow: '明天', monday: '周一' },
};

function clockLabel(hour: number, minute: number, locale: TimeSlotLocale): string {
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  const mm = String(minute).padStart(2, '0');
  if (locale === 'zh-CN') return `${hour < 12 ? '上午' : '下午'}${h12}:${mm}`;
  return `${h12}:${mm} ${hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * Days from `today` to the next Monday that is at least two days away. On Sunday the next Monday
 * is tomorrow, which would make "Monday" and "Tomorrow" the same day, so it skips a week.
 */
function daysUntilMonday(today: Date): number {
  const days = (8 - today.getDay()) % 7 || 7; // getDay(): 0 = Sunday, 1 = Monday
  return days < 2 ? days + 7 : days;
}

/**
 * The four relative meeting slots a `schedule_meeting` picker offers when the tool sends none:
 * Tomorrow 10:00 AM, Tomorrow 2:00 PM, Monday 9:00 AM, Monday 3:30 PM, each with its ISO time.
 * Computed in the local time zone from `now`, so the dates never go stale. Framework-free: the
 * TimePickerCard and the Mastra `schedule_meeting` tool share it, so both offer the same slots.
 *
 * @example
 * generateCandidateSlots({ now: new Date('2026-04-22T08:00:00') });
 * // [{ label: 'Tomorrow 10:00 AM', iso: '2026-04-23T…' }, …, { label: 'Monday 3:30 PM', iso: '2026-04-27T…' }]
 */
export function generateCandidateSlots(options: CandidateSlotOptions = {}): TimeSlot[] {
  const now = new Date(options.now ?? Date.now());
  const locale: TimeSlotLocale = options.locale === 'zh-CN' ? 'zh-CN' : 'en';
  const offsets = { tomorrow: 1, monday: daysUntilMonday(now) };
  return CANDIDATES.map(([day, hour, minute]) => {
    const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offsets[day], hour, minute, 0, 0);
    return { label: `${DAY_WORDS[locale][day]} ${clockLabel(hour, minute, locale)}`, iso: at.toISOString() };
  });
}
