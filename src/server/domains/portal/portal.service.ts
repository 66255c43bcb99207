/**
 * What a person may change from the portal (docs/portal.md#what-a-person-may-do): their contact
 * details, cancelling an appointment before the cut-off, and, when Settings → Portal allows it,
 * booking and moving their own appointments. Every appointment rule is the staff calendar's own:
 * these functions check what is the portal's (whose record, the cut-offs, the window) and then
 * call the appointments service, which locks, checks and audits with the person as actor.
 */
import { eq, inArray } from 'drizzle-orm';
import { practitioners, users } from '../../db/schema';
import { AppError, refusal } from '../../errors';
import type {
  TPortalAppointment,
  TPortalAvailabilityInput,
  TPortalBookInput,
  TPortalCancelInput,
  TPortalMoveInput,
  TPortalProfile,
  TPortalProfileInput,
  TPortalSettings,
} from '@shared/schemas/portal';
import { availability } from '../appointments/appointments.read';
import { createAppointment, rescheduleAppointment } from '../appointments/appointments.service';
import { setAppointmentStatus } from '../appointments/appointments.status';
import { wallClockOf } from '../../../shared/zoned-time';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { invalidateReads } from '../read-cache';
import {
  clinicPhones,
  portalAppointment,
  portalBooking,
  portalProfile,
  tooLate,
  toPortalAppointment,
} from './portal.read';
import { getPortalSettings } from './portal.settings';

export function selfBookingOffMessage(phone: string): string {
  return `Self-booking is turned off: appointments cannot be booked or moved here. ${
    phone ? `Please call ${phone}` : 'Please call the clinic'
  } to book one.`;
}
export const NO_BRANCH = 'Your account has no branch yet, so there is nowhere to book. Please call the clinic.';
export const SLOT_TAKEN = 'That time is not free any more. Please choose another time.';

const HOUR = 3_600_000;
const DAY = 86_400_000;

// ------------------------------------------------------------------ profile

/**
 * The person's own contact details. Name, e-mail, NIC and branch are not part of the input (the
 * contract drops them), so they are never written here. Recorded as an `update` of the user with
 * the person as actor.
 */
export async function savePortalProfile(ctx: ServiceContext, input: TPortalProfileInput): Promise<TPortalProfile> {
  const set: Partial<typeof users.$inferInsert> = {};
  if (input.phone !== undefined) set.phone = input.phone;
  if (input.address !== undefined) set.address = input.address;
  if (input.language !== undefined) set.language = input.language;
  if (input.optOut?.email !== undefined) set.optOutEmail = input.optOut.email;
  if (input.optOut?.sms !== undefined) set.optOutSms = input.optOut.sms;
  if (Object.keys(set).length) {
    await ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(users).where(eq(users.id, ctx.actor.id)).for('update');
      if (!before) throw new AppError('UNAUTHORIZED', 'Please sign in again.');
      const [after] = await tx
        .update(users)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(users.id, ctx.actor.id))
        .returning();
      if (!after) throw new Error('The profile was not updated.');
      const view = (u: typeof before) => ({
        phone: u.phone,
        address: u.address,
        language: u.language,
        optOutEmail: u.optOutEmail,
        optOutSms: u.optOutSms,
      });
      const changes = fieldChanges(view(before), view(after));
      if (changes.length)
        await recordAudit(tx, ctx, {
          action: 'update',
          entityType: 'user',
          entityId: after.id,
          summary: `${after.username} changed their contact details in the portal`,
          changes,
        });
    });
    invalidateReads(ctx.deps);
  }
  return portalProfile(ctx);
}

// ------------------------------------------------------------------ cancelling

/** The 409 for an appointment no longer live (done, cancelled, missed). */
function notLive(status: string, what: 'cancelled' | 'moved'): AppError {
  return refusal('CONFLICT', `This appointment is ${status.replace('_', '-')}; it cannot be ${what}.`, {
    code: what === 'cancelled' ? 'not_cancellable' : 'not_movable',
    params: { status },
  });
}

