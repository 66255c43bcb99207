/**
 * The calendar of treatment sessions (docs/appointments.md): who delivers treatments
 * (practitioners), where (rooms), when they work (working periods, time off, branch closures),
 * and the appointments themselves, one session of a booking each.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { branches } from './branches';
import { createdAt, id, instant, keptRef, ownerRef, updatedAt } from './common';
import { treatmentBookings, treatments } from './treatments';
import { users } from './users';

/** A user who delivers treatments; one row per user. Kept (deactivated) once it has appointments. */
export const practitioners = pgTable(
  'practitioners',
  {
    id: id(),
    userId: ownerRef('user_id', () => users.id),
    color: text('color').notNull().default('#2563eb'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('practitioners_user_uq').on(t.userId)],
);

export const practitionerBranches = pgTable(
  'practitioner_branches',
  {
    practitionerId: ownerRef('practitioner_id', () => practitioners.id),
    branchId: ownerRef('branch_id', () => branches.id),
  },
  (t) => [
    primaryKey({ columns: [t.practitionerId, t.branchId] }),
    index('practitioner_branches_branch_idx').on(t.branchId),
  ],
);

export const practitionerTreatments = pgTable(
  'practitioner_treatments',
  {
    practitionerId: ownerRef('practitioner_id', () => practitioners.id),
    treatmentId: ownerRef('treatment_id', () => treatments.id),
  },
  (t) => [
    primaryKey({ columns: [t.practitionerId, t.treatmentId] }),
    index('practitioner_treatments_treatment_idx').on(t.treatmentId),
  ],
);

/** A room of a branch; capacity is how many sessions (or classes) it holds at once. */
export const rooms = pgTable(
  'rooms',
  {
    id: id(),
    branchId: ownerRef('branch_id', () => branches.id),
    name: text('name').notNull(),
    capacity: integer('capacity').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('rooms_branch_name_uq').on(t.branchId, sql`lower(${t.name})`),
    check('rooms_capacity_ck', sql`${t.capacity} >= 1`),
  ],
);

/**
 * One working period of a practitioner's weekly plan at a branch: weekday 1 (Monday) to 7
 * (Sunday), minutes after midnight in TIME_ZONE. The gaps between periods are breaks.
 */
export const workingPeriods = pgTable(
  'working_periods',
  {
    id: id(),
    practitionerId: ownerRef('practitioner_id', () => practitioners.id),
    branchId: ownerRef('branch_id', () => branches.id),
    weekday: smallint('weekday').notNull(),
    startMinute: integer('start_minute').notNull(),
    endMinute: integer('end_minute').notNull(),
  },
  (t) => [
    index('working_periods_plan_idx').on(t.practitionerId, t.branchId, t.weekday),
    index('working_periods_branch_idx').on(t.branchId, t.weekday),
    check('working_periods_weekday_ck', sql`${t.weekday} between 1 and 7`),
    check(
      'working_periods_minutes_ck',
      sql`${t.startMinute} >= 0 and ${t.endMinute} <= 1440 and ${t.startMinute} < ${t.endMinute}`,
    ),
  ],
);

/** A practitioner away (leave, training), from one instant to another, at every branch. */
export const practitionerTimeOff = pgTable(
  'practitioner_time_off',
  {
    id: id(),
    practitionerId: ownerRef('practitioner_id', () => practitioners.id),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('practitioner_time_off_idx').on(t.practitionerId, t.startAt),
    check('practitioner_time_off_range_ck', sql`${t.startAt} < ${t.endAt}`),
  ],
);

/** A day a branch is closed (a holiday): no appointment or class that day. */
export const branchClosures = pgTable(
  'branch_closures',
  {
    id: id(),
    branchId: ownerRef('branch_id', () => branches.id),
    day: date('day', { mode: 'string' }).notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('branch_closures_day_uq').on(t.branchId, t.day)],
);

export const APPOINTMENT_STATUSES = ['scheduled', 'confirmed', 'arrived', 'completed', 'cancelled', 'no_show'] as const;

/**
 * One session of a booking, with a practitioner at a branch, optionally in a room, from start to
 * end. `blockedUntil` is end plus the treatment's buffer: the practitioner is not free before it.
 * Two exclusion constraints (migration 0021, btree_gist) keep a practitioner's and a customer's
 * occupying appointments from overlapping, whatever the concurrency; cancelled and no-show ones
 * free their time.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: id(),
    bookingId: ownerRef('booking_id', () => treatmentBookings.id),
    customerId: keptRef('customer_id', () => users.id),
    treatmentId: keptRef('treatment_id', () => treatments.id),
    practitionerId: uuid('practitioner_id')
      .notNull()
      .references(() => practitioners.id, { onDelete: 'restrict' }),
    branchId: uuid('branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    roomId: uuid('room_id').references(() => rooms.id, { onDelete: 'restrict' }),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    blockedUntil: instant('blocked_until').notNull(),
    status: text('status', { enum: APPOINTMENT_STATUSES }).notNull().default('scheduled'),
    /** Given when it is completed: the booking's session (and session note) it was. */
    sessionNumber: integer('session_number'),
    note: text('note').notNull().default(''),
    statusReason: text('status_reason'),
    statusChangedAt: instant('status_changed_at'),
    createdById: keptRef('created_by', () => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('appointments_branch_start_idx').on(t.branchId, t.startAt),
    index('appointments_practitioner_start_idx').on(t.practitionerId, t.startAt),
    index('appointments_room_start_idx')
      .on(t.roomId, t.startAt)
      .where(sql`${t.roomId} is not null`),
    index('appointments_customer_start_idx').on(t.customerId, t.startAt),
    index('appointments_booking_idx').on(t.bookingId, t.startAt),
    uniqueIndex('appointments_session_uq')
      .on(t.bookingId, t.sessionNumber)
      .where(sql`${t.sessionNumber} is not null`),
    check('appointments_range_ck', sql`${t.startAt} < ${t.endAt} and ${t.endAt} <= ${t.blockedUntil}`),
  ],
);
