import { eq, getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { childRows } from '../../db/child-rows';
import type { Db } from '../../db/client';
import { bookingInstallments, bookingSessionNotes, treatmentBookings, treatments, users } from '../../db/schema';
import type { SystemContext } from '../context';
import { type PaymentStatus } from '../../../shared/booking-status';
import { todayIn } from '../../../shared/calendar';
import { fromMinor } from '../../../shared/money';
import { assertRecordInScope } from '../branch-scope';
import { installmentsInRow, toInstallmentDto } from '../installments';
import type { TBooking } from '@shared/schemas/bookings.output';

/** Today's date, or its placeholder in a statement built once (db/prepared.ts). */
type Day = string | Placeholder;

/** Internal callers pass no actor; they are never limited to a branch (docs/security.md#branch-scope). */
export type Ctx = SystemContext;

export const BOOKING_NOT_FOUND = 'Booking not found.';

/** "Today" is the clinic's calendar day (config TIME_ZONE), not the database server's. */
export const today = (ctx: Ctx) => todayIn(ctx.deps.config.TIME_ZONE);
export const inScope = (ctx: Ctx, id: string) => assertRecordInScope(ctx, 'booking', id, BOOKING_NOT_FOUND);

/**
 * The payment status a reader must see. The stored column is recomputed on every installment
 * write, but an installment also becomes overdue merely because a day passes, with no write.
 * Reads therefore derive it in SQL rather than refreshing rows first: a GET never writes, and
 * lists and filters stay one query. Only pending/partially_paid can go stale (time moves forward
 * and due dates never change), so "an unpaid installment is past due" is the whole correction. A
 * cancelled booking is not chased.
 */
export function effectivePaymentStatusSql(todayIso: Day): SQL<PaymentStatus> {
  return sql<PaymentStatus>`case when ${lateSql(todayIso)} then 'overdue' else ${treatmentBookings.paymentStatus} end`;
}

/**
 * What turns a booking overdue whatever is stored: active, with an unpaid installment past due.
 * The earliest unpaid due date is a column of the booking kept by triggers on its instalments
 * (docs/performance.md#a-bookings-earliest-unpaid-due-date), so this reads the booking's row
 * alone. Written to be true or false, never null (nothing unpaid is a null date), so `not (...)`
 * below is exact.
 */
export function lateSql(todayIso: Day): SQL {
  return sql`(${treatmentBookings.status} = 'active' and ${treatmentBookings.nextUnpaidDue} is not null and ${treatmentBookings.nextUnpaidDue} < ${todayIso}::date)`;
}

/**
 * `effectivePaymentStatusSql(todayIso) = status`, for the filters. `sargable` writes the same test
 * so PostgreSQL can read the stored column's index instead of the case expression on every
 * booking: overdue is "late, or stored overdue"; any other status is the stored one unless late
 * (lateSql is never null, so `not (...)` is exact). The count and the capped REST list use it; a
 * page of 25 keeps the case expression, which stops after 25 matches on the way down the date
 * index (docs/performance.md#the-bookings-status-filter-2026-11-26).
 */
export function paymentStatusIsSql(todayIso: Day, status: PaymentStatus | Placeholder, sargable: boolean): SQL {
  if (!sargable) return sql`${effectivePaymentStatusSql(todayIso)} = ${status}`;
  // Which test fits depends on the status itself, so it cannot be a placeholder here.
  if (typeof status !== 'string') throw new Error('The index-friendly payment status test needs the status.');
  return status === 'overdue'
    ? sql`((${lateSql(todayIso)}) or ${treatmentBookings.paymentStatus} = ${status})`
    : sql`(not (${lateSql(todayIso)}) and ${treatmentBookings.paymentStatus} = ${status})`;
}

/** A booking as answers read it: the earliest unpaid due date serves the SQL above, not the answer. */
const { nextUnpaidDue: _kept, ...bookingColumns } = getTableColumns(treatmentBookings);

const n = bookingSessionNotes;
/** In the booking's own statement (docs/performance.md#children-in-the-records-statement). */
const installmentsSql = installmentsInRow(bookingInstallments, bookingInstallments.bookingId, treatmentBookings.id);
const notesSql = childRows(
  n,
  { sessionNumber: n.sessionNumber, note: n.note, date: n.date },
  sql`${n.bookingId} = ${treatmentBookings.id}`,
  [n.sessionNumber],
);

export function selectBookings(db: Db, todayIso: Day) {
  return db
    .select({
      booking: bookingColumns,
      username: users.username,
      email: users.email,
      fullName: users.fullName,
      liveTreatmentName: treatments.treatmentName,
      effectiveStatus: effectivePaymentStatusSql(todayIso),
      installments: installmentsSql,
      notes: notesSql,
    })
    .from(treatmentBookings)
    .leftJoin(users, eq(users.id, treatmentBookings.userId))
    .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId));
}

export type BookingJoinRow = Awaited<ReturnType<ReturnType<typeof selectBookings>['execute']>>[number];

/**
 * docs/product.md#records-and-their-fields Treatment booking, with populated userId and
 * treatmentId. The row brings its notes in session order and its instalments in sequence order.
 * Typed with its output contract, so a field one has and the other lacks fails the build.
 */
export function toBookingDto(r: BookingJoinRow, todayIso: string): TBooking {
  const b = r.booking;
  return {
    _id: b.id,
    userId: b.userId
      ? { _id: b.userId, username: r.username ?? '', email: r.email ?? '', fullName: r.fullName ?? '' }
      : null,
    deletedUsername: b.deletedUsername,
    deletedEmail: b.deletedEmail,
    // maxSessions is what was sold; the name follows the live treatment, else the kept copy.
    treatmentId: {
      _id: b.treatmentId,
      treatmentName: r.liveTreatmentName ?? b.treatmentName,
      maxSessions: b.maxSessions,
    },
    userType: b.userType,
    paymentType: b.paymentType,
    paymentStatus: r.effectiveStatus,
    price: fromMinor(b.price),
    currency: b.currency,
    treatmentPeriod: b.periodStart ? { startDate: b.periodStart, endDate: b.periodEnd ?? b.periodStart } : null,
    sessionsCompleted: b.sessionsCompleted,
    sessionNotes: r.notes.map((note): TBooking['sessionNotes'][number] => ({
      sessionNumber: note.sessionNumber,
      note: note.note,
      date: note.date ? note.date.toISOString() : null,
    })),
    // Overdue by the institute's calendar (TIME_ZONE), not the browser's (docs/money.md#overdue).
    installments: r.installments.map((inst) => toInstallmentDto(inst, todayIso)),
    status: b.status,
    cancelledAt: b.cancelledAt ? b.cancelledAt.toISOString() : null,
    bookedOn: b.bookedOn,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}
export type BookingDto = TBooking;

/** A page's (or any list's) answers: each row already carries its instalments and notes. */
export function toBookingDtos(rows: BookingJoinRow[], todayIso: string): BookingDto[] {
  return rows.map((r) => toBookingDto(r, todayIso));
}