/**
 * Cancels one of the person's live appointments, at least cancelHours before its start; inside
 * the cut-off the 409 says whom to call. The status change itself (and its audit entry, with the
 * reason when one is given) is the appointments service's.
 */
export async function cancelPortalAppointment(
  ctx: ServiceContext,
  input: TPortalCancelInput,
): Promise<TPortalAppointment> {
  const current = await portalAppointment(ctx, input.id);
  const rules = await getPortalSettings(ctx.db);
  if (current.callToCancel) throw tooLate(rules.cancelHours, current.clinicPhone);
  if (!current.canCancel) throw notLive(current.status, 'cancelled');
  const done = await setAppointmentStatus(ctx, { id: current._id, status: 'cancelled', reason: input.reason });
  // The status change planned the person's appointment_cancelled confirmation and withdrew the
  // reminders in its own transaction; the clinic sees the cancellation in the audit trail and the log.
  return toPortalAppointment(done, rules, await clinicPhones(ctx));
}

// ------------------------------------------------------------------ self-booking

async function selfBookingRules(ctx: ServiceContext): Promise<TPortalSettings> {
  const rules = await getPortalSettings(ctx.db);
  if (!rules.selfBooking) {
    const [u] = await ctx.db.select({ branchId: users.branchId }).from(users).where(eq(users.id, ctx.actor.id));
    const phone = (await clinicPhones(ctx))(u?.branchId);
    throw refusal('FORBIDDEN', selfBookingOffMessage(phone), { code: 'self_booking_off', params: { phone } });
  }
  return rules;
}

/** The window a person may book in: from minNoticeHours ahead to maxDaysAhead days ahead. */
function windowOf(rules: TPortalSettings, now = Date.now()) {
  return { earliest: now + rules.minNoticeHours * HOUR, latest: now + rules.maxDaysAhead * DAY };
}

function assertInWindow(rules: TPortalSettings, start: Date, now = Date.now()) {
  const { earliest, latest } = windowOf(rules, now);
  if (start.getTime() < earliest)
    throw refusal('CONFLICT', `Appointments can be booked here at least ${rules.minNoticeHours} hours ahead.`, {
      code: 'too_soon',
      params: { hours: rules.minNoticeHours },
    });
  if (start.getTime() > latest)
    throw refusal('CONFLICT', `Appointments can be booked here at most ${rules.maxDaysAhead} days ahead.`, {
      code: 'too_far',
      params: { days: rules.maxDaysAhead },
    });
}

async function branchOfPerson(ctx: ServiceContext): Promise<string> {
  const [u] = await ctx.db.select({ branchId: users.branchId }).from(users).where(eq(users.id, ctx.actor.id));
  if (!u?.branchId) throw refusal('CONFLICT', NO_BRANCH, { code: 'no_branch' });
  return u.branchId;
}

/** Which of the person's bookings, and its treatment (a booking whose treatment is gone cannot be booked). */
async function ownBookable(ctx: ServiceContext, bookingId: string) {
  const booking = await portalBooking(ctx, bookingId);
  if (booking.status === 'cancelled')
    throw refusal('CONFLICT', 'This booking is cancelled.', { code: 'booking_cancelled' });
  if (!booking.treatmentId)
    throw refusal('CONFLICT', 'This treatment is no longer offered.', { code: 'treatment_gone' });
  return { booking, treatmentId: booking.treatmentId };
}

/**
 * Free times for one of the person's bookings at their branch: the staff calendar's availability,
 * kept to the portal's window. Staff names only: no contact details.
 */
export async function portalAvailability(ctx: ServiceContext, input: TPortalAvailabilityInput) {
  const rules = await selfBookingRules(ctx);
  const { booking, treatmentId } = await ownBookable(ctx, input.bookingId);
  const branchId = await branchOfPerson(ctx);
  if (booking.sessionsRemaining === 0) return { data: [] };
  const slots = await availability(ctx, { treatmentId, branchId, from: input.from, to: input.to });
  const { earliest, latest } = windowOf(rules);
  const names = await practitionerNames(ctx, [...new Set(slots.data.map((s) => s.practitionerId))]);
  return {
    data: slots.data
      .filter((s) => Date.parse(s.start) >= earliest && Date.parse(s.start) <= latest)
      .map((s) => ({
        start: s.start,
        end: s.end,
        practitioner: { _id: s.practitionerId, fullName: names.get(s.practitionerId) ?? '' },
      })),
  };
}

