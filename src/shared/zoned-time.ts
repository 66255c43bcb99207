/**
 * Instants read as the organisation's wall clock (TIME_ZONE): the day, the weekday (1 = Monday …
 * 7 = Sunday, as working periods and timetable slots store it) and the minute after midnight, and
 * back. Intl answers the zone's offset at each instant, so nothing here assumes a fixed offset (or
 * the absence of DST). The one copy for appointments and classes alike.
 */
import { addToDate, todayIn } from './calendar';
import { formatDay, wallPartsOf } from './format';

export interface WallClock {
  /** YYYY-MM-DD */
  day: string;
  /** 1 = Monday … 7 = Sunday */
  weekday: number;
  /** Minutes after midnight. */
  minute: number;
}

/** The weekday of a YYYY-MM-DD day, 1 = Monday … 7 = Sunday. */
export function weekdayOfDay(day: string): number {
  return ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

export function wallClockOf(timeZone: string, at: Date): WallClock {
  const p = wallPartsOf(at, timeZone);
  const day = `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
  return { day, weekday: weekdayOfDay(day), minute: Number(p.hh) * 60 + Number(p.mm) };
}

/** How far the zone's wall clock is ahead of UTC at `ms`, in milliseconds. */
function offsetAt(timeZone: string, ms: number): number {
  const p = wallPartsOf(new Date(ms), timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, Number(p.hh), Number(p.mm)) - (ms - (((ms % 60_000) + 60_000) % 60_000));
}

/** The instant the wall clock shows `minute` minutes after the start of `day` (minute may be 1440). */
export function instantAt(timeZone: string, day: string, minute: number): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, 0, minute);
  // Once with the offset near the wall time, once more with the offset at the first answer: right
  // on both sides of an offset change.
  const first = wall - offsetAt(timeZone, wall);
  return new Date(wall - offsetAt(timeZone, first));
}

/** 09:05 */
export function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** "04 Jan 2027, 09:00" as the clinic's clock reads the instant. */
export function wallText(timeZone: string, at: Date): string {
  const w = wallClockOf(timeZone, at);
  return `${formatDay(w.day)}, ${hhmm(w.minute)}`;
}

/** "04 Jan 2027, 09:00–10:00" (the end's day is left out when it is the same). */
export function rangeText(timeZone: string, start: Date, end: Date): string {
  const a = wallClockOf(timeZone, start);
  const b = wallClockOf(timeZone, end);
  return `${formatDay(a.day)}, ${hhmm(a.minute)}–${b.day === a.day ? '' : `${formatDay(b.day)}, `}${hhmm(b.minute)}`;
}

/** Every date from `from` to `to` (YYYY-MM-DD), both included. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addToDate(d, { days: 1 })) days.push(d);
  return days;
}

/** The date (YYYY-MM-DD) of an instant on the zone's clock. */
export const dayOf = (at: Date, timeZone: string) => todayIn(timeZone, at);

const whenFormats = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/** "Mon 4 Jan 2027, 18:00–20:00" on the zone's clock, for the messages that name a class clash. */
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
