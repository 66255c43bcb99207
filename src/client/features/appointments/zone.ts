/**
 * Wall-clock time in the organisation's zone (TIME_ZONE, from appointments.clock): the server
 * reads days, weekdays and working hours there, so the calendar draws and books in it too,
 * whatever zone the browser is in.
 */
import { wallPartsOf } from '@shared/format';

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset at `at` as '+05:30' (the form the calendar's `timeZone` option takes). */
export function offsetOf(timeZone: string, at: Date): string {
  let f = offsetFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, f);
  }
  const name = f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name);
  return m ? `${m[1]}:${m[2] ?? '00'}` : '+00:00';
}

/** An instant's day ('YYYY-MM-DD') and time ('HH:mm') in the zone. */
export function wallOf(timeZone: string, at: string | Date): { day: string; time: string } {
  const p = wallPartsOf(new Date(at), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return { day: `${p.y}-${two(p.m)}-${two(p.d)}`, time: `${p.hh}:${p.mm}` };
}

/** The instant of a wall-clock day and time in the zone, as ISO 8601 with its offset. */
export function instantOf(timeZone: string, day: string, time: string): string {
  const guess = new Date(`${day}T${time}:00Z`);
  // The offset near the wall time, then at the first answer: right on either side of a DST change.
  const first = offsetOf(timeZone, guess);
  const second = offsetOf(timeZone, new Date(`${day}T${time}:00${first}`));
  return new Date(`${day}T${time}:00${second}`).toISOString();
}

/** A date the calendar hands to a callback: its local fields are the wall clock it shows. */
export function wallOfCalendarDate(d: Date): { day: string; time: string } {
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    day: `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`,
    time: `${two(d.getHours())}:${two(d.getMinutes())}`,
  };
}

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Monday of the week of `day`. */
export function mondayOf(day: string): string {
  return addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
}

/** 'Wed 2 Dec 2026' for a day. */
export function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}
