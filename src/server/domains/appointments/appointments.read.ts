/**
 * Reading the calendar (docs/appointments.md): one appointment, a range of them, the front desk's
 * day, and the free slots of a treatment.
 */
import { and, asc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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
import { AppError } from '../../errors';
import { addToDate, todayIn } from '../../../shared/calendar';
import { fromMinor } from '../../../shared/money';
import {
  APPOINTMENT_MESSAGES,
  AVAILABILITY_MAX_DAYS,
  LIST_MAX_DAYS,
  OCCUPYING_STATUSES,
  type TAppointment,
  type TAppointmentList,
  type TAvailability,
  type TAvailabilityInput,
  type TListAppointmentsInput,
  type TTodayInput,
  type TTodayList,
} from '@shared/schemas/appointments';
import { parseDay } from '@shared/schemas/primitives';
import { branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId, isUuid } from '../ids';
import { bookingsOutstandingNow } from '../payments/receipt-balance';
import { mostAtOnce } from '../rooms/occupancy';
import { instantAt, wallClockOf, weekdayOfDay } from '../../../shared/zoned-time';

export const OTHER_BRANCH_APPOINTMENT = 'You can only work with appointments at your own branch.';

/** The practitioner's own name: the user's. */
const practitionerUser = alias(users, 'practitioner_user');

export function selectAppointments(db: Db) {
  return db
    .select({
      a: appointments,
      customer: { id: users.id, username: users.username, email: users.email, fullName: users.fullName },
      liveTreatmentName: treatments.treatmentName,
      keptTreatmentName: treatmentBookings.treatmentName,
      practitionerName: practitionerUser.fullName,
      color: practitioners.color,
      roomName: rooms.name,
      branchName: branches.name,
      currency: treatmentBookings.currency,
    })
    .from(appointments)
    .innerJoin(treatmentBookings, eq(treatmentBookings.id, appointments.bookingId))
    .innerJoin(practitioners, eq(practitioners.id, appointments.practitionerId))
    .innerJoin(practitionerUser, eq(practitionerUser.id, practitioners.userId))
    .innerJoin(branches, eq(branches.id, appointments.branchId))
    .leftJoin(users, eq(users.id, appointments.customerId))
    .leftJoin(treatments, eq(treatments.id, appointments.treatmentId))
    .leftJoin(rooms, eq(rooms.id, appointments.roomId));
}

type AppointmentJoinRow = Awaited<ReturnType<ReturnType<typeof selectAppointments>['execute']>>[number];

export function toAppointmentDto(r: AppointmentJoinRow): TAppointment {
  const a = r.a;
  return {
    _id: a.id,
    booking: { _id: a.bookingId },
    customer: r.customer
      ? { _id: r.customer.id, username: r.customer.username, email: r.customer.email, fullName: r.customer.fullName }
      : null,
    treatment: { _id: a.treatmentId, treatmentName: r.liveTreatmentName ?? r.keptTreatmentName },
    practitioner: { _id: a.practitionerId, fullName: r.practitionerName, color: r.color },
    room: a.roomId ? { _id: a.roomId, name: r.roomName ?? '' } : null,
    branch: { _id: a.branchId, name: r.branchName },
    start: a.startAt.toISOString(),
    end: a.endAt.toISOString(),
    status: a.status,
    sessionNumber: a.sessionNumber,
    statusReason: a.statusReason,
    note: a.note,
  };
}

/**
 * The caller's limit on appointments (docs/appointments.md#appointments): with the branch-scope
 * setting on, a manager works with the appointments of their own branch only. Naming another
 * branch is refused (403); reads are filtered to the branch.
 */
export async function appointmentScope(ctx: ServiceContext): Promise<{ branchId: string | null } | null> {
  return branchScopeOf(ctx);
}

export async function assertBranchAllowed(ctx: ServiceContext, branchId: string): Promise<void> {
  const scope = await appointmentScope(ctx);
  if (scope && scope.branchId !== branchId) throw new AppError('FORBIDDEN', OTHER_BRANCH_APPOINTMENT);
}

function scopeCondition(scope: { branchId: string | null } | null): SQL | undefined {
  if (!scope) return undefined;
  return scope.branchId ? eq(appointments.branchId, scope.branchId) : sql`false`;
}

export async function getAppointment(ctx: ServiceContext, id: string): Promise<TAppointment> {
  assertId(id, 'Appointment');
  const [row] = await selectAppointments(ctx.db)
    .where(and(eq(appointments.id, id), scopeCondition(await appointmentScope(ctx))))
    .limit(1);
  // Another branch's appointment answers like a missing one (docs/security.md#branch-scope).
  if (!row) throw new AppError('NOT_FOUND', APPOINTMENT_MESSAGES.notFound);
  return toAppointmentDto(row);
}

/**
 * A from/to pair as instants: a date is its day in TIME_ZONE (`to` through the end of that day);
 * `to` not before `from`, at most `maxDays` apart (as given: two dates `maxDays` days apart are fine).
 */
export function rangeOf(
  timeZone: string,
  input: { from: string; to: string },
  maxDays: number,
): { from: Date; to: Date; fromDay: string; toDay: string } {
  const fromIsDay = parseDay(input.from) !== null;
  const toIsDay = parseDay(input.to) !== null;
  const from = fromIsDay ? instantAt(timeZone, input.from, 0) : new Date(input.from);
  const toGiven = toIsDay ? instantAt(timeZone, input.to, 0) : new Date(input.to);
  if (toGiven < from) throw new AppError('BAD_REQUEST', 'To must not be before From.');
  if (toGiven.getTime() - from.getTime() > maxDays * 86_400_000)
    throw new AppError('BAD_REQUEST', `From and To can be at most ${maxDays} days apart.`);
  const to = toIsDay ? instantAt(timeZone, addToDate(input.to, { days: 1 }), 0) : toGiven;
  return { from, to, fromDay: wallClockOf(timeZone, from).day, toDay: wallClockOf(timeZone, to).day };
}

/** The appointments starting in [from, to), filtered, ordered by start. */
export async function listAppointments(ctx: ServiceContext, input: TListAppointmentsInput): Promise<TAppointmentList> {
  const { from, to } = rangeOf(ctx.deps.config.TIME_ZONE, input, LIST_MAX_DAYS);
  if (input.branchId) await assertBranchAllowed(ctx, input.branchId);
  // A filter naming no possible row matches nothing (never a database error on a malformed uuid).
  const ids = [input.branchId, input.practitionerId, input.roomId, input.customerId, input.bookingId];
  if (ids.some((v) => v !== undefined && !isUuid(v))) return { data: [] };
  const rows = await selectAppointments(ctx.db)
    .where(
      and(
        scopeCondition(await appointmentScope(ctx)),
        gte(appointments.startAt, from),
        lt(appointments.startAt, to),
        input.branchId ? eq(appointments.branchId, input.branchId) : undefined,
        input.practitionerId ? eq(appointments.practitionerId, input.practitionerId) : undefined,
        input.roomId ? eq(appointments.roomId, input.roomId) : undefined,
        input.customerId ? eq(appointments.customerId, input.customerId) : undefined,
        input.bookingId ? eq(appointments.bookingId, input.bookingId) : undefined,
        input.status ? eq(appointments.status, input.status) : undefined,
      ),
    )
    .orderBy(asc(appointments.startAt), asc(appointments.id))
    .limit(5000);
  return { data: rows.map(toAppointmentDto) };
}

/**
 * The front desk's day (docs/appointments.md#today): today's appointments in TIME_ZONE, at one
 * branch or all the caller may see, each with what its customer still owes on the booking.
 */
export async function todaysAppointments(ctx: ServiceContext, input: TTodayInput): Promise<TTodayList> {
  const tz = ctx.deps.config.TIME_ZONE;
  const day = todayIn(tz);
  if (input.branchId) {
    await assertBranchAllowed(ctx, input.branchId);
    if (!isUuid(input.branchId)) return { data: [] };
  }
  const rows = await selectAppointments(ctx.db)
    .where(
      and(
        scopeCondition(await appointmentScope(ctx)),
        input.branchId ? eq(appointments.branchId, input.branchId) : undefined,
        gte(appointments.startAt, instantAt(tz, day, 0)),
        lt(appointments.startAt, instantAt(tz, addToDate(day, { days: 1 }), 0)),
      ),
    )
    .orderBy(asc(appointments.startAt), asc(appointments.id));
  // What is owed is the ledger's own figure, for all the day's bookings in one statement.
  const owed = await bookingsOutstandingNow(ctx.db, [...new Set(rows.map((r) => r.a.bookingId))]);
  return {
    data: rows.map((r) => ({
      ...toAppointmentDto(r),
      outstanding: fromMinor(owed.get(r.a.bookingId) ?? 0),
      currency: r.currency,
    })),
  };
}

/**
 * Free slots of a treatment (docs/appointments.md#availability): for each practitioner who
 * delivers it at the branch, each working period of each open day, a start every SLOT_STEP_MINUTES
 * from the period's start while the session fits in it; minus what overlaps the practitioner's
 * appointments with both buffers, their time off, and slots with no room free when the treatment
 * needs one. Only future starts inside [from, to).
 */
export async function availability(ctx: ServiceContext, input: TAvailabilityInput): Promise<TAvailability> {
  const tz = ctx.deps.config.TIME_ZONE;
  const step = ctx.deps.config.SLOT_STEP_MINUTES;
  const range = rangeOf(tz, input, AVAILABILITY_MAX_DAYS);
  assertId(input.treatmentId, 'Treatment');
  assertId(input.branchId, 'Branch');
  if (input.practitionerId) assertId(input.practitionerId, 'Practitioner');
  const [treatment] = await ctx.db.select().from(treatments).where(eq(treatments.id, input.treatmentId)).limit(1);
  if (!treatment) throw new AppError('NOT_FOUND', 'Treatment not found.');
  const [branch] = await ctx.db.select().from(branches).where(eq(branches.id, input.branchId)).limit(1);
  if (!branch) throw new AppError('NOT_FOUND', 'Branch not found.');
  await assertBranchAllowed(ctx, branch.id);

  const who = await ctx.db
    .select({ id: practitioners.id })
    .from(practitioners)
    .innerJoin(
      practitionerBranches,
      and(eq(practitionerBranches.practitionerId, practitioners.id), eq(practitionerBranches.branchId, branch.id)),
    )
    .innerJoin(
      practitionerTreatments,
      and(
        eq(practitionerTreatments.practitionerId, practitioners.id),
        eq(practitionerTreatments.treatmentId, treatment.id),
      ),
    )
    .where(
      and(
        eq(practitioners.active, true),
        input.practitionerId ? eq(practitioners.id, input.practitionerId) : undefined,
      ),
    )
    .orderBy(asc(practitioners.id));
  if (!who.length) return { data: [] };
  const ids = who.map((p) => p.id);

  const now = Date.now();
  const from = Math.max(range.from.getTime(), now);
  const to = range.to.getTime();
  if (from >= to) return { data: [] };
  const session = treatment.sessionMinutes * 60_000;
  const buffer = treatment.bufferMinutes * 60_000;
  // Wide enough for a neighbour's buffer on either side of the range.
  const windowFrom = new Date(from - 86_400_000);
  const windowTo = new Date(to + 86_400_000);

  const [periods, away, busy, closed, roomList] = await Promise.all([
    ctx.db
      .select()
      .from(workingPeriods)
      .where(and(inArray(workingPeriods.practitionerId, ids), eq(workingPeriods.branchId, branch.id))),
    ctx.db
      .select()
      .from(practitionerTimeOff)
      .where(
        and(
          inArray(practitionerTimeOff.practitionerId, ids),
          lt(practitionerTimeOff.startAt, windowTo),
          gt(practitionerTimeOff.endAt, windowFrom),
        ),
      ),
    ctx.db
      .select({
        practitionerId: appointments.practitionerId,
        roomId: appointments.roomId,
        startAt: appointments.startAt,
        endAt: appointments.endAt,
        blockedUntil: appointments.blockedUntil,
      })
      .from(appointments)
      .where(
        and(
          or(inArray(appointments.practitionerId, ids), eq(appointments.branchId, branch.id)),
          inArray(appointments.status, [...OCCUPYING_STATUSES]),
          lt(appointments.startAt, windowTo),
          gt(appointments.blockedUntil, windowFrom),
          // A session and its buffer last at most 16 hours (the treatments' timing check), so a
          // lower bound on the start lets the (practitioner, start) index stop there instead of
          // reading the practitioner's whole history.
          gte(appointments.startAt, new Date(windowFrom.getTime() - 86_400_000)),
        ),
      ),
    ctx.db.select({ day: branchClosures.day }).from(branchClosures).where(eq(branchClosures.branchId, branch.id)),
    treatment.requiresRoom
      ? ctx.db.select().from(rooms).where(eq(rooms.branchId, branch.id)).orderBy(asc(rooms.name), asc(rooms.id))
      : Promise.resolve([]),
  ]);
  const closedDays = new Set(closed.map((c) => c.day));

  const slots: TAvailability['data'] = [];
  for (let day = range.fromDay; day <= range.toDay; day = addToDate(day, { days: 1 })) {
    if (closedDays.has(day)) continue;
    const weekday = weekdayOfDay(day);
    for (const practitionerId of ids) {
      const own = periods
        .filter((p) => p.practitionerId === practitionerId && p.weekday === weekday)
        .sort((a, b) => a.startMinute - b.startMinute);
      for (const p of own) {
        for (let m = p.startMinute; m + treatment.sessionMinutes <= p.endMinute; m += step) {
          const start = instantAt(tz, day, m).getTime();
          if (start < from || start >= to) continue;
          const end = start + session;
          const blocked = end + buffer;
          const clash = busy.some(
            (a) =>
              a.practitionerId === practitionerId && a.startAt.getTime() < blocked && start < a.blockedUntil.getTime(),
          );
          if (clash) continue;
          const off = away.some(
            (o) => o.practitionerId === practitionerId && o.startAt.getTime() < end && start < o.endAt.getTime(),
          );
          if (off) continue;
          let roomId: string | null = null;
          if (treatment.requiresRoom) {
            // A room is free while fewer than its capacity are in it at any one instant (as booking counts).
            const inRoom = (id: string) =>
              busy.filter((a) => a.roomId === id).map((a) => ({ start: a.startAt, end: a.endAt }));
            const free = roomList.find((r) => mostAtOnce(inRoom(r.id), new Date(start), new Date(end)) < r.capacity);
            if (!free) continue;
            roomId = free.id;
          }
          slots.push({
            start: new Date(start).toISOString(),
            end: new Date(end).toISOString(),
            practitionerId,
            roomId,
          });
        }
      }
    }
  }
  slots.sort((a, b) => a.start.localeCompare(b.start) || a.practitionerId.localeCompare(b.practitionerId));
  return { data: slots };
}
