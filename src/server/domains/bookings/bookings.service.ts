import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bookingInstallments, bookingSessionNotes, treatmentBookings, treatments, users } from '../../db/schema';
import { computePaymentStatus } from '../../../shared/booking-status';
import { addToDate } from '../../../shared/calendar';
import { AppError } from '../../errors';
import { assertId, isUuid } from '../ids';
import { buildInstallmentSchedule } from '../installments';
import { startDayOf } from '../start-day';
import { setItemPaid } from '../payments/ledger';
import { itemsOf, lockBookingTarget, type LedgerTarget } from '../payments/ledger-targets';
import { recordItemToggle } from '../payments/ledger-audit';
import {
  bookingView,
  recordBooked,
  recordBookingDeleted,
  recordCancelled,
  recordNote,
  recordPaymentUpdate,
  recordSessions,
} from './bookings.audit';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import { getCurrencySettings, type CurrencySettings } from '../settings/settings.service';
import { assertUserInScope } from '../branch-scope';
import { USER_NOT_FOUND, type TPaymentBody, type TProgressBody } from '@shared/schemas/bookings';

import { BOOKING_NOT_FOUND, inScope, lateSql, today, type BookingDto, type Ctx } from './bookings.dto';
import { getBooking } from './bookings.queries';
import { invalidateReads } from '../read-cache';
import type { ServiceContext } from '../context';
import { cancelFutureAppointmentsOfBooking } from '../appointments/appointments.status';

const CANCELLED = 'This booking is cancelled; it cannot be changed.';

/** Brings the stored column up to date for bookings that became overdue by time alone (for a daily job). */
export async function refreshOverdueBookings(db: Db, todayIso: string): Promise<number> {
  const rows = await db
    .update(treatmentBookings)
    .set({ paymentStatus: 'overdue' })
    .where(and(inArray(treatmentBookings.paymentStatus, ['pending', 'partially_paid']), lateSql(todayIso)))
    .returning({ id: treatmentBookings.id });
  return rows.length;
}

/**
 * Called by the users service inside its delete transaction, before the user row goes: the
 * bookings keep who they were for (the foreign key then sets user_id to null).
 */
export async function detachUserFromBookings(tx: Db, userId: string): Promise<void> {
  await tx
    .update(treatmentBookings)
    .set({
      deletedUsername: sql`(select ${users.username} from ${users} where ${users.id} = ${userId})`,
      deletedEmail: sql`(select ${users.email} from ${users} where ${users.id} = ${userId})`,
    })
    .where(eq(treatmentBookings.userId, userId));
}

export interface BookInput {
  /** The screen names the customer by email, REST callers by id. */
  customer: { email: string } | { userId: string };
  treatmentId: string;
  userType: 'local' | 'foreign';
  paymentType: 'full' | 'installment';
  /** Up to 12 months back (admins); today when absent. */
  bookedOn?: string;
}

async function findCustomer(db: Db, customer: BookInput['customer']): Promise<string> {
  if ('email' in customer) {
    const [u] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, customer.email.trim().toLowerCase()))
      .limit(1);
    if (!u) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
    return u.id;
  }
  if (!isUuid(customer.userId)) throw new AppError('NOT_FOUND', 'User not found.');
  const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, customer.userId)).limit(1);
  if (!u) throw new AppError('NOT_FOUND', 'User not found.');
  return u.id;
}

/**
 * What a booking keeps from its treatment when it is made (docs/treatments.md): the name and the
 * sessions, the price and currency of the user type, and the period from `bookedOn` for the
 * treatment's duration (none when the duration is all zero).
 */
export function bookingTerms(
  treatment: typeof treatments.$inferSelect,
  userType: BookInput['userType'],
  bookedOn: string,
  currency: CurrencySettings,
) {
  const hasDuration = treatment.durationMonths + treatment.durationWeeks + treatment.durationDays > 0;
  return {
    treatmentId: treatment.id,
    treatmentName: treatment.treatmentName,
    maxSessions: treatment.maxSessions,
    userType,
    price: userType === 'local' ? treatment.localPrice : treatment.foreignPrice,
    currency: userType === 'local' ? currency.localCurrency : currency.foreignCurrency,
    periodStart: hasDuration ? bookedOn : null,
    periodEnd: hasDuration
      ? addToDate(bookedOn, {
          months: treatment.durationMonths,
          weeks: treatment.durationWeeks,
          days: treatment.durationDays,
        })
      : null,
    bookedOn,
  };
}

/**
 * docs/treatments.md, Treatment bookings: the price and currency follow the user type and are stored;
 * `full` is one installment of the whole price due today, `installment` splits the price into
 * the treatment's number of monthly parts (remainder on the last); the period runs from today
 * for the treatment's duration, and there is none when the duration is all zero.
 */
