import { describe, expect, it } from 'vitest';
import { eachDay, formatWhen, instantAt, isoWeekday } from './class-time';

describe('timetable times in a zone', () => {
  it('reads a wall-clock time on the zone’s clock', () => {
    expect(instantAt('2027-01-04', 18 * 60, 'Asia/Colombo').toISOString()).toBe('2027-01-04T12:30:00.000Z');
    expect(instantAt('2027-01-04', 0, 'UTC').toISOString()).toBe('2027-01-04T00:00:00.000Z');
  });

  it('follows daylight saving on either side of a change', () => {
    // London: GMT in March before the 28th, BST (+01:00) after.
    expect(instantAt('2027-03-27', 9 * 60, 'Europe/London').toISOString()).toBe('2027-03-27T09:00:00.000Z');
    expect(instantAt('2027-03-29', 9 * 60, 'Europe/London').toISOString()).toBe('2027-03-29T08:00:00.000Z');
  });

  it('names weekdays from Monday (1) to Sunday (7) and walks days inclusively', () => {
    expect(isoWeekday('2027-01-04')).toBe(1);
    expect(isoWeekday('2027-01-10')).toBe(7);
    expect(eachDay('2027-02-27', '2027-03-01')).toEqual(['2027-02-27', '2027-02-28', '2027-03-01']);
  });

  it('writes a clash’s time on the zone’s clock', () => {
    const start = instantAt('2027-01-04', 18 * 60, 'Asia/Colombo');
    const end = instantAt('2027-01-04', 20 * 60, 'Asia/Colombo');
    expect(formatWhen(start, end, 'Asia/Colombo')).toBe('Mon 4 Jan 2027, 18:00–20:00');
  });
});
