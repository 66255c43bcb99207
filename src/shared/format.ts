import { toMinor } from './money';

/**
 * The one way money, dates and counts are written, on every screen, report and e-mail
 * (docs/product.md#formats). Pure functions: the server passes TIME_ZONE, the browser its own zone.
 */

/** What a settings currency code is written as; an unknown code is written as itself. */
const SYMBOLS: Record<string, string> = { LKR: 'Rs.', USD: '$', EUR: '€', GBP: '£', INR: '₹', AUD: 'A$' };

export function currencySymbol(code: string | null | undefined): string {
  const c = (code ?? 'LKR').trim().toUpperCase();
  return SYMBOLS[c] ?? c;
}

const wholeWithSeparators = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const fallbackAmount = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * '35,000.50', '-1,200.00': two decimals (half away from zero on the decimal value, as amounts are
 * stored, so 1.005 is 1.01), thousands separators; '—' when there is no number.
 */
export function formatAmount(amount: number | null | undefined): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '—';
  const minor = toMinor(amount);
  const abs = Math.abs(minor);
  // Beyond exact integers the cents cannot be trusted anyway: let Intl write the float.
  if (abs > Number.MAX_SAFE_INTEGER) return fallbackAmount.format(amount);
  const text = `${wholeWithSeparators(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
  return minor < 0 ? `-${text}` : text;
}

/** 'Rs. 35,000.50', '$ 120.00', '-Rs. 500.00': the currency's symbol, a space, the amount. */
export function formatMoney(amount: number | null | undefined, currency: string | null | undefined = 'LKR'): string {
  const text = formatAmount(amount);
  if (text === '—') return text;
  const symbol = currencySymbol(currency);
  return text.startsWith('-') ? `-${symbol} ${text.slice(1)}` : `${symbol} ${text}`;
}

/** '1,234' for a count. */
export function formatCount(n: number): string {
  return Number.isSafeInteger(n) ? (n < 0 ? '-' : '') + wholeWithSeparators(Math.abs(n)) : String(n);
}

/** '1 enrollment', '2 enrollments', '1,500 bookings'. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayText(y: number, m: number, d: number): string {
  return `${String(d).padStart(2, '0')} ${MONTHS[m - 1]} ${y}`;
}

/** A calendar day 'YYYY-MM-DD' (a due date) as '22 Nov 2026', the same day wherever it is read. */
export function formatDay(isoDay: string | null | undefined): string {
  const m = isoDay ? DAY_RE.exec(isoDay.trim()) : null;
  if (!m) return '—';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return '—';
  return dayText(y, mo, d);
}

/** An instant's wall-clock parts in a zone: the date as numbers, the time as two-digit text. */
export interface WallParts {
  y: number;
  m: number;
  d: number;
  hh: string;
  mm: string;
  ss: string;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();
/** An instant's wall-clock parts in `timeZone` (the runtime's own zone when absent), to the second. */
export function wallPartsOf(instant: Date, timeZone: string | undefined): WallParts {
  const key = timeZone ?? '';
  let f = partFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partFormats.set(key, f);
  }
  const parts = f.formatToParts(instant);
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  return {
    y: Number(get('year')),
    m: Number(get('month')),
    d: Number(get('day')),
    hh: get('hour'),
    mm: get('minute'),
    ss: get('second'),
  };
}

function toInstant(value: string | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * A date as '22 Nov 2026': a bare 'YYYY-MM-DD' is a calendar day, anything else an instant shown
 * as its day in `timeZone` (the runtime's own when omitted: the browser's on a screen).
 */
export function formatDate(value: string | Date | null | undefined, timeZone?: string): string {
  if (typeof value === 'string' && DAY_RE.test(value.trim())) return formatDay(value);
  const d = toInstant(value);
  if (!d) return '—';
  const p = wallPartsOf(d, timeZone);
  return dayText(p.y, p.m, p.d);
}

/** An instant as '22 Nov 2026, 13:07' in `timeZone` (the runtime's own when omitted). */
export function formatDateTime(value: string | Date | null | undefined, timeZone?: string): string {
  const d = toInstant(value);
  if (!d) return '—';
  const p = wallPartsOf(d, timeZone);
  return `${dayText(p.y, p.m, p.d)}, ${p.hh}:${p.mm}`;
}

/** An instant as '2026-11-22 13:07:09' in `timeZone`: to the second, as an audit trail wants it. */
export function formatTimestamp(value: string | Date | null | undefined, timeZone?: string): string {
  const d = toInstant(value);
  if (!d) return '—';
  const p = wallPartsOf(d, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${p.y}-${pad(p.m)}-${pad(p.d)} ${p.hh}:${p.mm}:${p.ss}`;
}

/** An exchange rate ('320.75', '1,320.1234'): up to the four decimals the settings keep. */
export function formatRate(rate: number): string {
  return rate.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
}
