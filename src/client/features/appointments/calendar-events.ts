import type { Calendar } from '@event-calendar/core';
import { WEEKDAYS } from '@shared/schemas/appointments';
import type { TClassSession } from '@shared/schemas/classes';
import type { TClosure, TTimeOff, TWorkingPlan } from '@shared/schemas/practitioners';
import { wrapPieces } from '@/components/person-name';
import { isLive, type Appointment } from './appointment-queries';
import { addDays, wallOf } from './zone';

/**
 * Background colours, given on each event: a resource's colour would otherwise tint its
 * background events too (calendar.css sets how strongly each shows).
 */
const SHADES = { working: '#22c55e', away: '#64748b', closed: '#ef4444' };

/** Class sessions in their own colour, apart from every practitioner's (docs/classes.md#screens). */
export const CLASS_COLOR = '#7c3aed';

/** A class session's event id: never taken for an appointment's (the calendar opens those by id). */
export const classEventId = (id: string) => `class:${id}`;

export type CalendarMode = 'practitioners' | 'rooms' | 'week';

/** `Saman Jayasuriya (saman)`: the calendar draws a title as plain text, so the handle goes in brackets. */
function customerName(c: Appointment['customer']): string {
  if (!c) return 'Customer';
  const name = c.fullName.trim();
  return name && name !== c.username ? `${name} (${c.username})` : c.username;
}

/**
 * A title as the calendar's DOM content, with a line-break opportunity at each wrap point of its
 * text (`wrapPieces`), so a long username in the phone's list wraps at its dots instead of
 * widening the page.
 */
function wrapped(text: string): { domNodes: Node[] } {
  return {
    domNodes: wrapPieces(text).flatMap((piece, i) => {
      const node = document.createTextNode(piece);
      return i === 0 ? [node] : [document.createElement('wbr'), node];
    }),
  };
}

/**
 * What the calendar draws for the days shown: working hours and time off as background bands per
 * practitioner, closed days across every column, and the appointments still on (cancelled ones
 * are left out), all as wall-clock times of TIME_ZONE (the calendar's `timeZone` is its offset).
 */
export function calendarEvents(v: {
  timeZone: string;
  from: string;
  to: string;
  mode: CalendarMode;
  closures: TClosure[];
  plans: Array<TWorkingPlan | undefined>;
  timeOff: Array<{ data: TTimeOff[] } | undefined>;
  rooms: Array<{ _id: string }>;
  shown: Array<{ _id: string }>;
  appointments: Appointment[];
  /** The branch's class sessions, and which practitioner column a user teaching one stands in. */
  classes: TClassSession[];
  practitionerOfUser: Map<string, string>;
}): Calendar.EventInput[] {
  const { timeZone, from, to, mode, shown, appointments } = v;
  const wall = (iso: string) => {
    const w = wallOf(timeZone, iso);
    return `${w.day}T${w.time}:00`;
  };
  const out: Calendar.EventInput[] = [];
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  const closed = new Set(v.closures.map((c) => c.date));
  // Working hours: a light band per practitioner's period (rooms have no hours of their own).
  if (mode !== 'rooms') {
    v.plans.forEach((plan) => {
      if (!plan) return;
      for (const d of days) {
        if (closed.has(d)) continue;
        const weekday = WEEKDAYS[(new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7]!;
        for (const period of plan.days[weekday]) {
          out.push({
            start: `${d}T${period.start}:00`,
            end: period.end === '24:00' ? `${addDays(d, 1)}T00:00:00` : `${d}T${period.end}:00`,
            display: 'background',
            resourceIds: [plan.practitionerId],
            backgroundColor: SHADES.working,
            classNames: ['ec-working'],
          });
        }
      }
    });
    v.timeOff.forEach((off) => {
      for (const t of off?.data ?? []) {
        out.push({
          start: wall(t.start),
          end: wall(t.end),
          display: 'background',
          resourceIds: [t.practitionerId],
          title: `Time off${t.reason ? `: ${t.reason}` : ''}`,
          backgroundColor: SHADES.away,
          classNames: ['ec-away'],
        });
      }
    });
  }
  const allColumns = mode === 'rooms' ? v.rooms.map((r) => r._id) : shown.map((p) => p._id);
  for (const c of v.closures) {
    out.push({
      start: `${c.date}T00:00:00`,
      end: `${addDays(c.date, 1)}T00:00:00`,
      display: 'background',
      resourceIds: allColumns,
      title: `Closed${c.reason ? `: ${c.reason}` : ''}`,
      backgroundColor: SHADES.closed,
      classNames: ['ec-closed'],
    });
  }
  for (const a of appointments) {
    out.push({
      id: a._id,
      start: wall(a.start),
      end: wall(a.end),
      // The customer by full name with the username beside it, as every staff screen names people.
      title: wrapped(`${customerName(a.customer)} · ${a.treatment.treatmentName}`),
      resourceIds: mode === 'rooms' ? (a.room ? [a.room._id] : []) : [a.practitioner._id],
      backgroundColor: a.practitioner.color,
      startEditable: isLive(a.status),
      classNames: a.status === 'no_show' ? ['ec-no-show'] : [],
    });
  }
  // Class sessions hold a room and an instructor like an appointment: drawn in the room's column,
  // or the instructor's when they are a practitioner shown here; not movable from the calendar.
  const columns = new Set(allColumns);
  for (const c of v.classes) {
    const column =
      mode === 'rooms' ? c.room?._id : c.instructor ? v.practitionerOfUser.get(c.instructor._id) : undefined;
    if (!column || !columns.has(column)) continue;
    out.push({
      id: classEventId(c._id),
      start: wall(c.start),
      end: wall(c.end),
      title: `Class · ${c.batch.name}`,
      resourceIds: [column],
      backgroundColor: CLASS_COLOR,
      startEditable: false,
      durationEditable: false,
      classNames: ['ec-class'],
    });
  }
  return out;
}
