/**
 * Appointments (docs/appointments.md): booking a session of a treatment booking with a
 * practitioner at a branch, moving it, its status from scheduled to completed (or cancelled, or a
 * no-show), and weekly series. Every change is one transaction with its audit entry.
 */
import { eq } from 'drizzle-orm';
import { planAppointmentMessages } from '../messages/hooks';
import type { Db } from '../../db/client';
import { appointments } from '../../db/schema';
import { AppError } from '../../errors';
import { addToDate } from '../../../shared/calendar';
import {
  APPOINTMENT_MESSAGES,
  SERIES_MAX_WEEKS,
  WEEKDAYS,
  type AppointmentStatus,
  type TAppointment,
  type TAppointmentSeries,
  type TAppointmentSeriesInput,
  type TCreateAppointmentInput,
  type TRescheduleAppointmentInput,
} from '@shared/schemas/appointments';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { assertId } from '../ids';
import { invalidateReads } from '../read-cache';
import { assertAppointmentClearOfClasses, lockAppointmentResources } from '../classes/class-clashes';
import { appointmentScope, getAppointment } from './appointments.read';
import {
  assertNotTooFarBack,
  assertSessionLeft,
  assertTimeFree,
  conflictOf,
  lockBookingSessions,
  REFUSALS,
  resolvePlan,
  timesOf,
  type Plan,
} from './appointments.rules';
import { instantAt, wallClockOf, wallText, weekdayOfDay } from '../../../shared/zoned-time';

type AppointmentRow = typeof appointments.$inferSelect;

/** What an audit entry shows of an appointment: names beside the times. */
function viewOf(plan: Plan, a: Pick<AppointmentRow, 'startAt' | 'endAt' | 'status' | 'note'>) {
  return {
    start: a.startAt.toISOString(),
    end: a.endAt.toISOString(),
    practitioner: plan.practitioner.fullName,
    branch: plan.branch.name,
    room: plan.room?.name ?? null,
    status: a.status,
    note: a.note,
  };
}

const asParent = (plan: Plan) => ({ type: 'booking' as const, id: plan.booking.id });
const what = (plan: Plan) => `${plan.treatment.treatmentName} for ${plan.customerName}`;

/**
 * Inserts one appointment inside `tx` after every check; the booking's row is locked by the
 * caller's lockBookingSessions. A race lost to another booking's insert is answered by conflictOf.
 */
async function insertChecked(
  tx: Db,
  ctx: ServiceContext,
  plan: Plan,
  start: Date,
  note: string,
): Promise<AppointmentRow> {
  assertSessionLeft(await lockBookingSessions(tx, plan.booking.id));
  // Class sessions share rooms and people: the classes' lock order, then their check (docs/classes.md#locks).
  const teacher = await lockAppointmentResources(tx, {
    roomId: plan.room?.id ?? null,
    practitionerId: plan.practitioner.id,
  });
  await assertTimeFree(tx, ctx.deps.config.TIME_ZONE, plan, start);
  const times = timesOf(plan.treatment, start);
  await assertAppointmentClearOfClasses(tx, ctx.deps.config.TIME_ZONE, teacher, {
    roomId: plan.room?.id ?? null,
    practitionerId: plan.practitioner.id,
    ...times,
  });
  try {
    // A savepoint: a refused row leaves the rest of the transaction (a series) usable.
    return await tx.transaction(async (sp) => {
      const [row] = await sp
        .insert(appointments)
        .values({
          bookingId: plan.booking.id,
          customerId: plan.booking.userId,
          treatmentId: plan.treatment.id,
          practitionerId: plan.practitioner.id,
          branchId: plan.branch.id,
          roomId: plan.room?.id ?? null,
          startAt: times.start,
          endAt: times.end,
          blockedUntil: times.blockedUntil,
          note,
          createdById: ctx.actor.id,
        })
        .returning();
      if (!row) throw new Error('The appointment was not stored.');
      await recordAudit(sp, ctx, {
        action: 'create',
        entityType: 'appointment',
        entityId: row.id,
        parent: asParent(plan),
        summary: `Booked ${what(plan)} with ${plan.practitioner.fullName} on ${wallText(ctx.deps.config.TIME_ZONE, start)}`,
        changes: fieldChanges(null, viewOf(plan, row)),
      });
      await planAppointmentMessages(sp, ctx.deps, row.id, { change: 'booked' });
      return row;
    });
  } catch (err) {
    throw conflictOf(err, plan) ?? err;
  }
}

