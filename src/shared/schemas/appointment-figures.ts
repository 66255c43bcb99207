import { z } from 'zod';
import { blankToUndefined, zId } from '@shared/schemas/primitives';
import { zCountOut, zDayOut } from '@shared/schemas/output';

/** appointments.figures: the dashboard's appointment figures, of one branch or all the caller sees. */
export const ZAppointmentFiguresInput = z.object({
  branchId: z.preprocess(blankToUndefined, zId('Branch').optional()),
});
export type TAppointmentFiguresInput = z.infer<typeof ZAppointmentFiguresInput>;

export const ZAppointmentFigures = z.object({
  /** Today in TIME_ZONE, and the Monday-to-Sunday week around it. */
  day: zDayOut,
  weekFrom: zDayOut,
  weekTo: zDayOut,
  today: z.object({
    /** Every appointment of the day but the cancelled ones. */
    total: zCountOut,
    /** Checked in (arrived, or arrived and since completed). */
    arrived: zCountOut,
    completed: zCountOut,
    noShows: zCountOut,
    cancelled: zCountOut,
  }),
  week: z.object({
    bookedMinutes: zCountOut,
    workingMinutes: zCountOut,
    /** booked ÷ working, 0–1 (more when booked past the plan); null without working hours. */
    utilisation: z.number().nonnegative().nullable(),
  }),
});
export type TAppointmentFigures = z.infer<typeof ZAppointmentFigures>;

/** appointments.clock: the zone and step the calendar screens draw with. */
export const ZCalendarClock = z.object({
  timeZone: z.string(),
  today: zDayOut,
  slotStepMinutes: z.number().int().positive(),
});
export type TCalendarClock = z.infer<typeof ZCalendarClock>;
