/**
 * What the portal shows a signed-in person (docs/portal.md): only their own records, always found
 * through the session's person (`ctx.actor.id`), never an id the caller sends for a person. A
 * record of someone else answers exactly like a missing one (404). The answers leave out what is
 * internal: notes, session notes, staff contacts, audit details and void reasons.
 */
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import {
  appointments,
  batches,
  batchMembers,
  batchSlots,
  branches,
  enrollments,
  rooms,
  treatmentBookings,
  users,
} from '../../db/schema';
import { AppError, refusal } from '../../errors';
import { addToDate, todayIn } from '../../../shared/calendar';
import { fromMinor, toMinor } from '../../../shared/money';
import { LIVE_STATUSES, WEEKDAYS, type TAppointment } from '@shared/schemas/appointments';
import type { TInstallment } from '@shared/schemas/installments.output';
import {
  type TPortalAppointment,
  type TPortalAppointmentsInput,
  type TPortalBooking,
  type TPortalEnrollment,
  type TPortalInstallment,
  type TPortalMe,
  type TPortalProfile,
  type TPortalSettings,
} from '@shared/schemas/portal';
import { selectAppointments, toAppointmentDto } from '../appointments/appointments.read';
import { instantAt } from '../../../shared/zoned-time';
import { selectBookings, toBookingDto } from '../bookings/bookings.dto';
import { attendanceStats } from '../classes/attendance.stats';
import type { ServiceContext } from '../context';
import { selectEnrollments, toEnrollmentDto } from '../enrollments/enrollments.dto';
import { isUuid } from '../ids';
import { loadOrganisation } from '../settings/organisation.service';
import { getPortalSettings } from './portal.settings';

export const PORTAL_NOT_FOUND = {
  enrollment: 'Enrollment not found.',
  booking: 'Booking not found.',
  appointment: 'Appointment not found.',
  payment: 'Payment not found.',
} as const;

/** The 404 for a record that is not the person's (or is nothing), named for the portal. */
export function portalNotFound(what: keyof typeof PORTAL_NOT_FOUND): AppError {
  return refusal('NOT_FOUND', PORTAL_NOT_FOUND[what], { code: 'not_found', params: { what } });
}

export const today = (ctx: ServiceContext) => todayIn(ctx.deps.config.TIME_ZONE);
const LIVE: readonly string[] = LIVE_STATUSES;

// ------------------------------------------------------------------ the person

async function personRow(ctx: ServiceContext) {
  const [u] = await ctx.db
    .select({ u: users, branchName: branches.name })
    .from(users)
    .leftJoin(branches, eq(branches.id, users.branchId))
    .where(eq(users.id, ctx.actor.id))
    .limit(1);
  // The session outlived its account (deleted meanwhile): it is signed out in all but name.
  if (!u) throw new AppError('UNAUTHORIZED', 'Please sign in again.');
  return u;
}

export async function portalMe(ctx: ServiceContext): Promise<TPortalMe> {
  const { u, branchName } = await personRow(ctx);
  return {
    _id: u.id,
    username: u.username,
    fullName: u.fullName,
    email: u.email,
    role: u.role,
    language: u.language,
    branch: u.branchId ? { _id: u.branchId, name: branchName ?? '' } : null,
  };
}

export async function portalProfile(ctx: ServiceContext): Promise<TPortalProfile> {
  const { u, branchName } = await personRow(ctx);
  return {
    fullName: u.fullName,
    email: u.email,
    nic: u.nic,
    branch: u.branchId ? { _id: u.branchId, name: branchName ?? '' } : null,
    phone: u.phone,
    address: u.address,
    language: u.language,
    optOut: { email: u.optOutEmail, sms: u.optOutSms },
  };
}

// ------------------------------------------------------------------ appointments

/** Which number to call about a branch's appointment: the branch's own, else the organisation's ('' when neither). */
export type PhoneOf = (branchId: string | null | undefined) => string;

/** The numbers a person is told to call: read once (branches are few), looked up per branch. */
export async function clinicPhones(ctx: ServiceContext): Promise<PhoneOf> {
  const [org, rows] = await Promise.all([
    loadOrganisation(ctx.db, ctx.deps.config),
    ctx.db
      .select({ id: branches.id, phone: branches.phone })
      .from(branches)
      .where(sql`coalesce(${branches.phone}, '') <> ''`)
      .limit(5000),
  ]);
  const own = new Map(rows.map((r) => [r.id, (r.phone ?? '').trim()]));
  const fallback = org.phone.trim();
  return (branchId) => (branchId ? own.get(branchId) : undefined) || fallback;
}

export function tooLateMessage(cancelHours: number, phone: string): string {
  const who = phone ? `please call ${phone}` : 'please call the clinic';
  return `Appointments can be cancelled here up to ${cancelHours} hours before they start; to cancel this one, ${who}.`;
}

