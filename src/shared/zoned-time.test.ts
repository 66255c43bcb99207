import { describe, expect, it } from 'vitest';
import { eachDay, formatWhen, instantAt, wallClockOf, weekdayOfDay } from './zoned-time';

describe('wall-clock times in a zone', () => {
  it('reads a wall-clock time on the zone’s clock', () => {
    expect(instantAt('Asia/Colombo', '2027-01-04', 18 * 60).toISOString()).toBe('2027-01-04T12:30:00.000Z');
    expect(instantAt('UTC', '2027-01-04', 0).toISOString()).toBe('2027-01-04T00:00:00.000Z');
  });

  it('follows daylight saving on either side of a change', () => {
    // London: GMT in March before the 28th, BST (+01:00) after.
    expect(instantAt('Europe/London', '2027-03-27', 9 * 60).toISOString()).toBe('2027-03-27T09:00:00.000Z');
    expect(instantAt('Europe/London', '2027-03-29', 9 * 60).toISOString()).toBe('2027-03-29T08:00:00.000Z');
  });

  it('names weekdays from Monday (1) to Sunday (7) and walks days inclusively', () => {
    expect(weekdayOfDay('2027-01-04')).toBe(1);
    expect(weekdayOfDay('2027-01-10')).toBe(7);
    expect(wallClockOf('Asia/Colombo', new Date('2027-01-10T20:00:00Z'))).toEqual({
      day: '2027-01-11',
      weekday: 1,
      minute: 90,
    });
    expect(eachDay('2027-02-27', '2027-03-01')).toEqual(['2027-02-27', '2027-02-28', '2027-03-01']);
  });

  it('writes a clash’s time on the zone’s clock', () => {
    const start = instantAt('Asia/Colombo', '2027-01-04', 18 * 60);
    const end = instantAt('Asia/Colombo', '2027-01-04', 20 * 60);
    expect(formatWhen(start, end, 'Asia/Colombo')).toBe('Mon 4 Jan 2027, 18:00–20:00');
  });
});
