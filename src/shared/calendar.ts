/**
 * Calendar days as 'YYYY-MM-DD' strings: due dates, treatment periods and "today" are days, not
 * instants, so they compare as text and never shift with the reader's time zone.
 */

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The last answer per zone and the minute it was for. */
const lastDay = new Map<string, { minute: number; day: string }>();

/**
 * The calendar date (YYYY-MM-DD) of `now` in the given IANA time zone. One formatter per zone:
 * building one costs about twenty times using one, and every enrolment and booking read asks.
 * Formatting is still a few microseconds, so the answer is kept for the rest of its minute: every
 * zone's offset is a whole number of minutes, so a day never starts inside one.
 */
export function todayIn(timeZone: string, now?: Date): string {
  // Without `now`, the clock is read as a number: a Date is made only when the day is formatted.
  const ms = now ? now.getTime() : Date.now();
  const minute = Math.floor(ms / 60_000);
  const last = lastDay.get(timeZone);
  if (last?.minute === minute) return last.day;
  let f = dayFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, f);
  }
  const day = f.format(now ?? new Date(ms));
  lastDay.set(timeZone, { minute, day });
  return day;
}

/**
 * Calendar arithmetic on YYYY-MM-DD: months first (clamped to the month's last day, so 31 Jan +
 * 1 month is 28/29 Feb rather than spilling into March), then weeks and days.
 */
export function addToDate(date: string, add: { months?: number; weeks?: number; days?: number }): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const totalMonths = y * 12 + (m - 1) + (add.months ?? 0);
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const base = new Date(Date.UTC(year, month, Math.min(d, lastDay)));
  base.setUTCDate(base.getUTCDate() + (add.weeks ?? 0) * 7 + (add.days ?? 0));
  return base.toISOString().slice(0, 10);
}
