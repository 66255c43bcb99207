import { z } from 'zod';
import { blankToUndefined, parseDay, zId, zInstant, zOptionalText, zText } from '@shared/schemas/primitives';
import { zCountOut, zDayOut, zInstantOut, zMoneyOut } from '@shared/schemas/output';

/** docs/classes.md: batches, their timetable, class sessions, the roster and attendance. */

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const ATTENDANCE_MARKS = ['present', 'late', 'absent', 'excused'] as const;
export type AttendanceMark = (typeof ATTENDANCE_MARKS)[number];

/** A batch may run for at most this many days: its sessions are generated in one go. */
export const MAX_BATCH_DAYS = 3 * 366;
/** A session list covers at most this many days. */
export const MAX_SESSION_RANGE_DAYS = 366;

export const CLASS_MESSAGES = {
  time: 'Times must be HH:MM (24-hour), such as 18:00.',
  slotOrder: 'Each timetable slot must end after it starts.',
  weekday: `Weekday must be one of ${WEEKDAYS.join(', ')}.`,
  dates: 'The end date must be on or after the start date.',
  tooLong: 'A batch can run for at most three years.',
  capacity: 'Capacity must be a whole number from 1 to 1000.',
  reason: 'Give a reason for cancelling the session.',
  range: `From and To can be at most ${MAX_SESSION_RANGE_DAYS} days apart.`,
  rangeOrder: 'From must be on or before To.',
  marksOrAll: 'Send either marks or allPresent: true.',
} as const;

const zDay = (label: string) =>
  zText(label, { message: `${label} must be a date (YYYY-MM-DD).` }).refine(
    (s) => parseDay(s) !== null,
    `${label} must be a date (YYYY-MM-DD) between 1900 and 2100.`,
  );
const zOptionalDay = (label: string) => z.preprocess(blankToUndefined, zDay(label).optional());

const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;
const zTime = zText('Time', { message: CLASS_MESSAGES.time }).regex(TIME_RE, CLASS_MESSAGES.time);

/** Minutes after midnight of an HH:MM time. */
export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
export const timeOfMinutes = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

export const ZTimetableSlot = z
  .object({
    weekday: z.enum(WEEKDAYS, { error: CLASS_MESSAGES.weekday }),
    start: zTime,
    end: zTime,
    roomId: z.preprocess(blankToUndefined, zId('Room').nullable().optional()),
  })
  .refine((s) => minutesOf(s.start) < minutesOf(s.end), { message: CLASS_MESSAGES.slotOrder, path: ['end'] });
export type TTimetableSlot = z.infer<typeof ZTimetableSlot>;

const dayNumber = (d: string) => Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / 86_400_000;