/** POST /api/appointments: one session of the booking (docs/appointments.md#appointments). */
export async function createAppointment(ctx: ServiceContext, input: TCreateAppointmentInput): Promise<TAppointment> {
  const plan = await resolvePlan(ctx, ctx.db, {
    bookingId: input.bookingId,
    practitionerId: input.practitionerId,
    branchId: input.branchId,
    roomId: input.roomId ?? null,
  });
  const start = new Date(input.start);
  assertNotTooFarBack(start);
  if (input.end && new Date(input.end).getTime() !== timesOf(plan.treatment, start).end.getTime())
    throw new AppError('BAD_REQUEST', REFUSALS.endMismatch(plan.treatment.sessionMinutes));
  const row = await ctx.db.transaction((tx) => insertChecked(tx, ctx, plan, start, input.note ?? ''));
  invalidateReads(ctx.deps);
  return getAppointment(ctx, row.id);
}

/** The appointment's row as it is, in the caller's scope (another branch's answers 404). */
export async function findAppointment(ctx: ServiceContext, db: Db, id: string, lock = false): Promise<AppointmentRow> {
  assertId(id, 'Appointment');
  const q = db.select().from(appointments).where(eq(appointments.id, id));
  const [row] = lock ? await q.for('update') : await q.limit(1);
  if (!row) throw new AppError('NOT_FOUND', APPOINTMENT_MESSAGES.notFound);
  const scope = await appointmentScope(ctx);
  if (scope && scope.branchId !== row.branchId) throw new AppError('NOT_FOUND', APPOINTMENT_MESSAGES.notFound);
  return row;
}

const CLOSED_STATUSES: readonly AppointmentStatus[] = ['completed', 'cancelled', 'no_show'];
const CLOSED_WORD: Record<string, string> = { completed: 'completed', cancelled: 'cancelled', no_show: 'a no-show' };

/**
 * PUT /api/appointments/{id}: a new start, practitioner, room or branch, under the same checks as
 * a new appointment, keeping the same appointment (and its id). Not once it is completed,
 * cancelled or a no-show. The audit entry keeps the old and the new times.
 */
export async function rescheduleAppointment(
  ctx: ServiceContext,
  input: TRescheduleAppointmentInput,
): Promise<TAppointment> {
  const current = await findAppointment(ctx, ctx.db, input.id);
  const tz = ctx.deps.config.TIME_ZONE;
  const roomId = input.roomId === undefined ? current.roomId : input.roomId;
  const plan = await resolvePlan(ctx, ctx.db, {
    bookingId: current.bookingId,
    practitionerId: input.practitionerId ?? current.practitionerId,
    branchId: input.branchId ?? current.branchId,
    roomId,
  });
  const start = input.start ? new Date(input.start) : current.startAt;
  if (input.start) assertNotTooFarBack(start);
  await ctx.db.transaction(async (tx) => {
    // The booking's row first, then the appointment's: the order every writer takes them in.
    await lockBookingSessions(tx, current.bookingId, current.id);
    const before = await findAppointment(ctx, tx, current.id, true);
    if (CLOSED_STATUSES.includes(before.status))
      throw new AppError('CONFLICT', `This appointment is ${CLOSED_WORD[before.status]}; it cannot be rescheduled.`);
    const oldPlan = await namesOf(ctx, tx, before.id);
    const place = { roomId: plan.room?.id ?? null, practitionerId: plan.practitioner.id };
    const teacher = await lockAppointmentResources(tx, place);
    await assertTimeFree(tx, tz, plan, start, before.id);
    const times = timesOf(plan.treatment, start);
    await assertAppointmentClearOfClasses(tx, tz, teacher, { ...place, ...times, excludeAppointmentId: before.id });
    try {
      await tx.transaction(async (sp) => {
        const [after] = await sp
          .update(appointments)
          .set({
            practitionerId: plan.practitioner.id,
            branchId: plan.branch.id,
            roomId: plan.room?.id ?? null,
            startAt: times.start,
            endAt: times.end,
            blockedUntil: times.blockedUntil,
            updatedAt: new Date(),
          })
          .where(eq(appointments.id, before.id))
          .returning();
        if (!after) throw new Error('The appointment was not updated.');
        await recordAudit(sp, ctx, {
          action: 'reschedule',
          entityType: 'appointment',
          entityId: before.id,
          parent: asParent(plan),
          summary: `Rescheduled ${what(plan)} from ${wallText(tz, before.startAt)} with ${oldPlan.practitioner} to ${wallText(tz, start)} with ${plan.practitioner.fullName}`,
          changes: fieldChanges(
            { ...viewOf(plan, before), practitioner: oldPlan.practitioner, branch: oldPlan.branch, room: oldPlan.room },
            viewOf(plan, after),
            // The times are recorded even when unchanged, so the entry always reads old and new.
            { fields: ['start', 'end', 'practitioner', 'branch', 'room'] },
          ),
        });
        await planAppointmentMessages(sp, ctx.deps, before.id, { change: 'rescheduled', oldStartAt: before.startAt });
      });
    } catch (err) {
      throw conflictOf(err, plan) ?? err;
    }
  });
  invalidateReads(ctx.deps);
  return getAppointment(ctx, current.id);
}

