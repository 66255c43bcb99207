/**
 * Wall-clock times of the timetable read in TIME_ZONE (docs/classes.md#sessions): a slot's
 * "Monday 18:00" is turned into the instant it names on each date, whatever the zone's offset.
 */
import { addToDate, todayIn } from '../../../shared/calendar';
import { WEEKDAYS, type Weekday } from '@shared/schemas/classes';

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at `at`, in milliseconds. */
function offsetMs(timeZone: string, at: number): number {
  let f = partFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant at `minute` minutes after midnight of `day` (YYYY-MM-DD) on the zone's clock. */
export function instantAt(day: string, minute: number, timeZone: string): Date {
  const wall = Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10), 0, minute);
  let at = wall - offsetMs(timeZone, wall);
  // Near an offset change the first guess can use the other side's offset: correct it once.
  const second = offsetMs(timeZone, at);
  if (wall - second !== at) at = wall - second;
  return new Date(at);
}

/** 1 (Monday) … 7 (Sunday) of a date. */
export function isoWeekday(day: string): number {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

export const weekdayNumber = (w: Weekday) => WEEKDAYS.indexOf(w) + 1;
export const weekdayName = (n: number): Weekday => WEEKDAYS[n - 1] ?? 'monday';

/** Every date from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addToDate(d, { days: 1 })) days.push(d);
  return days;
}

export const dayOf = (at: Date, timeZone: string) => todayIn(timeZone, at);

const whenFormats = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/** "Mon 4 Jan 2027, 18:00–20:00" on the zone's clock, for the messages that name a clash. */
export function formatWhen(start: Date, end: Date, timeZone?: string): string {
  if (!timeZone) return `${start.toISOString()}–${end.toISOString()}`;
  let f = whenFormats.get(timeZone);
  if (!f) {
    f = {
      day: new Intl.DateTimeFormat('en-GB', {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      }),
      time: new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    };
    whenFormats.set(timeZone, f);
  }
  return `${f.day.format(start).replace(/,/g, '')}, ${f.time.format(start)}–${f.time.format(end)}`;
}