/** A batch's fields, each checked alone. */
const ZBatchFields = z.object({
  name: zText('Name', { message: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(200, 'Name must be at most 200 characters.'),
  courseId: zId('Course'),
  branchId: zId('Branch'),
  instructorId: zId('Instructor'),
  startDate: zDay('Start date'),
  endDate: zDay('End date'),
  capacity: z
    .number({ error: CLASS_MESSAGES.capacity })
    .int(CLASS_MESSAGES.capacity)
    .min(1, CLASS_MESSAGES.capacity)
    .max(1000, CLASS_MESSAGES.capacity),
  timetable: z
    .array(ZTimetableSlot, { error: 'Timetable must be a list of slots.' })
    .max(50, 'A timetable can have at most 50 slots.'),
});

/** The fields of a batch, checked together (a create, or an update merged onto the stored batch). */
export const ZBatchValues = ZBatchFields.superRefine((b, ctx) => {
  if (b.endDate < b.startDate) ctx.addIssue({ code: 'custom', message: CLASS_MESSAGES.dates, path: ['endDate'] });
  else if (dayNumber(b.endDate) - dayNumber(b.startDate) > MAX_BATCH_DAYS)
    ctx.addIssue({ code: 'custom', message: CLASS_MESSAGES.tooLong, path: ['endDate'] });
  // Two slots of one batch at once would put its instructor in two places.
  for (const day of WEEKDAYS) {
    const slots = b.timetable
      .filter((s) => s.weekday === day)
      .map((s) => [minutesOf(s.start), minutesOf(s.end)] as const)
      .sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < slots.length; i++) {
      if (slots[i]![0] < slots[i - 1]![1]) {
        const label = day[0]!.toUpperCase() + day.slice(1);
        ctx.addIssue({ code: 'custom', message: `Two timetable slots on ${label} overlap.`, path: ['timetable'] });
        return;
      }
    }
  }
});
export type TBatchValues = z.infer<typeof ZBatchValues>;

export const ZCreateBatchInput = ZBatchValues;
export type TCreateBatchInput = TBatchValues;

/** PUT takes any of the fields; the service checks the merged batch with ZBatchValues. */
export const ZUpdateBatchBody = ZBatchFields.partial();
export const ZUpdateBatchInput = ZUpdateBatchBody.extend({ id: zId('Batch') });
export type TUpdateBatchInput = z.infer<typeof ZUpdateBatchInput>;

export const ZBatchIdInput = z.object({ id: zId('Batch') });

export const ZListBatchesInput = z.object({
  courseId: zOptionalText('Course', 200),
  branchId: zOptionalText('Branch', 200),
});
export type TListBatchesInput = z.infer<typeof ZListBatchesInput>;

export const ZSessionRange = z.object({ from: zOptionalDay('From'), to: zOptionalDay('To') }).superRefine((r, ctx) => {
  if (r.from && r.to && r.from > r.to)
    ctx.addIssue({ code: 'custom', message: CLASS_MESSAGES.rangeOrder, path: ['to'] });
  else if (r.from && r.to && dayNumber(r.to) - dayNumber(r.from) > MAX_SESSION_RANGE_DAYS)
    ctx.addIssue({ code: 'custom', message: CLASS_MESSAGES.range, path: ['to'] });
});
export const ZBatchSessionsInput = z.object({ id: zId('Batch'), from: zOptionalDay('From'), to: zOptionalDay('To') });
export type TBatchSessionsInput = z.infer<typeof ZBatchSessionsInput>;

/** The calendar's class sessions: one branch, a range of days in TIME_ZONE (both bounds required). */
export const ZBranchSessionsInput = z
  .object({
    branchId: zId('Branch'),
    from: zText('From').refine((d) => parseDay(d) !== null, 'From must be a date (YYYY-MM-DD) between 1900 and 2100.'),
    to: zText('To').refine((d) => parseDay(d) !== null, 'To must be a date (YYYY-MM-DD) between 1900 and 2100.'),
  })
  .superRefine((r, ctx) => {
    if (r.from > r.to) ctx.addIssue({ code: 'custom', message: CLASS_MESSAGES.rangeOrder, path: ['to'] });
    else if (dayNumber(r.to) - dayNumber(r.from) > 31)
      ctx.addIssue({ code: 'custom', message: 'The calendar shows at most 31 days of classes at once.', path: ['to'] });
  });
export type TBranchSessionsInput = z.infer<typeof ZBranchSessionsInput>;

export const ZDaySessionsInput = z.object({ day: zOptionalDay('Day') });
export type TDaySessionsInput = z.infer<typeof ZDaySessionsInput>;

export const ZSessionIdInput = z.object({ id: zId('Class session') });

export const ZCancelSessionBody = z.object({
  reason: z.preprocess(
    blankToUndefined,
    zText('Reason', { message: CLASS_MESSAGES.reason }).trim().max(500, 'Reason must be at most 500 characters.'),
  ),
});
export const ZCancelSessionInput = ZCancelSessionBody.extend({ id: zId('Class session') });
export type TCancelSessionInput = z.infer<typeof ZCancelSessionInput>;

export const ZMoveSessionBody = z
  .object({
    start: zInstant('Start').optional(),
    end: zInstant('End').optional(),
    roomId: z.preprocess(blankToUndefined, zId('Room').nullable().optional()),
  })
  .refine(
    (b) => b.start !== undefined || b.end !== undefined || b.roomId !== undefined,
    'Send a new start, end or room.',
  );
export const ZMoveSessionInput = ZMoveSessionBody.and(z.object({ id: zId('Class session') }));
export type TMoveSessionInput = z.infer<typeof ZMoveSessionInput>;

export const ZJoinBatchBody = z.object({
  batchId: zId('Batch'),
  joinedOn: zOptionalDay('Joined on'),
  waitlist: z.boolean({ error: 'waitlist must be true or false.' }).optional(),
});
export const ZJoinBatchInput = ZJoinBatchBody.extend({ id: zId('Enrollment') });
export type TJoinBatchInput = z.infer<typeof ZJoinBatchInput>;

export const ZEnrollmentIdInput = z.object({ id: zId('Enrollment') });

const ZMarkIn = z.object({
  enrollmentId: zId('Enrollment'),
  status: z.enum(ATTENDANCE_MARKS, { error: `Status must be one of ${ATTENDANCE_MARKS.join(', ')}.` }),
  note: zOptionalText('Note', 500),
});
export const ZTakeAttendanceBody = z
  .object({
    marks: z.array(ZMarkIn).min(1, 'Send at least one mark.').max(1000, 'At most 1000 marks at once.').optional(),
    allPresent: z.literal(true, { error: CLASS_MESSAGES.marksOrAll }).optional(),
  })
  .refine((b) => (b.marks === undefined) !== (b.allPresent === undefined), CLASS_MESSAGES.marksOrAll)
  .refine(
    (b) => !b.marks || new Set(b.marks.map((m) => m.enrollmentId)).size === b.marks.length,
    'Each student can be marked only once.',
  );
export const ZTakeAttendanceInput = ZTakeAttendanceBody.and(z.object({ id: zId('Class session') }));
export type TTakeAttendanceInput = z.infer<typeof ZTakeAttendanceInput>;

export const ZFallingBehindInput = z.object({
  branchId: zOptionalText('Branch', 200),
  batchId: zOptionalText('Batch', 200),
});
export type TFallingBehindInput = z.infer<typeof ZFallingBehindInput>;

// ------------------------------------------------------------------ answers

const ZNamed = z.object({ _id: z.string(), name: z.string() });
const ZNamedPerson = z.object({ _id: z.string(), fullName: z.string() });
const ZPerson = z.object({ _id: z.string().nullable(), fullName: z.string() });

export const ZBatch = z.object({
  _id: z.string(),
  name: z.string(),
  course: z.object({ _id: z.string(), courseName: z.string() }).nullable(),
  branch: ZNamed.nullable(),
  instructor: ZNamedPerson.nullable(),
  startDate: zDayOut,
  endDate: zDayOut,
  capacity: zCountOut,
  timetable: z.array(
    z.object({
      weekday: z.enum(WEEKDAYS),
      start: z.string(),
      end: z.string(),
      roomId: z.string().nullable(),
      room: ZNamed.nullable(),
    }),
  ),
  status: z.enum(['open', 'closed']),
  seatsTaken: zCountOut,
  waitlisted: zCountOut,
  createdAt: zInstantOut,
  updatedAt: zInstantOut,
});
export type TBatch = z.infer<typeof ZBatch>;
export const ZBatchList = z.object({ data: z.array(ZBatch) });

export const ZClassSession = z.object({
  _id: z.string(),
  batch: ZNamed,
  instructor: ZNamedPerson.nullable(),
  start: zInstantOut,
  end: zInstantOut,
  day: zDayOut,
  room: ZNamed.nullable(),
  status: z.enum(['scheduled', 'cancelled']),
  reason: z.string().nullable(),
});
export type TClassSession = z.infer<typeof ZClassSession>;
export const ZClassSessionList = z.object({ data: z.array(ZClassSession) });

export const ZRoster = z.object({
  data: z.array(
    z.object({ enrollmentId: z.string(), student: ZPerson, joinedOn: zDayOut, rate: z.number().nullable() }),
  ),
  waitlist: z.array(z.object({ enrollmentId: z.string(), student: ZPerson, since: zInstantOut })),
});
export type TRoster = z.infer<typeof ZRoster>;

export const ZRosterPlace = z.object({
  enrollmentId: z.string(),
  batchId: z.string(),
  status: z.enum(['member', 'waitlist']),
  joinedOn: zDayOut.nullable(),
  since: zInstantOut,
});
export type TRosterPlace = z.infer<typeof ZRosterPlace>;

const zMarkOut = z.enum(ATTENDANCE_MARKS).nullable();
export const ZSessionAttendance = z.object({
  session: ZClassSession,
  marks: z.array(
    z.object({ enrollmentId: z.string(), student: ZPerson, status: zMarkOut, note: z.string().nullable() }),
  ),
});
export type TSessionAttendance = z.infer<typeof ZSessionAttendance>;

export const ZEnrollmentAttendance = z.object({
  rate: z.number().nullable(),
  held: zCountOut,
  present: zCountOut,
  late: zCountOut,
  absent: zCountOut,
  excused: zCountOut,
  unmarked: zCountOut,
  sessions: z.array(z.object({ sessionId: z.string(), start: zInstantOut, status: zMarkOut })),
});
export type TEnrollmentAttendance = z.infer<typeof ZEnrollmentAttendance>;

export const ZFallingBehind = z.object({
  threshold: z.number(),
  data: z.array(
    z.object({
      enrollmentId: z.string(),
      student: ZPerson,
      batch: ZNamed,
      rate: z.number().nullable(),
      absentInARow: zCountOut,
      outstanding: z.array(z.object({ currency: z.string(), amount: zMoneyOut })),
    }),
  ),
});
export type TFallingBehind = z.infer<typeof ZFallingBehind>;

/** A batch's register (students × sessions) over an optional range of days in TIME_ZONE. */
export const ZRegisterInput = z.object({ id: zId('Batch'), from: zOptionalDay('From'), to: zOptionalDay('To') });
export type TRegisterInput = z.infer<typeof ZRegisterInput>;
export const ZRegisterQuery = z.object({ from: zOptionalDay('From'), to: zOptionalDay('To') });
export const ZRegister = z.object({
  batch: z.object({ _id: z.string(), name: z.string() }),
  sessions: z.array(z.object({ _id: z.string(), start: zInstantOut, status: z.enum(['scheduled', 'cancelled']) })),
  students: z.array(
    z.object({
      enrollmentId: z.string(),
      student: ZPerson,
      rate: z.number().nullable(),
      /** One per session, in the sessions' order. */
      marks: z.array(zMarkOut),
    }),
  ),
});
export type TRegister = z.infer<typeof ZRegister>;