export async function bookTreatment(ctx: Ctx, input: BookInput): Promise<BookingDto> {
  const userId = await findCustomer(ctx.db, input.customer);
  await assertUserInScope(ctx, userId, 'email' in input.customer ? USER_NOT_FOUND : 'User not found.');
  assertId(input.treatmentId, 'Treatment');
  const [treatment] = await ctx.db.select().from(treatments).where(eq(treatments.id, input.treatmentId)).limit(1);
  if (!treatment) throw new AppError('NOT_FOUND', 'Treatment not found.');
  const currency = await getCurrencySettings(ctx.db);
  const bookedOn = startDayOf(ctx, input.bookedOn, 'Booked on');
  const terms = bookingTerms(treatment, input.userType, bookedOn, currency);
  const schedule = buildInstallmentSchedule(terms.price, input.paymentType, treatment.installments, bookedOn);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(treatmentBookings)
      .values({
        userId,
        ...terms,
        paymentType: input.paymentType,
        paymentStatus: computePaymentStatus(schedule, today(ctx)),
      })
      .returning();
    await tx.insert(bookingInstallments).values(schedule.map((s) => ({ ...s, bookingId: row!.id })));
    await recordBooked(tx, ctx, row!);
    return row!.id;
  });
  invalidateReads(ctx.deps);
  return getBooking(ctx, id);
}

async function lockBooking(tx: Db, id: string) {
  assertId(id, 'Booking');
  const [row] = await tx.select().from(treatmentBookings).where(eq(treatmentBookings.id, id)).for('update').limit(1);
  if (!row) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  if (row.status === 'cancelled') throw new AppError('CONFLICT', CANCELLED);
  return row;
}

/**
 * Sessions and notes (docs/treatments.md): 0..maxSessions completed; notes for sessions 1..maxSessions,
 * text only for a completed session. An empty note for a session clears it, which lets callers
 * send the whole list (empty entries for sessions not yet done) as the old screen did. A saved
 * note keeps its first date, or gets now when it had none.
 */
export async function updateProgress(ctx: Ctx, bookingId: string, input: TProgressBody): Promise<BookingDto> {
  await inScope(ctx, bookingId);
  await ctx.db.transaction(async (tx) => {
    const b = await lockBooking(tx, bookingId);
    const completed = input.sessionsCompleted ?? b.sessionsCompleted;
    if (completed < 0 || completed > b.maxSessions) {
      throw new AppError('BAD_REQUEST', `Sessions completed must be between 0 and ${b.maxSessions}.`);
    }
    const notes = input.sessionNotes ?? [];
    for (const n of notes) {
      if (n.sessionNumber < 1 || n.sessionNumber > b.maxSessions) {
        throw new AppError('BAD_REQUEST', `Session number must be between 1 and ${b.maxSessions}.`);
      }
      if (n.note.trim() !== '' && n.sessionNumber > completed) {
        throw new AppError(
          'BAD_REQUEST',
          `Session ${n.sessionNumber} is not completed yet; notes can only be written for completed sessions.`,
        );
      }
    }
    if (input.sessionsCompleted !== undefined && input.sessionsCompleted !== b.sessionsCompleted) {
      await tx.update(treatmentBookings).set({ sessionsCompleted: completed }).where(eq(treatmentBookings.id, b.id));
      await recordSessions(tx, ctx, b, b.sessionsCompleted, completed);
    }
    if (notes.length === 0) return;
    const existing = await tx.select().from(bookingSessionNotes).where(eq(bookingSessionNotes.bookingId, b.id));
    const now = new Date();
    for (const n of notes) {
      const text = n.note.trim();
      const old = existing.find((e) => e.sessionNumber === n.sessionNumber);
      if (text === '') {
        if (!old) continue;
        await tx
          .delete(bookingSessionNotes)
          .where(and(eq(bookingSessionNotes.bookingId, b.id), eq(bookingSessionNotes.sessionNumber, n.sessionNumber)));
        await recordNote(tx, ctx, b, n.sessionNumber, old, undefined);
        continue;
      }
      const date = n.date ? new Date(n.date) : (old?.date ?? now);
      // The whole list may come back unchanged: only a written, edited or re-dated note is recorded.
      if (old && old.note === text && old.date?.getTime() === date.getTime()) continue;
      await tx
        .insert(bookingSessionNotes)
        .values({ bookingId: b.id, sessionNumber: n.sessionNumber, note: text, date })
        .onConflictDoUpdate({
          target: [bookingSessionNotes.bookingId, bookingSessionNotes.sessionNumber],
          set: { note: text, date },
        });
      await recordNote(tx, ctx, b, n.sessionNumber, old, { note: text, date });
    }
  });
  invalidateReads(ctx.deps);
  return getBooking(ctx, bookingId);
}

/** Recomputes and stores the payment status after any installment change (docs/treatments.md). */
async function storePaymentStatus(tx: Db, bookingId: string, todayIso: string) {
  const insts = await tx.select().from(bookingInstallments).where(eq(bookingInstallments.bookingId, bookingId));
  await tx
    .update(treatmentBookings)
    .set({ paymentStatus: computePaymentStatus(insts, todayIso) })
    .where(eq(treatmentBookings.id, bookingId));
}

