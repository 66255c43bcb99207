import { describe, expect, it } from 'vitest';
import { addToDate, todayIn } from './calendar';

describe('dates', () => {
  it('adds months clamped to the month end, then weeks and days', () => {
    expect(addToDate('2025-01-31', { months: 1 })).toBe('2025-02-28');
    expect(addToDate('2024-01-31', { months: 1 })).toBe('2024-02-29');
    expect(addToDate('2025-11-15', { months: 3 })).toBe('2026-02-15');
    expect(addToDate('2025-03-01', { months: 1, weeks: 2, days: 3 })).toBe('2025-04-18');
    expect(addToDate('2025-12-31', { days: 1 })).toBe('2026-01-01');
  });
  it('reads today in the clinic time zone', () => {
    const lateUtc = new Date('2025-03-09T20:00:00Z');
    expect(todayIn('Asia/Colombo', lateUtc)).toBe('2025-03-10');
    expect(todayIn('UTC', lateUtc)).toBe('2025-03-09');
  });

  it('turns the day at the zone midnight, to the second, when asked again and again', () => {
    // Colombo is UTC+5:30 and Kathmandu UTC+5:45: their days start at :30 and :15 past a UTC hour.
    for (const [zone, midnight] of [
      ['Asia/Colombo', '2025-03-09T18:30:00Z'],
      ['Asia/Kathmandu', '2025-03-09T18:15:00Z'],
    ] as const) {
      const at = Date.parse(midnight);
      expect(todayIn(zone, new Date(at - 60_000))).toBe('2025-03-09');
      expect(todayIn(zone, new Date(at - 1))).toBe('2025-03-09');
      expect(todayIn(zone, new Date(at))).toBe('2025-03-10');
      expect(todayIn(zone, new Date(at + 59_999))).toBe('2025-03-10');
      expect(todayIn(zone, new Date(at - 1))).toBe('2025-03-09');
    }
  });
});
