/**
 * Classes (docs/classes.md): a batch is one running group of a course at a branch, with a weekly
 * timetable of slots; class sessions are the dated meetings generated from it; the roster is the
 * enrolments in a batch (or on its waiting list); attendance marks are one per session and
 * enrolment. Rooms and closures are the appointments' own (appointments.ts).
 */
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { branches } from './branches';
import { createdAt, id, instant, keptRef, ownerRef, updatedAt } from './common';
import { courses, enrollments } from './courses';
import { rooms } from './appointments';
import { users } from './users';

export const BATCH_STATUSES = ['open', 'closed'] as const;

export const batches = pgTable(
  'batches',
  {
    id: id(),
    name: text('name').notNull(),
    courseId: keptRef('course_id', () => courses.id),
    branchId: keptRef('branch_id', () => branches.id),
    instructorId: keptRef('instructor_id', () => users.id),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    /** Seats: how many enrolments the roster holds. */
    capacity: integer('capacity').notNull(),
    status: text('status', { enum: BATCH_STATUSES }).notNull().default('open'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('batches_course_idx').on(t.courseId),
    index('batches_branch_idx').on(t.branchId),
    index('batches_instructor_idx').on(t.instructorId),
    check('batches_dates_ck', sql`${t.startDate} <= ${t.endDate}`),
    check('batches_capacity_ck', sql`${t.capacity} >= 1`),
  ],
);

/** One weekly slot: weekday 1 (Monday) to 7 (Sunday), minutes after midnight in TIME_ZONE. */
export const batchSlots = pgTable(
  'batch_slots',
  {
    id: id(),
    batchId: ownerRef('batch_id', () => batches.id),
    weekday: smallint('weekday').notNull(),
    startMinute: integer('start_minute').notNull(),
    endMinute: integer('end_minute').notNull(),
    roomId: keptRef('room_id', () => rooms.id),
  },
  (t) => [
    index('batch_slots_batch_idx').on(t.batchId),
    check('batch_slots_weekday_ck', sql`${t.weekday} between 1 and 7`),
    check(
      'batch_slots_minutes_ck',
      sql`${t.startMinute} >= 0 and ${t.endMinute} <= 1440 and ${t.startMinute} < ${t.endMinute}`,
    ),
  ],
);

export const CLASS_SESSION_STATUSES = ['scheduled', 'cancelled'] as const;

/**
 * One meeting of a batch. The instructor is copied from the batch so that PostgreSQL can refuse an
 * instructor's overlapping sessions itself (an exclusion constraint, migration 0022); `day` is the
 * date of `startAt` in TIME_ZONE, which the roster ("joined on or before its day") compares with.
 */
export const classSessions = pgTable(
  'class_sessions',
  {
    id: id(),
    batchId: ownerRef('batch_id', () => batches.id),
    instructorId: keptRef('instructor_id', () => users.id),
    roomId: keptRef('room_id', () => rooms.id),
    day: date('day', { mode: 'string' }).notNull(),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    status: text('status', { enum: CLASS_SESSION_STATUSES }).notNull().default('scheduled'),
    reason: text('reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('class_sessions_batch_start_idx').on(t.batchId, t.startAt),
    index('class_sessions_room_start_idx')
      .on(t.roomId, t.startAt)
      .where(sql`${t.roomId} is not null`),
    index('class_sessions_instructor_start_idx').on(t.instructorId, t.startAt),
    index('class_sessions_start_idx').on(t.startAt),
    check('class_sessions_range_ck', sql`${t.startAt} < ${t.endAt}`),
  ],
);

export const ROSTER_STATUSES = ['member', 'waitlist'] as const;

/**
 * An enrolment's place in a batch: on the roster from `joinedOn`, or on the waiting list since
 * `since`. One place per enrolment: moving batches replaces it (the marks stay with the enrolment).
 */
export const batchMembers = pgTable(
  'batch_members',
  {
    id: id(),
    batchId: ownerRef('batch_id', () => batches.id),
    enrollmentId: ownerRef('enrollment_id', () => enrollments.id),
    status: text('status', { enum: ROSTER_STATUSES }).notNull(),
    joinedOn: date('joined_on', { mode: 'string' }),
    since: instant('since').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('batch_members_enrollment_uq').on(t.enrollmentId),
    index('batch_members_batch_idx').on(t.batchId, t.status, t.since),
  ],
);

export const ATTENDANCE_STATUSES = ['present', 'late', 'absent', 'excused'] as const;

/** One enrolment's mark for one class session, with who took it last. */
export const attendanceMarks = pgTable(
  'attendance_marks',
  {
    sessionId: ownerRef('session_id', () => classSessions.id),
    enrollmentId: ownerRef('enrollment_id', () => enrollments.id),
    status: text('status', { enum: ATTENDANCE_STATUSES }).notNull(),
    note: text('note'),
    markedById: keptRef('marked_by', () => users.id),
    markedAt: instant('marked_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.enrollmentId] }),
    index('attendance_marks_enrollment_idx').on(t.enrollmentId),
  ],
);

/**
 * An enrolment's marks summed up (docs/classes.md#falling-behind), kept so the falling-behind
 * list reads one small row a student instead of every mark. Written only by
 * refreshAttendanceSummaries, in the transaction of every write that can change it; the counts
 * are over the marks on scheduled sessions (present, late and absent are only ever taken on a
 * session that has started, and a started session or one holding a mark is neither cancelled
 * nor moved, so those marks are all on held sessions).
 */
export const attendanceSummaries = pgTable('attendance_summaries', {
  enrollmentId: ownerRef('enrollment_id', () => enrollments.id).primaryKey(),
  present: integer('present').notNull(),
  late: integer('late').notNull(),
  absent: integer('absent').notNull(),
  /** Every excused mark, those set ahead on a session to come included; outside the rate. */
  excused: integer('excused').notNull(),
  /** The start of the last session marked present or late. */
  lastAttendedAt: instant('last_attended_at'),
  /** Absent marks since the last present or late one. */
  absentInARow: integer('absent_in_a_row').notNull(),
  updatedAt: updatedAt(),
});
