/**
 * What makes a time bookable (docs/appointments.md#refusals). `resolvePlan` reads who, what and
 * where (404 for an unknown id, 409 for a practitioner, room or booking that cannot take it);
 * `assertTimeFree` checks the time itself inside the writing transaction, with the booking's row
 * locked, so two creates for one booking cannot both take its last session. PostgreSQL's
 * exclusion constraints still decide a race between different bookings (conflictOf).
 */
import { and, asc, count, eq, gt, inArray, lt, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  appointments,
  branchClosures,
  branches,
  practitionerBranches,
  practitioners,
  practitionerTimeOff,
  practitionerTreatments,
  rooms,
  treatmentBookings,
  treatments,
  users,
  workingPeriods,
} from '../../db/schema';
import { AppError, dbErrorText, isExclusionViolation } from '../../errors';
import { formatDay } from '../../../shared/format';
import { BACKDATE_APPOINTMENT_DAYS, LIVE_STATUSES, OCCUPYING_STATUSES, WEEKDAYS } from '@shared/schemas/appointments';
import { assertRecordInScope } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId } from '../ids';
import { assertBranchAllowed } from './appointments.read';
import { mostAtOnce } from '../rooms/occupancy';
import { hhmm, rangeText, wallClockOf } from '../../../shared/zoned-time';

type BookingRow = typeof treatmentBookings.$inferSelect;
type TreatmentRow = typeof treatments.$inferSelect;
type RoomRow = typeof rooms.$inferSelect;

/** Who, what and where an appointment is: read once, then any number of times checked. */
export interface Plan {
  booking: BookingRow;
  customerName: string;
  treatment: TreatmentRow;
  practitioner: { id: string; fullName: string };
  branch: { id: string; name: string };
  room: RoomRow | null;
}

export const REFUSALS = {
  bookingNotFound: 'Booking not found.',
  treatmentGone: "This booking's treatment no longer exists, so no appointment can be made for it.",
  practitionerNotFound: 'Practitioner not found.',
  branchNotFound: 'Branch not found.',
  roomNotFound: 'Room not found.',
  bookingCancelled: 'This booking is cancelled; no appointment can be made for it.',
  inactive: (name: string) => `${name} is inactive and cannot take appointments.`,
  doesNotDeliver: (name: string, treatment: string) => `${name} does not deliver ${treatment}.`,
  notAtBranch: (name: string, branch: string) => `${name} does not work at ${branch}.`,
  roomElsewhere: (room: string, branch: string) => `Room ${room} is not at ${branch}.`,
  roomRequired: (treatment: string) => `${treatment} needs a room: choose one.`,
  tooFarBack: `An appointment can be recorded at most ${BACKDATE_APPOINTMENT_DAYS} days in the past.`,
  endMismatch: (minutes: number) => `A session of this treatment lasts ${minutes} minutes; leave End out or match it.`,
  closed: (branch: string, day: string, reason: string) =>
    `${branch} is closed on ${formatDay(day)}${reason ? ` (${reason})` : ''}.`,
  offPlan: (name: string, branch: string, weekday: string, periods: string) =>
    periods
      ? `The time is outside ${name}'s working plan at ${branch}: on ${weekday}s they work ${periods}.`
      : `The time is outside ${name}'s working plan: they do not work at ${branch} on ${weekday}s.`,
  timeOff: (name: string, when: string, reason: string) =>
    `${name} has time off then (${when}${reason ? `: ${reason}` : ''}).`,
  practitionerBusy: (name: string, when: string) =>
    `${name} already has an appointment then (${when}), counting the time kept free after each session.`,
  practitionerRace: (name: string) => `${name} already has an appointment at that time.`,
  customerBusy: (name: string, when: string) => `${name} already has another appointment then (${when}).`,
  customerRace: (name: string) => `${name} already has another appointment at that time.`,
  roomFull: (room: string, when: string, capacity: number) =>
    `Room ${room} is full then (${when}): it holds ${capacity === 1 ? 'one session' : `${capacity} sessions`} at a time.`,
  noSessionLeft: (max: number, completed: number, live: number) =>
    `No session is left on this booking: ${max} in all, ${completed} completed and ${live} booked.`,
} as const;

