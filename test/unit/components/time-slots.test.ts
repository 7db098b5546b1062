// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { generateCandidateSlots } from '../../../src/time-slots';
import { zhCN } from '../../../src/i18n/locales/zh-CN';

const LABELS = ['Tomorrow 10:00 AM', 'Tomorrow 2:00 PM', 'Monday 9:00 AM', 'Monday 3:30 PM'];
// 2026-04-19 is a Sunday; the week runs Sunday 19 .. Saturday 25.
const at = (day: number, hour = 8) => new Date(2026, 3, day, hour, 0, 0);

describe('generateCandidateSlots', () => {
  it('offers the four relative labels with local times', () => {
    const slots = generateCandidateSlots({ now: at(22) }); // Wednesday
    expect(slots.map((s) => s.label)).toEqual(LABELS);
    const dates = slots.map((s) => new Date(s.iso));
    expect(dates.map((d) => [d.getDate(), d.getHours(), d.getMinutes()])).toEqual([
      [23, 10, 0],
      [23, 14, 0],
      [27, 9, 0],
      [27, 15, 30],
    ]);
  });

  it.each([
    [19, 'Sunday', 27],
    [20, 'Monday', 27],
    [21, 'Tuesday', 27],
    [24, 'Friday', 27],
    [25, 'Saturday', 27],
  ])('on the %i (%s) "Monday" is the %i: a Monday at least two days away', (day, _weekday, monday) => {
    const slots = generateCandidateSlots({ now: at(day) });
    const mondayDate = new Date(slots[2].iso);
    expect(mondayDate.getDay()).toBe(1);
    expect(mondayDate.getDate()).toBe(monday);
    expect((mondayDate.getTime() - at(day, 0).getTime()) / 86_400_000).toBeGreaterThanOrEqual(2);
  });

  it('rolls over month ends', () => {
    const slots = generateCandidateSlots({ now: new Date(2026, 3, 30, 23, 30) }); // Thursday 30 April
    expect(new Date(slots[0].iso).getMonth()).toBe(4);
    expect(new Date(slots[0].iso).getDate()).toBe(1);
  });

  it('accepts epoch milliseconds and labels in zh-CN', () => {
    const slots = generateCandidateSlots({ now: at(22).getTime(), labels: zhCN.labels });
    expect(slots.map((s) => s.label)).toEqual(['明天 上午10:00', '明天 下午2:00', '周一 上午9:00', '周一 下午3:30']);
  });

  it('uses the system clock by default and returns fresh ISO strings', () => {
    const slots = generateCandidateSlots();
    expect(slots).toHaveLength(4);
    for (const slot of slots) expect(new Date(slot.iso).getTime()).toBeGreaterThan(Date.now());
  });
});