/** The 409 for an appointment inside the cut-off, naming the number to call. */
export function tooLate(cancelHours: number, phone: string): AppError {
  return refusal('CONFLICT', tooLateMessage(cancelHours, phone), {
    code: 'cancel_too_late',
    params: { hours: cancelHours, phone },
  });
}

export function toPortalAppointment(
  a: TAppointment,
  rules: Pick<TPortalSettings, 'cancelHours'>,
  phoneOf: PhoneOf,
  now = Date.now(),
): TPortalAppointment {
  const phone = phoneOf(a.branch._id);
  const live = LIVE.includes(a.status);
  const inTime = Date.parse(a.start) - now >= rules.cancelHours * 3_600_000;
  return {
    _id: a._id,
    bookingId: a.booking._id,
    treatmentName: a.treatment.treatmentName,
    practitioner: { _id: a.practitioner._id, fullName: a.practitioner.fullName },
    branch: a.branch,
    room: a.room ? { name: a.room.name } : null,
    start: a.start,
    end: a.end,
    status: a.status,
    canCancel: live && inTime,
    callToCancel: live && !inTime ? tooLateMessage(rules.cancelHours, phone) : null,
    clinicPhone: phone,
  };
}

export async function appointmentRows(ctx: ServiceContext, where: ReturnType<typeof and>, limit = 500) {
  const rows = await selectAppointments(ctx.db)
    .where(and(eq(appointments.customerId, ctx.actor.id), where))
    .orderBy(asc(appointments.startAt), asc(appointments.id))
    .limit(limit);
  const [rules, phone] = await Promise.all([getPortalSettings(ctx.db), clinicPhones(ctx)]);
  const now = Date.now();
  return rows.map((r) => toPortalAppointment(toAppointmentDto(r), rules, phone, now));
}

/** The person's appointments from `from` (default today) through `to` (default: no end), by start. */
export async function portalAppointments(ctx: ServiceContext, input: TPortalAppointmentsInput) {
  const tz = ctx.deps.config.TIME_ZONE;
  const from = instantAt(tz, input.from ?? today(ctx), 0);
  const to = input.to ? instantAt(tz, addToDate(input.to, { days: 1 }), 0) : undefined;
  return {
    data: await appointmentRows(
      ctx,
      and(gte(appointments.startAt, from), to ? lt(appointments.startAt, to) : undefined),
    ),
  };
}

/** One of the person's appointments as the portal shows it; anyone else's is not found. */
export async function portalAppointment(ctx: ServiceContext, id: string): Promise<TPortalAppointment> {
  if (!isUuid(id)) throw portalNotFound('appointment');
  const [a] = await appointmentRows(ctx, eq(appointments.id, id), 1);
  if (!a) throw portalNotFound('appointment');
  return a;
}

// ------------------------------------------------------------------ money

function toPortalInstallments(list: TInstallment[]): TPortalInstallment[] {
  return list.map((i, n) => ({
    _id: i._id,
    installmentNumber: n + 1,
    amount: i.amount,
    dueDate: i.dueDate,
    isPaid: i.isPaid,
    isOverdue: i.isOverdue,
    amountPaid: i.amountPaid,
    partPaid: !i.isPaid && i.amountPaid > 0,
  }));
}

export const owedOn = (i: TPortalInstallment) =>
  i.isPaid ? 0 : Math.max(0, toMinor(i.amount) - toMinor(i.amountPaid));

// ------------------------------------------------------------------ enrolments