const weekdayName = (weekday: number) => {
  const w = WEEKDAYS[weekday - 1] ?? 'monday';
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/** The booking, its treatment, the practitioner, branch and room, each one checked. */
export async function resolvePlan(
  ctx: ServiceContext,
  db: Db,
  p: { bookingId: string; practitionerId: string; branchId: string; roomId: string | null },
): Promise<Plan> {
  assertId(p.bookingId, 'Booking');
  assertId(p.practitionerId, 'Practitioner');
  assertId(p.branchId, 'Branch');
  if (p.roomId) assertId(p.roomId, 'Room');
  await assertRecordInScope(ctx, 'booking', p.bookingId, REFUSALS.bookingNotFound);
  const [booking] = await db.select().from(treatmentBookings).where(eq(treatmentBookings.id, p.bookingId)).limit(1);
  if (!booking) throw new AppError('NOT_FOUND', REFUSALS.bookingNotFound);
  const [branch] = await db
    .select({ id: branches.id, name: branches.name })
    .from(branches)
    .where(eq(branches.id, p.branchId))
    .limit(1);
  if (!branch) throw new AppError('NOT_FOUND', REFUSALS.branchNotFound);
  await assertBranchAllowed(ctx, branch.id);
  const [practitioner] = await db
    .select({ id: practitioners.id, active: practitioners.active, fullName: users.fullName })
    .from(practitioners)
    .innerJoin(users, eq(users.id, practitioners.userId))
    .where(eq(practitioners.id, p.practitionerId))
    .limit(1);
  if (!practitioner) throw new AppError('NOT_FOUND', REFUSALS.practitionerNotFound);
  const room = p.roomId ? ((await db.select().from(rooms).where(eq(rooms.id, p.roomId)).limit(1))[0] ?? null) : null;
  if (p.roomId && !room) throw new AppError('NOT_FOUND', REFUSALS.roomNotFound);
  const [treatment] = booking.treatmentId
    ? await db.select().from(treatments).where(eq(treatments.id, booking.treatmentId)).limit(1)
    : [];
  if (!treatment) throw new AppError('CONFLICT', REFUSALS.treatmentGone);
  if (booking.status === 'cancelled') throw new AppError('CONFLICT', REFUSALS.bookingCancelled);

  const name = practitioner.fullName;
  if (!practitioner.active) throw new AppError('CONFLICT', REFUSALS.inactive(name));
  const [delivers] = await db
    .select({ id: practitionerTreatments.practitionerId })
    .from(practitionerTreatments)
    .where(
      and(
        eq(practitionerTreatments.practitionerId, practitioner.id),
        eq(practitionerTreatments.treatmentId, treatment.id),
      ),
    )
    .limit(1);
  if (!delivers) throw new AppError('CONFLICT', REFUSALS.doesNotDeliver(name, treatment.treatmentName));
  const [works] = await db
    .select({ id: practitionerBranches.practitionerId })
    .from(practitionerBranches)
    .where(and(eq(practitionerBranches.practitionerId, practitioner.id), eq(practitionerBranches.branchId, branch.id)))
    .limit(1);
  if (!works) throw new AppError('CONFLICT', REFUSALS.notAtBranch(name, branch.name));
  if (room && room.branchId !== branch.id)
    throw new AppError('CONFLICT', REFUSALS.roomElsewhere(room.name, branch.name));
  if (treatment.requiresRoom && !room) throw new AppError('CONFLICT', REFUSALS.roomRequired(treatment.treatmentName));

  const [customer] = booking.userId
    ? await db.select({ username: users.username }).from(users).where(eq(users.id, booking.userId)).limit(1)
    : [];
  return {
    booking,
    customerName: customer?.username ?? booking.deletedUsername ?? 'The customer',
    treatment,
    practitioner: { id: practitioner.id, fullName: name },
    branch,
    room,
  };
}

/** The session's times: end = start + session length, blocked until end + buffer. */
export function timesOf(treatment: TreatmentRow, start: Date) {
  const end = new Date(start.getTime() + treatment.sessionMinutes * 60_000);
  return { start, end, blockedUntil: new Date(end.getTime() + treatment.bufferMinutes * 60_000) };
}

/** Staff may record an appointment up to 7 days back (a walk-in entered afterwards): 400 further. */
export function assertNotTooFarBack(start: Date, now = Date.now()): void {
  if (start.getTime() < now - BACKDATE_APPOINTMENT_DAYS * 86_400_000)
    throw new AppError('BAD_REQUEST', REFUSALS.tooFarBack);
}

const occupying = inArray(appointments.status, [...OCCUPYING_STATUSES]);
const others = (excludeId?: string): SQL | undefined => (excludeId ? ne(appointments.id, excludeId) : undefined);

/**
 * The booking's row, locked until the transaction ends, with its sessions not yet taken: the
 * sold sessions minus those completed minus live appointments (scheduled, confirmed, arrived).
 */
export async function lockBookingSessions(tx: Db, bookingId: string, excludeId?: string) {
  const [b] = await tx.select().from(treatmentBookings).where(eq(treatmentBookings.id, bookingId)).for('update');
  if (!b) throw new AppError('NOT_FOUND', REFUSALS.bookingNotFound);
  if (b.status === 'cancelled') throw new AppError('CONFLICT', REFUSALS.bookingCancelled);
  const [live] = await tx
    .select({ n: count() })
    .from(appointments)
    .where(
      and(eq(appointments.bookingId, bookingId), inArray(appointments.status, [...LIVE_STATUSES]), others(excludeId)),
    );
  const booked = live?.n ?? 0;
  return { booking: b, booked, left: b.maxSessions - b.sessionsCompleted - booked };
}

export function assertSessionLeft(s: Awaited<ReturnType<typeof lockBookingSessions>>): void {
  if (s.left <= 0)
    throw new AppError(
      'CONFLICT',
      REFUSALS.noSessionLeft(s.booking.maxSessions, s.booking.sessionsCompleted, s.booked),
      undefined,
      { code: 'no_sessions_left', params: { max: s.booking.maxSessions } },
    );
}

/**
 * Checks the time against the branch's closures, the practitioner's working plan and time off, the
 * practitioner's and the customer's other appointments, and the room's capacity: the most
 * appointments in it at any one instant of the session (its row locked, so a room holding several
 * sessions is counted by one writer at a time; class sessions are added by the classes' check). Run inside the writing
 * transaction; `excludeId` is the appointment being moved.
 */
export async function assertTimeFree(
  tx: Db,
  timeZone: string,
  plan: Plan,
  start: Date,
  excludeId?: string,
): Promise<void> {
  const { end, blockedUntil } = timesOf(plan.treatment, start);
  const name = plan.practitioner.fullName;
  const wall = wallClockOf(timeZone, start);

  const [closure] = await tx
    .select()
    .from(branchClosures)
    .where(and(eq(branchClosures.branchId, plan.branch.id), eq(branchClosures.day, wall.day)))
    .limit(1);
  if (closure) throw new AppError('CONFLICT', REFUSALS.closed(plan.branch.name, wall.day, closure.reason));

  const periods = await tx
    .select()
    .from(workingPeriods)
    .where(
      and(
        eq(workingPeriods.practitionerId, plan.practitioner.id),
        eq(workingPeriods.branchId, plan.branch.id),
        eq(workingPeriods.weekday, wall.weekday),
      ),
    )
    .orderBy(asc(workingPeriods.startMinute));
  // The session itself fits in one period; its buffer may run past the period's end.
  const fits = periods.some(
    (p) => p.startMinute <= wall.minute && wall.minute + plan.treatment.sessionMinutes <= p.endMinute,
  );
  if (!fits) {
    const list = periods.map((p) => `${hhmm(p.startMinute)}–${hhmm(p.endMinute)}`).join(', ');
    throw new AppError('CONFLICT', REFUSALS.offPlan(name, plan.branch.name, weekdayName(wall.weekday), list));
  }

  const [off] = await tx
    .select()
    .from(practitionerTimeOff)
    .where(
      and(
        eq(practitionerTimeOff.practitionerId, plan.practitioner.id),
        lt(practitionerTimeOff.startAt, end),
        gt(practitionerTimeOff.endAt, start),
      ),
    )
    .orderBy(asc(practitionerTimeOff.startAt))
    .limit(1);
  if (off)
    throw new AppError('CONFLICT', REFUSALS.timeOff(name, rangeText(timeZone, off.startAt, off.endAt), off.reason));

  // The earliest other live appointment meeting `conditions` (whose it is and how it overlaps).
  const firstClash = async (...conditions: SQL[]) => {
    const [clash] = await tx
      .select({ startAt: appointments.startAt, endAt: appointments.endAt })
      .from(appointments)
      .where(and(...conditions, occupying, others(excludeId), startsAfter(start)))
      .orderBy(asc(appointments.startAt))
      .limit(1);
    return clash;
  };

  // Both neighbours' buffers: this one's [start, end + buffer) against theirs.
  const busy = await firstClash(
    eq(appointments.practitionerId, plan.practitioner.id),
    lt(appointments.startAt, blockedUntil),
    gt(appointments.blockedUntil, start),
  );
  if (busy)
    throw new AppError('CONFLICT', REFUSALS.practitionerBusy(name, rangeText(timeZone, busy.startAt, busy.endAt)));

  if (plan.booking.userId) {
    const mine = await firstClash(
      eq(appointments.customerId, plan.booking.userId),
      lt(appointments.startAt, end),
      gt(appointments.endAt, start),
    );
    if (mine)
      throw new AppError(
        'CONFLICT',
        REFUSALS.customerBusy(plan.customerName, rangeText(timeZone, mine.startAt, mine.endAt)),
      );
  }

  if (plan.room) {
    const [room] = await tx.select().from(rooms).where(eq(rooms.id, plan.room.id)).for('update');
    if (!room) throw new AppError('NOT_FOUND', REFUSALS.roomNotFound);
    // The most in the room at any one instant of [start, end): two back-to-back sessions in a room
    // of two leave room for a third that overlaps both.
    const inRoom = await tx
      .select({ start: appointments.startAt, end: appointments.endAt })
      .from(appointments)
      .where(
        and(
          eq(appointments.roomId, room.id),
          occupying,
          others(excludeId),
          lt(appointments.startAt, end),
          gt(appointments.endAt, start),
          startsAfter(start),
        ),
      );
    if (mostAtOnce(inRoom, start, end) >= room.capacity)
      throw new AppError('CONFLICT', REFUSALS.roomFull(room.name, rangeText(timeZone, start, end), room.capacity));
  }
}

/**
 * A session with its buffer lasts at most 16 hours (the treatments' timing check), so nothing that
 * started a day before `start` can reach it: the bound lets the (practitioner | customer | room,
 * start) indexes stop there instead of reading all of their history.
 */
function startsAfter(start: Date) {
  return gt(appointments.startAt, new Date(start.getTime() - 86_400_000));
}

/** A refusal of the exclusion constraints (a race the checks above could not see), named. */
export function conflictOf(err: unknown, plan: Plan): AppError | null {
  if (!isExclusionViolation(err)) return null;
  // postgres.js names the constraint `constraint_name`, PGlite `constraint`.
  const constraint = dbErrorText(err, 'constraint_name') ?? dbErrorText(err, 'constraint') ?? '';
  return new AppError(
    'CONFLICT',
    constraint === 'appointments_customer_no_overlap'
      ? REFUSALS.customerRace(plan.customerName)
      : REFUSALS.practitionerRace(plan.practitioner.fullName),
  );
}
