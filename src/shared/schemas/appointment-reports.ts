import { z } from 'zod';
import { blankToUndefined, parseDay, zOptionalText, zText } from '@shared/schemas/primitives';

/*
 * The appointments report (docs/reports.md#appointments): practitioner utilisation, no-show rates
 * and appointments by status per day over a range of days in TIME_ZONE. The same filters serve the
 * JSON answer and the Excel and PDF files.
 */

/** The longest range a report covers: `to` at most this many days after `from`. */
export const APPOINTMENT_REPORT_MAX_DAYS = 366;

/** A required day of a report's range (YYYY-MM-DD, in TIME_ZONE). */
export const zReportDay = (label: string) =>
  z.preprocess(
    blankToUndefined,
    zText(label, { message: `${label} is required.` }).refine(
      (s) => parseDay(s) !== null,
      `${label} must be a date (YYYY-MM-DD) between 1900 and 2100.`,
    ),
  );

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/**
 * The range rule of the reports over days (appointments, attendance): `from` not after `to`, at
 * most APPOINTMENT_REPORT_MAX_DAYS between them; the issue is reported on `to`.
 */
export function checkReportRange(f: { from: string; to: string }, ctx: z.RefinementCtx) {
  const days = dayNumber(f.to) - dayNumber(f.from);
  if (days < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'From cannot be after To.' });
  else if (days > APPOINTMENT_REPORT_MAX_DAYS)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `A report covers at most ${APPOINTMENT_REPORT_MAX_DAYS} days; narrow From and To.`,
    });
}

export const ZAppointmentReportFilters = z
  .object({
    from: zReportDay('From'),
    to: zReportDay('To'),
    branchId: zOptionalText('Branch', 200),
  })
  .superRefine(checkReportRange);
export type TAppointmentReportFilters = z.infer<typeof ZAppointmentReportFilters>;

const zRef = z.object({ _id: z.string(), name: z.string() });
const zPerson = z.object({
  /** Null for a customer whose account was deleted. */
  _id: z.string().nullable(),
  fullName: z.string(),
});

export const ZUtilisationRow = z.object({
  practitioner: zPerson,
  branch: zRef,
  bookedMinutes: z.number(),
  workingMinutes: z.number(),
  /** bookedMinutes ÷ workingMinutes (4 decimals); null when there were no working minutes. */
  rate: z.number().nullable(),
});

export const ZNoShowRow = z.object({
  /** Appointments whose outcome is known: arrived, completed or no-show. */
  appointments: z.number(),
  noShows: z.number(),
  /** noShows ÷ appointments (4 decimals). */
  rate: z.number(),
});

export const ZStatusDay = z.object({
  day: z.string(),
  scheduled: z.number(),
  confirmed: z.number(),
  arrived: z.number(),
  completed: z.number(),
  cancelled: z.number(),
  no_show: z.number(),
});

export const ZAppointmentReport = z.object({
  from: z.string(),
  to: z.string(),
  branchId: z.string().nullable(),
  utilisation: z.array(ZUtilisationRow),
  noShows: z.object({
    byPractitioner: z.array(ZNoShowRow.extend({ practitioner: zPerson })),
    byCustomer: z.array(ZNoShowRow.extend({ customer: zPerson })),
  }),
  byDay: z.array(ZStatusDay),
});
export type TAppointmentReport = z.infer<typeof ZAppointmentReport>;
