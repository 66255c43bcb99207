/**
 * An appointment's status (docs/appointments.md#status): arrived, completed (counting the
 * booking's session), cancelled or a no-show, and the cancellation of a booking's appointments
 * still to come when the booking itself is cancelled.
 */
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { treatmentBookings, appointments } from '../../db/schema';
import { AppError, isUniqueViolation } from '../../errors';
import {
  APPOINTMENT_MOVES,
  type AppointmentStatus,
  type TAppointment,
  type TAppointmentStatusInput,
} from '@shared/schemas/appointments';
import { recordAudit } from '../audit/audit.service';
import { recordSessions } from '../bookings/bookings.audit';
import type { ServiceContext } from '../context';
import { planAppointmentMessages } from '../messages/hooks';
import { invalidateReads } from '../read-cache';
import { wallText } from '../../../shared/zoned-time';
import { getAppointment } from './appointments.read';
import { REFUSALS } from './appointments.rules';
import { findAppointment } from './appointments.service';

const STATUS_WORD: Record<AppointmentStatus, string> = {
  scheduled: 'scheduled',
  confirmed: 'confirmed',
  arrived: 'arrived',
  completed: 'completed',
  cancelled: 'cancelled',
  no_show: 'a no-show',
};
/** Arrived may be marked from this long before the start. */
const ARRIVE_EARLY_MS = 2 * 60 * 60_000;

/**
 * POST /api/appointments/{id}/status. Completing gives the appointment the booking's next session
 * number and adds one to the booking's completed sessions (never past its maximum), with the
 * booking's row locked, in the same transaction.
 */
export async function setAppointmentStatus(ctx: ServiceContext, input: TAppointmentStatusInput): Promise<TAppointment> {
  const current = await findAppointment(ctx, ctx.db, input.id);
  const tz = ctx.deps.config.TIME_ZONE;
  await ctx.db.transaction(async (tx) => {
    const [booking] = await tx
      .select()
      .from(treatmentBookings)
      .where(eq(treatmentBookings.id, current.bookingId))
      .for('update');
    const a = await findAppointment(ctx, tx, current.id, true);
    if (!booking) throw new AppError('NOT_FOUND', REFUSALS.bookingNotFound);
    const to = input.status;
    if (a.status === to) throw new AppError('CONFLICT', `This appointment is already ${STATUS_WORD[to]}.`);
    if (!APPOINTMENT_MOVES[a.status].includes(to))
      throw new AppError(
        'CONFLICT',
        `An appointment that is ${STATUS_WORD[a.status]} cannot be marked ${STATUS_WORD[to]}.`,
      );
    const now = Date.now();
    if (to === 'arrived' && now < a.startAt.getTime() - ARRIVE_EARLY_MS)
      throw new AppError(
        'CONFLICT',
        `Arrival can be marked from 2 hours before the start (${wallText(tz, a.startAt)}).`,
      );
    if ((to === 'completed' || to === 'no_show') && now < a.startAt.getTime())
      throw new AppError(
        'CONFLICT',
        `The appointment has not started yet (${wallText(tz, a.startAt)}); it can be marked ${STATUS_WORD[to]} once it has.`,
      );
    let sessionNumber = a.sessionNumber;
    if (to === 'completed') {
      if (booking.sessionsCompleted >= booking.maxSessions)
        throw new AppError(
          'CONFLICT',
          `All ${booking.maxSessions} sessions of this booking are already completed; this one cannot be counted.`,
        );
      sessionNumber = booking.sessionsCompleted + 1;
      await tx
        .update(treatmentBookings)
        .set({ sessionsCompleted: sessionNumber })
        .where(eq(treatmentBookings.id, booking.id));
      await recordSessions(tx, ctx, booking, booking.sessionsCompleted, sessionNumber);
    }
    try {
      await tx.transaction(async (sp) => {
        await sp
          .update(appointments)
          .set({
            status: to,
            sessionNumber,
            statusReason: input.reason ?? null,
            statusChangedAt: new Date(now),
            updatedAt: new Date(now),
          })
          .where(eq(appointments.id, a.id));
      });
    } catch (err) {
      // The session number is taken by an appointment completed before the count was edited by hand.
      if (isUniqueViolation(err))
        throw new AppError(
          'CONFLICT',
          `Session ${sessionNumber} of this booking already belongs to another appointment; correct the completed sessions first.`,
        );
      throw err;
    }
    const action = to === 'completed' ? 'complete' : to === 'cancelled' ? 'cancel' : 'status_change';
    await recordAudit(tx, ctx, {
      action,
      entityType: 'appointment',
      entityId: a.id,
      parent: { type: 'booking', id: booking.id },
      summary: `Marked the appointment of ${booking.treatmentName} on ${wallText(tz, a.startAt)} ${STATUS_WORD[to]}${
        sessionNumber && to === 'completed' ? ` (session ${sessionNumber} of ${booking.maxSessions})` : ''
      }`,
      changes: [
        { field: 'status', before: a.status, after: to },
        ...(input.reason ? [{ field: 'reason', before: a.statusReason, after: input.reason }] : []),
        ...(to === 'completed' ? [{ field: 'sessionNumber', before: null, after: sessionNumber }] : []),
      ],
    });
    if (to === 'cancelled') await planAppointmentMessages(tx, ctx.deps, a.id, { change: 'cancelled' });
  });
  invalidateReads(ctx.deps);
  return getAppointment(ctx, current.id);
}

/** The reason a booking's cancellation gives the appointments it cancels. */
export const BOOKING_CANCELLED_REASON = 'The booking was cancelled.';

/**
 * Called by the bookings service inside its cancel transaction (`ctx.db` is that transaction):
 * each appointment of the booking still to come (scheduled or confirmed, starting after now) is
 * cancelled through setAppointmentStatus, so it is kept with a reason, frees its slot and runs
 * whatever hangs on a cancelled appointment. Past and arrived ones are left for the front desk.
 */
export async function cancelFutureAppointmentsOfBooking(ctx: ServiceContext, bookingId: string): Promise<number> {
  const rows = await ctx.db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.bookingId, bookingId),
        inArray(appointments.status, ['scheduled', 'confirmed']),
        gt(appointments.startAt, new Date()),
      ),
    )
    .orderBy(asc(appointments.startAt));
  for (const { id } of rows)
    await setAppointmentStatus(ctx, { id, status: 'cancelled', reason: BOOKING_CANCELLED_REASON });
  return rows.length;
}
