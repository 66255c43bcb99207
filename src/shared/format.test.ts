import { describe, expect, it } from 'vitest';
import {
  currencySymbol,
  formatAmount,
  formatCount,
  formatDate,
  formatDateTime,
  formatDay,
  formatMoney,
  formatTimestamp,
  plural,
} from './format';

describe('formatMoney', () => {
  it('writes both settings currencies with their symbol, two decimals and thousands separators', () => {
    expect(formatMoney(35000.5, 'LKR')).toBe('Rs. 35,000.50');
    expect(formatMoney(120, 'USD')).toBe('$ 120.00');
    expect(formatMoney(0, 'LKR')).toBe('Rs. 0.00');
    expect(formatMoney(999.99, 'usd')).toBe('$ 999.99');
  });

  it('defaults to the local currency and writes an unknown code as itself', () => {
    expect(formatMoney(12500)).toBe('Rs. 12,500.00');
    expect(formatMoney(10, 'CHF')).toBe('CHF 10.00');
    expect(currencySymbol('LKR')).toBe('Rs.');
    expect(currencySymbol('USD')).toBe('$');
  });

  it('rounds half away from zero on the decimal value, not the binary float', () => {
    expect(formatMoney(1.005, 'LKR')).toBe('Rs. 1.01');
    expect(formatMoney(0.1 + 0.2, 'USD')).toBe('$ 0.30');
    expect(formatMoney(2.675, 'LKR')).toBe('Rs. 2.68');
    expect(formatMoney(1234.564, 'LKR')).toBe('Rs. 1,234.56');
    expect(formatMoney(-1.005, 'LKR')).toBe('-Rs. 1.01');
  });

  it('puts the minus before the symbol, and never writes minus zero', () => {
    expect(formatMoney(-35000.5, 'LKR')).toBe('-Rs. 35,000.50');
    expect(formatMoney(-120, 'USD')).toBe('-$ 120.00');
    expect(formatMoney(-0.001, 'LKR')).toBe('Rs. 0.00');
    expect(formatAmount(-1200)).toBe('-1,200.00');
  });

  it('writes the largest stored amounts exactly', () => {
    expect(formatMoney(9_999_999_999.99, 'LKR')).toBe('Rs. 9,999,999,999.99');
    expect(formatMoney(1_250_000, 'USD')).toBe('$ 1,250,000.00');
    expect(formatMoney(-9_999_999_999.99, 'USD')).toBe('-$ 9,999,999,999.99');
    expect(formatAmount(1e20)).toBe('100,000,000,000,000,000,000.00');
  });

  it('writes a dash when there is no amount', () => {
    expect(formatMoney(null, 'LKR')).toBe('—');
    expect(formatMoney(undefined)).toBe('—');
    expect(formatMoney(Number.NaN)).toBe('—');
  });
});

describe('counts and plurals', () => {
  it('says one in the singular and everything else in the plural', () => {
    expect(plural(1, 'enrollment')).toBe('1 enrollment');
    expect(plural(2, 'enrollment')).toBe('2 enrollments');
    expect(plural(0, 'booking')).toBe('0 bookings');
    expect(plural(1500, 'booking')).toBe('1,500 bookings');
    expect(plural(3, 'person', 'people')).toBe('3 people');
    expect(formatCount(-12345)).toBe('-12,345');
  });
});

describe('dates', () => {
  it('writes a calendar day the same wherever it is read', () => {
    expect(formatDay('2026-11-22')).toBe('22 Nov 2026');
    expect(formatDay('2026-03-05')).toBe('05 Mar 2026');
    expect(formatDate('2026-01-01')).toBe('01 Jan 2026');
    expect(formatDay('2026-13-01')).toBe('—');
    expect(formatDay(null)).toBe('—');
  });

  it('writes an instant as its day and time in the given time zone', () => {
    const instant = '2026-11-22T07:37:14.000Z';
    expect(formatDateTime(instant, 'Asia/Colombo')).toBe('22 Nov 2026, 13:07');
    expect(formatDateTime(instant, 'UTC')).toBe('22 Nov 2026, 07:37');
    expect(formatDateTime(new Date(instant), 'Asia/Colombo')).toBe('22 Nov 2026, 13:07');
    expect(formatDate(instant, 'Asia/Colombo')).toBe('22 Nov 2026');
    // 20:00 UTC is already the next day in Colombo.
    expect(formatDate('2026-11-22T20:00:00Z', 'Asia/Colombo')).toBe('23 Nov 2026');
    expect(formatDateTime('2026-11-22T18:30:00Z', 'Asia/Colombo')).toBe('23 Nov 2026, 00:00');
  });

  it('writes an audit timestamp to the second in the given time zone', () => {
    expect(formatTimestamp('2026-11-22T07:37:14.000Z', 'Asia/Colombo')).toBe('2026-11-22 13:07:14');
    expect(formatTimestamp(new Date('2026-03-05T18:30:09Z'), 'Asia/Colombo')).toBe('2026-03-06 00:00:09');
    expect(formatTimestamp(null)).toBe('—');
  });

  it('writes a dash when there is no date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime(undefined)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });
});
