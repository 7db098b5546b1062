import { EN_LABELS, formatLabel, type InterruptLabels } from '../i18n/labels';
import type { TimeSlot } from '../unwrap/guards';

/** The wording of the candidate slots: four keys of a locale's label table. */
export type SlotWording = Pick<InterruptLabels, 'slotTomorrow' | 'slotMonday' | 'slotAm' | 'slotPm'>;

export interface CandidateSlotOptions {
  /** The clock: a Date or epoch milliseconds. Injectable so tests and stories are deterministic. */
  now?: Date | number;
  /** The wording, from a locale's label table (`zhCN.labels`). English by default, the labels the QA contract asserts. */
  labels?: SlotWording;
}

/** The four relative candidates, as [day, hour, minute]; "monday" is the next Monday ≥ 2 days away. */
const CANDIDATES = [
  ['tomorrow', 10, 0],
  ['tomorrow', 14, 0],
  ['monday', 9, 0],
  ['monday', 15, 30],
] as const;

function clockLabel(hour: number, minute: number, wording: SlotWording): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return formatLabel(hour < 12 ? wording.slotAm : wording.slotPm, { h, mm: String(minute).padStart(2, '0') });
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
  const wording = options.labels ?? EN_LABELS;
  const offsets = { tomorrow: 1, monday: daysUntilMonday(now) };
  return CANDIDATES.map(([day, hour, minute]) => {
    const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offsets[day], hour, minute, 0, 0);
    const dayLabel = day === 'tomorrow' ? wording.slotTomorrow : wording.slotMonday;
    return { label: formatLabel(dayLabel, { time: clockLabel(hour, minute, wording) }), iso: at.toISOString() };
  });
}