async function practitionerNames(ctx: ServiceContext, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db
    .select({ id: practitioners.id, fullName: users.fullName })
    .from(practitioners)
    .innerJoin(users, eq(users.id, practitioners.userId))
    .where(inArray(practitioners.id, ids));
  return new Map(rows.map((r) => [r.id, r.fullName]));
}

const slotTaken = () => refusal('CONFLICT', SLOT_TAKEN, { code: 'slot_taken' });

/**
 * The calendar refused the time after the portal found it free (someone took it in between, a
 * clash found under the lock): the same 409 in the calendar's words, named as a time taken.
 */
function asSlotTaken(err: unknown): never {
  if (err instanceof AppError && err.code === 'CONFLICT' && !err.refusal)
    throw refusal('CONFLICT', err.message, { code: 'slot_taken' }, err.details);
  throw err;
}

/** The free slot at `start` (with the given practitioner, if any) on that day, or a 409. */
async function freeSlotAt(
  ctx: ServiceContext,
  treatmentId: string,
  branchId: string,
  start: Date,
  practitionerId: string | undefined,
) {
  const day = wallClockOf(ctx.deps.config.TIME_ZONE, start).day;
  const slots = await availability(ctx, {
    treatmentId,
    branchId,
    // A day names the whole of it in TIME_ZONE.
    from: day,
    to: day,
    practitionerId,
  });
  const slot = slots.data.find((s) => Date.parse(s.start) === start.getTime());
  if (!slot) throw slotTaken();
  return slot;
}

/**
 * Books a session of one of the person's bookings at a free time at their branch. The
 * appointments service checks, under the booking's lock, that a session is left and the time is
 * still free, exactly as for staff.
 */
export async function bookPortalAppointment(ctx: ServiceContext, input: TPortalBookInput): Promise<TPortalAppointment> {
  const rules = await selfBookingRules(ctx);
  const { booking, treatmentId } = await ownBookable(ctx, input.bookingId);
  const start = new Date(input.start);
  assertInWindow(rules, start);
  if (booking.sessionsRemaining === 0)
    throw refusal('CONFLICT', `All ${booking.maxSessions} sessions of this booking are booked or done.`, {
      code: 'no_sessions_left',
      params: { max: booking.maxSessions },
    });
  const branchId = await branchOfPerson(ctx);
  const slot = await freeSlotAt(ctx, treatmentId, branchId, start, input.practitionerId);
  const created = await createAppointment(ctx, {
    bookingId: booking._id,
    practitionerId: slot.practitionerId,
    branchId,
    start: start.toISOString(),
    roomId: slot.roomId,
  }).catch(asSlotTaken);
  return toPortalAppointment(created, rules, await clinicPhones(ctx));
}

/**
 * Moves one of the person's live appointments to another free time. Moving is giving up the old
 * time, so it keeps to the cancel cut-off as well as to the booking window.
 */
export async function movePortalAppointment(ctx: ServiceContext, input: TPortalMoveInput): Promise<TPortalAppointment> {
  const rules = await selfBookingRules(ctx);
  const current = await portalAppointment(ctx, input.id);
  if (current.callToCancel) throw tooLate(rules.cancelHours, current.clinicPhone);
  if (!current.canCancel) throw notLive(current.status, 'moved');
  const { treatmentId } = await ownBookable(ctx, current.bookingId);
  const start = new Date(input.start);
  assertInWindow(rules, start);
  const branchId = await branchOfPerson(ctx);
  const slot = await freeSlotAt(ctx, treatmentId, branchId, start, input.practitionerId);
  const moved = await rescheduleAppointment(ctx, {
    id: current._id,
    start: start.toISOString(),
    practitionerId: slot.practitionerId,
    branchId,
    roomId: slot.roomId,
  }).catch(asSlotTaken);
  return toPortalAppointment(moved, rules, await clinicPhones(ctx));
}