/**
 * The toggles go through the ledger (docs/payments.md#the-paidunpaid-switch): paid records a
 * payment of what is left of the installment, unpaid voids the payments that paid it. Repeating
 * a call is harmless: an already paid installment keeps its first paid date.
 */
const toggle = (ctx: Ctx, method?: PaymentMethod) => ({ actor: ctx.actor ?? null, todayIso: today(ctx), method });

/** The booking's installments in schedule order, as ledger items. */
async function installmentItems(tx: Db, target: LedgerTarget) {
  return (await itemsOf(tx, target)).sort((a, b) => (a.number ?? 0) - (b.number ?? 0));
}

export async function setInstallmentPaid(
  ctx: Ctx,
  bookingId: string,
  input: { installmentIndex?: number; installmentId?: string; isPaid: boolean; method?: PaymentMethod },
): Promise<BookingDto> {
  await inScope(ctx, bookingId);
  await ctx.db.transaction(async (tx) => {
    const b = await lockBooking(tx, bookingId);
    const target = await lockBookingTarget(tx, b.id);
    const items = await installmentItems(tx, target);
    const item =
      input.installmentId !== undefined
        ? items.find((i) => i.installmentId === input.installmentId)
        : items[input.installmentIndex ?? -1];
    if (!item) throw new AppError('NOT_FOUND', 'Installment not found.');
    const paidBefore = item.amountPaid;
    const receipts = await setItemPaid(tx, target, item, input.isPaid, toggle(ctx, input.method));
    if (receipts.length) await recordItemToggle(tx, ctx, target, item, paidBefore, input.isPaid, receipts);
    await storePaymentStatus(tx, b.id, today(ctx));
  });
  invalidateReads(ctx.deps);
  return getBooking(ctx, bookingId);
}

/** PUT /api/bookings/payment/{bookingId}: see ZPaymentBody. */
export async function updatePayment(ctx: Ctx, bookingId: string, input: TPaymentBody): Promise<BookingDto> {
  await inScope(ctx, bookingId);
  await ctx.db.transaction(async (tx) => {
    const b = await lockBooking(tx, bookingId);
    const target = await lockBookingTarget(tx, b.id);
    const items = await installmentItems(tx, target);
    const wanted = input.installments;
    if (wanted && wanted.length !== items.length) {
      throw new AppError('BAD_REQUEST', `This booking has ${items.length} installments; send one { isPaid } for each.`);
    }
    const toggled: Parameters<typeof recordPaymentUpdate>[3] = [];
    for (const [i, item] of items.entries()) {
      const isPaid = wanted ? (wanted[i]?.isPaid ?? false) : input.paymentStatus === 'paid';
      if (isPaid ? item.amountPaid < item.amount : item.amountPaid > 0) {
        const receipts = await setItemPaid(tx, target, item, isPaid, toggle(ctx));
        if (receipts.length) toggled.push({ number: item.number, isPaid, receipts });
      }
    }
    await recordPaymentUpdate(tx, ctx, target, toggled);
    await storePaymentStatus(tx, b.id, today(ctx));
  });
  invalidateReads(ctx.deps);
  return getBooking(ctx, bookingId);
}

/**
 * docs/treatments.md: a cancelled booking is kept (reports leave it out of revenue by `status`);
 * its appointments still to come are cancelled with it, in the same transaction.
 */
export async function cancelBooking(ctx: ServiceContext, id: string): Promise<BookingDto> {
  assertId(id, 'Booking');
  await inScope(ctx, id);
  await ctx.db.transaction(async (tx) => {
    const [b] = await tx.select().from(treatmentBookings).where(eq(treatmentBookings.id, id)).for('update').limit(1);
    if (!b) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
    // Cancelling twice is harmless and changes nothing: the first cancellation keeps its date.
    if (b.status === 'cancelled') return;
    const before = await bookingView(tx, b);
    const [row] = await tx
      .update(treatmentBookings)
      .set({ status: 'cancelled', cancelledAt: sql`coalesce(${treatmentBookings.cancelledAt}, now())` })
      .where(eq(treatmentBookings.id, id))
      .returning();
    await recordCancelled(tx, ctx, before, row!);
    await cancelFutureAppointmentsOfBooking({ ...ctx, db: tx }, id);
  });
  invalidateReads(ctx.deps);
  return getBooking(ctx, id);
}

export async function deleteBooking(ctx: Ctx, id: string): Promise<{ message: string }> {
  assertId(id, 'Booking');
  await inScope(ctx, id);
  await ctx.db.transaction(async (tx) => {
    const [b] = await tx.select().from(treatmentBookings).where(eq(treatmentBookings.id, id)).for('update').limit(1);
    if (!b) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
    await recordBookingDeleted(tx, ctx, await bookingView(tx, b), id);
    await tx.delete(treatmentBookings).where(eq(treatmentBookings.id, id));
  });
  invalidateReads(ctx.deps);
  return { message: 'Booking deleted successfully!' };
}