/** Who, where and in which room an appointment is, by name (the "before" of a reschedule's entry). */
async function namesOf(ctx: ServiceContext, tx: Db, id: string) {
  const dto = await getAppointment({ ...ctx, db: tx }, id);
  return { practitioner: dto.practitioner.fullName, branch: dto.branch.name, room: dto.room?.name ?? null };
}

/**
 * The dates a series tries, in order: from the start's week, every `everyWeeks` weeks, on the
 * given weekdays (the start's own by default), at the start's wall-clock time, none before the
 * start, for at most 52 weeks.
 */
export function seriesStarts(
  timeZone: string,
  input: Pick<TAppointmentSeriesInput, 'start' | 'everyWeeks' | 'weekdays'>,
) {
  const first = new Date(input.start);
  const wall = wallClockOf(timeZone, first);
  const days = (input.weekdays ?? [WEEKDAYS[wall.weekday - 1]!]).map((d) => WEEKDAYS.indexOf(d) + 1).sort();
  const monday = addToDate(wall.day, { days: 1 - weekdayOfDay(wall.day) });
  const out: Date[] = [];
  for (let week = 0; week < SERIES_MAX_WEEKS; week += input.everyWeeks) {
    for (const weekday of days) {
      const day = addToDate(monday, { weeks: week, days: weekday - 1 });
      const at = instantAt(timeZone, day, wall.minute);
      if (at >= first) out.push(at);
    }
  }
  return out;
}

/**
 * POST /api/appointments/series (docs/appointments.md#series): books `count` appointments on the
 * series' dates, skipping (and naming) each date that cannot be booked, until `count` are booked,
 * the booking's sessions run out or 52 weeks have passed. With allOrNothing a single conflict
 * refuses the whole series (409 with the conflicts) and nothing is stored.
 */
export async function createSeries(ctx: ServiceContext, input: TAppointmentSeriesInput): Promise<TAppointmentSeries> {
  const tz = ctx.deps.config.TIME_ZONE;
  const plan = await resolvePlan(ctx, ctx.db, {
    bookingId: input.bookingId,
    practitionerId: input.practitionerId,
    branchId: input.branchId,
    roomId: input.roomId ?? null,
  });
  assertNotTooFarBack(new Date(input.start));
  const ids = await ctx.db.transaction(async (tx) => {
    const first = await lockBookingSessions(tx, plan.booking.id);
    assertSessionLeft(first);
    let left = first.left;
    const created: string[] = [];
    const conflicts: TAppointmentSeries['conflicts'] = [];
    for (const start of seriesStarts(tz, input)) {
      if (created.length >= input.count || left <= 0) break;
      try {
        const row = await tx.transaction((sp) => insertChecked(sp, ctx, plan, start, input.note ?? ''));
        created.push(row.id);
        left -= 1;
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'CONFLICT') throw err;
        conflicts.push({ start: start.toISOString(), message: err.message });
      }
    }
    if (input.allOrNothing && conflicts.length)
      throw new AppError(
        'CONFLICT',
        `${conflicts.length === 1 ? 'One date' : `${conflicts.length} dates`} of the series cannot be booked, so none was booked.`,
        { conflicts },
      );
    return { created, conflicts };
  });
  invalidateReads(ctx.deps);
  const created: TAppointment[] = [];
  for (const id of ids.created) created.push(await getAppointment(ctx, id));
  return { created, conflicts: ids.conflicts };
}
