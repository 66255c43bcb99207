import { describe, expect, it } from 'vitest';
import { addMonthsClamped, todayIn } from './dates';

describe('addMonthsClamped', () => {
  it('keeps the day of month when it exists', () => {
    expect(addMonthsClamped('2025-03-15', 0)).toBe('2025-03-15');
    expect(addMonthsClamped('2025-03-15', 2)).toBe('2025-05-15');
  });
  it('clamps to the last day of shorter months', () => {
    expect(addMonthsClamped('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonthsClamped('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonthsClamped('2025-08-31', 1)).toBe('2025-09-30');
  });
  it('rolls over the year', () => {
    expect(addMonthsClamped('2025-11-30', 3)).toBe('2026-02-28');
    expect(addMonthsClamped('2025-12-01', 13)).toBe('2027-01-01');
  });
});

describe('todayIn', () => {
  it('answers the calendar date in the given time zone', () => {
    const lateUtc = new Date('2025-06-30T20:00:00Z');
    expect(todayIn('UTC', lateUtc)).toBe('2025-06-30');
    expect(todayIn('Asia/Colombo', lateUtc)).toBe('2025-07-01');
  });
});
