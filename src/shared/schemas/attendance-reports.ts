import { z } from 'zod';
import { checkReportRange, zReportDay } from '@shared/schemas/appointment-reports';
import { zOptionalText } from '@shared/schemas/primitives';

/*
 * The attendance report (docs/reports.md#attendance): per batch the sessions of a range of days
 * in TIME_ZONE (held, cancelled, to come) and the marks taken at the held ones; per student on a
 * roster the same counts and the rate; and the students under ATTENDANCE_THRESHOLD. The same
 * filters serve the JSON answer and the Excel and PDF files.
 */

/** How many student rows one page of `byStudent` or `underThreshold` holds by default, and at most. */
export const ATTENDANCE_REPORT_PAGE = 100;
export const ATTENDANCE_REPORT_PAGE_MAX = 500;

const filterFields = {
  from: zReportDay('From'),
  to: zReportDay('To'),
  branchId: zOptionalText('Branch', 200),
  batchId: zOptionalText('Batch', 200),
};

export const ZAttendanceReportFilters = z.object(filterFields).superRefine(checkReportRange);
export type TAttendanceReportFilters = z.infer<typeof ZAttendanceReportFilters>;

const zLimit = z.coerce
  .number({ error: 'limit must be a whole number.' })
  .int('limit must be a whole number.')
  .min(1, `limit must be between 1 and ${ATTENDANCE_REPORT_PAGE_MAX}.`)
  .max(ATTENDANCE_REPORT_PAGE_MAX, `limit must be between 1 and ${ATTENDANCE_REPORT_PAGE_MAX}.`)
  .default(ATTENDANCE_REPORT_PAGE);

/** The next page of one of the student lists: `cursor` is a page's `nextCursor`. */
export const ZAttendanceStudentsInput = z
  .object({
    ...filterFields,
    list: z.enum(['byStudent', 'underThreshold'], { error: 'list must be byStudent or underThreshold.' }),
    cursor: zOptionalText('Cursor', 1000),
    limit: zLimit,
  })
  .superRefine(checkReportRange);
export type TAttendanceStudentsInput = z.infer<typeof ZAttendanceStudentsInput>;

const zRef = z.object({ _id: z.string(), name: z.string() });

const counts = {
  present: z.number(),
  late: z.number(),
  absent: z.number(),
  excused: z.number(),
  unmarked: z.number(),
  /** (present + late) ÷ (present + late + absent) × 100, one decimal; null while none counts. */
  rate: z.number().nullable(),
};

export const ZAttendanceBatchRow = z.object({
  batch: zRef.extend({ status: z.enum(['open', 'closed']) }),
  branch: zRef,
  /** Every session of the batch in the range, whatever its state. */
  sessions: z.number(),
  /** Scheduled and started. */
  held: z.number(),
  cancelled: z.number(),
  /** Scheduled, not started yet. */
  upcoming: z.number(),
  ...counts,
});
export type TAttendanceBatchRow = z.infer<typeof ZAttendanceBatchRow>;

export const ZAttendanceStudentRow = z.object({
  enrollmentId: z.string(),
  batch: zRef,
  /** `_id` null for a student whose account was deleted. */
  student: z.object({ _id: z.string().nullable(), fullName: z.string() }),
  /** Held sessions in the range since joining, plus held ones marked in a batch moved from. */
  held: z.number(),
  ...counts,
});
export type TAttendanceStudentRow = z.infer<typeof ZAttendanceStudentRow>;

export const ZAttendanceStudentPage = z.object({
  data: z.array(ZAttendanceStudentRow),
  /** Send back as `cursor` for the rows after these; null at the end. */
  nextCursor: z.string().nullable(),
});
export type TAttendanceStudentPage = z.infer<typeof ZAttendanceStudentPage>;

export const ZAttendanceReport = z.object({
  from: z.string(),
  to: z.string(),
  branchId: z.string().nullable(),
  batchId: z.string().nullable(),
  threshold: z.number(),
  byBatch: z.array(ZAttendanceBatchRow),
  byStudent: ZAttendanceStudentPage,
  underThreshold: ZAttendanceStudentPage,
});
export type TAttendanceReport = z.infer<typeof ZAttendanceReport>;