export async function enrollmentsOf(ctx: ServiceContext, id?: string): Promise<TPortalEnrollment[]> {
  const t = today(ctx);
  const rows = await selectEnrollments(ctx.db)
    .where(and(eq(enrollments.userId, ctx.actor.id), id ? eq(enrollments.id, id) : undefined))
    .orderBy(desc(enrollments.createdAt), asc(enrollments.id))
    .limit(200);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.e.id);
  const places = await ctx.db
    .select({
      enrollmentId: batchMembers.enrollmentId,
      b: batches,
      branchName: branches.name,
      instructor: users.fullName,
    })
    .from(batchMembers)
    .innerJoin(batches, eq(batches.id, batchMembers.batchId))
    .leftJoin(branches, eq(branches.id, batches.branchId))
    .leftJoin(users, eq(users.id, batches.instructorId))
    .where(and(inArray(batchMembers.enrollmentId, ids), eq(batchMembers.status, 'member')));
  const batchIds = places.map((p) => p.b.id);
  const slots = batchIds.length
    ? await ctx.db
        .select({ s: batchSlots, roomName: rooms.name })
        .from(batchSlots)
        .leftJoin(rooms, eq(rooms.id, batchSlots.roomId))
        .where(inArray(batchSlots.batchId, batchIds))
        .orderBy(asc(batchSlots.weekday), asc(batchSlots.startMinute))
    : [];
  const stats = await attendanceStats(ctx.db, ids);
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return rows.map((r) => {
    const e = toEnrollmentDto(r, t);
    const place = places.find((p) => p.enrollmentId === e._id);
    const f = stats.get(e._id);
    return {
      _id: e._id,
      courseName: e.courseId?.courseName ?? e.deletedCourseName ?? '',
      status: e.displayStatus,
      enrolledOn: e.enrolledOn,
      currency: e.currency,
      totalFee: e.totalFee,
      paidAmount: e.paidAmount,
      outstandingAmount: e.outstandingAmount,
      admissionFee: e.admissionFee,
      admissionFeePaid: e.admissionFeePaid,
      installments: toPortalInstallments(e.installments),
      batch: place
        ? {
            _id: place.b.id,
            name: place.b.name,
            startDate: place.b.startDate,
            endDate: place.b.endDate,
            branch: place.b.branchId ? { _id: place.b.branchId, name: place.branchName ?? '' } : null,
            instructor: place.instructor ? { fullName: place.instructor } : null,
            timetable: slots
              .filter((s) => s.s.batchId === place.b.id)
              .map((s) => ({
                weekday: WEEKDAYS[s.s.weekday - 1] ?? 'monday',
                start: hhmm(s.s.startMinute),
                end: hhmm(s.s.endMinute),
                room: s.roomName ? { name: s.roomName } : null,
              })),
          }
        : null,
      attendanceRate: f?.rate ?? null,
      attendance: {
        held: f?.held ?? 0,
        present: f?.present ?? 0,
        late: f?.late ?? 0,
        absent: f?.absent ?? 0,
        excused: f?.excused ?? 0,
      },
    };
  });
}

export async function portalEnrollments(ctx: ServiceContext) {
  return { data: await enrollmentsOf(ctx) };
}

export async function portalEnrollment(ctx: ServiceContext, id: string): Promise<TPortalEnrollment> {
  if (!isUuid(id)) throw portalNotFound('enrollment');
  const [e] = await enrollmentsOf(ctx, id);
  if (!e) throw portalNotFound('enrollment');
  return e;
}

// ------------------------------------------------------------------ bookings

/** Sessions a booking still has to give: its maximum less those done and those booked ahead. */
export async function liveAppointmentCounts(ctx: ServiceContext, bookingIds: string[]) {
  if (!bookingIds.length) return new Map<string, number>();
  const rows = await ctx.db
    .select({ bookingId: appointments.bookingId, n: sql<number>`count(*)::int` })
    .from(appointments)
    .where(and(inArray(appointments.bookingId, bookingIds), inArray(appointments.status, [...LIVE_STATUSES])))
    .groupBy(appointments.bookingId);
  return new Map(rows.map((r) => [r.bookingId, Number(r.n)]));
}

export async function bookingsOf(ctx: ServiceContext, id?: string): Promise<TPortalBooking[]> {
  const t = today(ctx);
  const rows = await selectBookings(ctx.db, t)
    .where(and(eq(treatmentBookings.userId, ctx.actor.id), id ? eq(treatmentBookings.id, id) : undefined))
    .orderBy(desc(treatmentBookings.createdAt), asc(treatmentBookings.id))
    .limit(200);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.booking.id);
  const [live, appts] = await Promise.all([
    liveAppointmentCounts(ctx, ids),
    appointmentRows(ctx, inArray(appointments.bookingId, ids), 2000),
  ]);
  const now = Date.now();
  return rows.map((r) => {
    const b = toBookingDto(r, t);
    const installments = toPortalInstallments(b.installments);
    const owed = installments.reduce((s, i) => s + owedOn(i), 0);
    const paid = installments.reduce((s, i) => s + toMinor(i.amountPaid), 0);
    const mine = appts.filter((a) => a.bookingId === b._id);
    const upcoming = mine.filter((a) => LIVE.includes(a.status) && Date.parse(a.end) > now);
    return {
      _id: b._id,
      treatmentName: b.treatmentId.treatmentName,
      treatmentId: b.treatmentId._id,
      status: b.status,
      bookedOn: b.bookedOn,
      currency: b.currency,
      price: b.price,
      paidAmount: fromMinor(paid),
      outstandingAmount: fromMinor(owed),
      sessionsDone: b.sessionsCompleted,
      maxSessions: b.treatmentId.maxSessions,
      sessionsRemaining: Math.max(0, b.treatmentId.maxSessions - b.sessionsCompleted - (live.get(b._id) ?? 0)),
      installments,
      upcoming,
      past: mine.filter((a) => !upcoming.includes(a)).reverse(),
    };
  });
}

export async function portalBookings(ctx: ServiceContext) {
  return { data: await bookingsOf(ctx) };
}

export async function portalBooking(ctx: ServiceContext, id: string): Promise<TPortalBooking> {
  if (!isUuid(id)) throw portalNotFound('booking');
  const [b] = await bookingsOf(ctx, id);
  if (!b) throw portalNotFound('booking');
  return b;
}
