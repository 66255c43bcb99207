import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../shared/format';
import { dateTimeCells } from './report-writers';

describe('dateTimeCells', () => {
  it('shows what formatDateTime shows for rows in time order, across daylight-saving changes', () => {
    const zones = ['Asia/Colombo', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Europe/London'];
    // Around the 2026 changes (March, April, October, November) and an old instant with a
    // seconds offset (Colombo before 1906), every 37 s for three hours, as ISO strings.
    const starts = ['2026-03-08T05:00:00Z', '2026-04-04T14:00:00Z', '2026-10-25T00:00:00Z', '2026-11-01T05:00:00Z'];
    for (const timeZone of zones) {
      const cell = dateTimeCells(timeZone);
      for (const start of [...starts, '1900-01-01T00:00:00Z']) {
        const t0 = Date.parse(start);
        for (let t = t0; t < t0 + 3 * 3600_000; t += 37_000) {
          const iso = new Date(t).toISOString();
          expect(cell(iso)).toBe(formatDateTime(iso, timeZone));
        }
      }
      expect(cell('not a date')).toBe(formatDateTime('not a date', timeZone));
    }
  });
});
