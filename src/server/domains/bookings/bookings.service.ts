import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bookingInstallments, bookingSessionNotes, treatmentBookings, treatments, users } from '../../db/schema';
import type { ServiceContext } from '../../deps';
import { addToDate, computePaymentStatus, todayIn, type PaymentStatus } from '../../../shared/booking-status';
import { fromMinor } from '../../../shared/money';
import type { Page } from '../../../shared/pagination';
import { AppError } from '../../errors';
import { assertId, ilikeContains, isUuid, offsetOf } from '../common';
import { buildInstallmentSchedule, paidColumns, toInstallmentDto } from '../installments';
import { getCurrencySettings } from '../settings/settings.service';
import { assertRecordInScope, assertUserInScope, branchCondition, branchScopeOf } from '../branch-scope';
import {
  USER_NOT_FOUND,
  type TBookingFilters,
  type TListBookingsInput,
  type TPaymentBody,
  type TProgressBody,
} from '@shared/schemas/bookings';

/** Internal callers pass no actor; they are never limited to a branch (docs/security.md#branch-scope). */
type Ctx = Pick<ServiceContext, 'db' | 'deps'> & { actor?: ServiceContext['actor'] | null };

const BOOKING_NOT_FOUND = 'Booking not found.';
const CANCELLED = 'This booking is cancelled; it cannot be changed.';

/** "Today" is the clinic's calendar day (config TIME_ZONE), not the database server's. */
const today = (ctx: Ctx) => todayIn(ctx.deps.config.TIME_ZONE);
const inScope = (ctx: Ctx, id: string) => assertRecordInScope(ctx, 'booking', id, BOOKING_NOT_FOUND);

/**
 * The payment status a reader must see. The stored column is recomputed on every installment
 * write, but an installment also becomes overdue merely because a day passes, with no write.
 * Reads therefore derive it in SQL rather than refreshing rows first: a GET never writes, lists
 * and filters stay one query, and the partial index on unpaid due dates keeps the EXISTS cheap.
 * Only pending/partially_paid can go stale (time moves forward and due dates never change), so
 * "an unpaid installment is past due" is the whole correction. A cancelled booking is not chased.
 */
export function effectivePaymentStatusSql(todayIso: string): SQL<PaymentStatus> {
  return sql<PaymentStatus>`case when ${treatmentBookings.status} = 'active' and exists (select 1 from ${bookingInstallments} where ${bookingInstallments.bookingId} = ${treatmentBookings.id} and ${bookingInstallments.isPaid} = false and ${bookingInstallments.dueDate} < ${todayIso}::date) then 'overdue' else ${treatmentBookings.paymentStatus} end`;
}

/** Brings the stored column up to date for bookings that became overdue by time alone (for a daily job). */
export async function refreshOverdueBookings(db: Db, todayIso: string): Promise<number> {
  const rows = await db
    .update(treatmentBookings)
    .set({ paymentStatus: 'overdue' })
    .where(
      and(
        inArray(treatmentBookings.paymentStatus, ['pending', 'partially_paid']),
        eq(treatmentBookings.status, 'active'),
        sql`exists (select 1 from ${bookingInstallments} where ${bookingInstallments.bookingId} = ${treatmentBookings.id} and ${bookingInstallments.isPaid} = false and ${bookingInstallments.dueDate} < ${todayIso}::date)`,
      ),
    )
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

function selectBookings(db: Db, todayIso: string) {
  return db
    .select({
      booking: treatmentBookings,
      username: users.username,
      email: users.email,
      liveTreatmentName: treatments.treatmentName,
      effectiveStatus: effectivePaymentStatusSql(todayIso),
    })
    .from(treatmentBookings)
    .leftJoin(users, eq(users.id, treatmentBookings.userId))
    .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId));
}

type BookingJoinRow = Awaited<ReturnType<ReturnType<typeof selectBookings>['execute']>>[number];
type InstallmentRow = typeof bookingInstallments.$inferSelect;
type NoteRow = typeof bookingSessionNotes.$inferSelect;

/** docs/product.md#records-and-their-fields Treatment booking, with populated userId and treatmentId. */
function toBookingDto(r: BookingJoinRow, installments: InstallmentRow[], notes: NoteRow[], todayIso: string) {
  const b = r.booking;
  return {
    _id: b.id,
    userId: b.userId ? { _id: b.userId, username: r.username ?? '', email: r.email ?? '' } : null,
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
    sessionNotes: notes
      .sort((a, c) => a.sessionNumber - c.sessionNumber)
      .map((n) => ({ sessionNumber: n.sessionNumber, note: n.note, date: n.date ? n.date.toISOString() : null })),
    // Overdue by the institute's calendar (TIME_ZONE), not the browser's (docs/money.md#overdue).
    installments: installments
      .sort((a, c) => a.seq - c.seq)
      .map((i) => ({ ...toInstallmentDto(i), isOverdue: !i.isPaid && i.dueDate < todayIso })),
    status: b.status,
    cancelledAt: b.cancelledAt ? b.cancelledAt.toISOString() : null,
    bookedOn: b.bookedOn,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}
export type BookingDto = ReturnType<typeof toBookingDto>;

/** Installments and notes for a page of bookings in two queries, not two per booking. */
async function hydrate(db: Db, rows: BookingJoinRow[], todayIso: string): Promise<BookingDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.booking.id);
  const [insts, notes] = await Promise.all([
    db.select().from(bookingInstallments).where(inArray(bookingInstallments.bookingId, ids)),
    db.select().from(bookingSessionNotes).where(inArray(bookingSessionNotes.bookingId, ids)),
  ]);
  return rows.map((r) =>
    toBookingDto(
      r,
      insts.filter((i) => i.bookingId === r.booking.id),
      notes.filter((n) => n.bookingId === r.booking.id),
      todayIso,
    ),
  );
}

export async function getBooking(ctx: Ctx, id: string): Promise<BookingDto> {
  assertId(id, 'Booking');
  await inScope(ctx, id);
  const rows = await selectBookings(ctx.db, today(ctx)).where(eq(treatmentBookings.id, id)).limit(1);
  if (!rows.length) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  return (await hydrate(ctx.db, rows, today(ctx)))[0]!;
}

function filterWhere(todayIso: string, f: TBookingFilters & { search?: string; userId?: string }): SQL | undefined {
  // Same meaning as coalesce(live value, kept copy) ILIKE text, written so the users trigram index
  // finds the matching customers first (the foreign keys null the id when the row goes).
  const customerEmail = (text: string) =>
    or(
      sql`${treatmentBookings.userId} in (select ${users.id} from ${users} where ${ilikeContains(users.email, text)})`,
      and(sql`${treatmentBookings.userId} is null`, ilikeContains(treatmentBookings.deletedEmail, text)),
    );
  const treatmentName = (text: string) =>
    or(
      sql`${treatmentBookings.treatmentId} in (select ${treatments.id} from ${treatments} where ${ilikeContains(treatments.treatmentName, text)})`,
      and(sql`${treatmentBookings.treatmentId} is null`, ilikeContains(treatmentBookings.treatmentName, text)),
    );
  return and(
    f.userId ? eq(treatmentBookings.userId, f.userId) : undefined,
    f.paymentStatus ? sql`${effectivePaymentStatusSql(todayIso)} = ${f.paymentStatus}` : undefined,
    f.userType ? eq(treatmentBookings.userType, f.userType) : undefined,
    f.status ? eq(treatmentBookings.status, f.status) : undefined,
    f.search ? or(customerEmail(f.search), treatmentName(f.search)) : undefined,
  );
}

/** The bookings screen: paged, searched (customer email or treatment name) and filtered on the server. */
export async function listBookings(ctx: Ctx, input: TListBookingsInput): Promise<Page<BookingDto>> {
  const t = today(ctx);
  const where = and(branchCondition(await branchScopeOf(ctx)), filterWhere(t, input));
  const order = input.sortDir === 'asc' ? asc(treatmentBookings.createdAt) : desc(treatmentBookings.createdAt);
  const [rows, [total]] = await Promise.all([
    selectBookings(ctx.db, t)
      .where(where)
      .orderBy(order, asc(treatmentBookings.id))
      .limit(input.pageSize)
      .offset(offsetOf(input.page, input.pageSize)),
    ctx.db
      .select({ n: count() })
      .from(treatmentBookings)
      .leftJoin(users, eq(users.id, treatmentBookings.userId))
      .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
      .where(where),
  ]);
  return {
    items: await hydrate(ctx.db, rows, today(ctx)),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/** GET /api/bookings/bookings answers a bare array (docs/architecture.md); capped so it cannot grow without bound. */
export async function listAllBookings(ctx: Ctx, filters: TBookingFilters): Promise<BookingDto[]> {
  const t = today(ctx);
  const rows = await selectBookings(ctx.db, t)
    .where(and(branchCondition(await branchScopeOf(ctx)), filterWhere(t, filters)))
    .orderBy(desc(treatmentBookings.createdAt), asc(treatmentBookings.id))
    .limit(5000);
  return hydrate(ctx.db, rows, today(ctx));
}

export async function listUserBookings(ctx: Ctx, userId: string): Promise<BookingDto[]> {
  assertId(userId, 'User');
  const [u] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw new AppError('NOT_FOUND', 'User not found.');
  await assertUserInScope(ctx, userId, 'User not found.');
  const t = today(ctx);
  const rows = await selectBookings(ctx.db, t)
    .where(filterWhere(t, { userId }))
    .orderBy(desc(treatmentBookings.createdAt), asc(treatmentBookings.id))
    .limit(5000);
  return hydrate(ctx.db, rows, today(ctx));
}

/** docs/treatments.md: progress/{userId}/{treatmentId} addresses the newest booking of that pair. */
export async function newestBookingId(ctx: Ctx, userId: string, treatmentId: string): Promise<string> {
  if (!isUuid(userId) || !isUuid(treatmentId)) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  const [row] = await ctx.db
    .select({ id: treatmentBookings.id })
    .from(treatmentBookings)
    .where(and(eq(treatmentBookings.userId, userId), eq(treatmentBookings.treatmentId, treatmentId)))
    .orderBy(desc(treatmentBookings.createdAt), desc(treatmentBookings.id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  return row.id;
}

export async function getProgress(ctx: Ctx, userId: string, treatmentId: string): Promise<BookingDto> {
  return getBooking(ctx, await newestBookingId(ctx, userId, treatmentId));
}

export interface BookInput {
  /** The screen names the customer by email, REST callers by id. */
  customer: { email: string } | { userId: string };
  treatmentId: string;
  userType: 'local' | 'foreign';
  paymentType: 'full' | 'installment';
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
  const bookedOn = today(ctx);
  const price = input.userType === 'local' ? treatment.localPrice : treatment.foreignPrice;
  const schedule = buildInstallmentSchedule(price, input.paymentType, treatment.installments, bookedOn);
  const hasDuration = treatment.durationMonths + treatment.durationWeeks + treatment.durationDays > 0;
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(treatmentBookings)
      .values({
        userId,
        treatmentId: treatment.id,
        treatmentName: treatment.treatmentName,
        maxSessions: treatment.maxSessions,
        userType: input.userType,
        paymentType: input.paymentType,
        paymentStatus: computePaymentStatus(schedule, bookedOn),
        price,
        currency: input.userType === 'local' ? currency.localCurrency : currency.foreignCurrency,
        periodStart: hasDuration ? bookedOn : null,
        periodEnd: hasDuration
          ? addToDate(bookedOn, {
              months: treatment.durationMonths,
              weeks: treatment.durationWeeks,
              days: treatment.durationDays,
            })
          : null,
        bookedOn,
      })
      .returning({ id: treatmentBookings.id });
    await tx.insert(bookingInstallments).values(schedule.map((s) => ({ ...s, bookingId: row!.id })));
    return row!.id;
  });
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
    }
    if (notes.length === 0) return;
    const existing = await tx.select().from(bookingSessionNotes).where(eq(bookingSessionNotes.bookingId, b.id));
    const now = new Date();
    for (const n of notes) {
      const text = n.note.trim();
      if (text === '') {
        await tx
          .delete(bookingSessionNotes)
          .where(and(eq(bookingSessionNotes.bookingId, b.id), eq(bookingSessionNotes.sessionNumber, n.sessionNumber)));
        continue;
      }
      const old = existing.find((e) => e.sessionNumber === n.sessionNumber);
      const date = n.date ? new Date(n.date) : (old?.date ?? now);
      await tx
        .insert(bookingSessionNotes)
        .values({ bookingId: b.id, sessionNumber: n.sessionNumber, note: text, date })
        .onConflictDoUpdate({
          target: [bookingSessionNotes.bookingId, bookingSessionNotes.sessionNumber],
          set: { note: text, date },
        });
    }
  });
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

/** Repeating a call is harmless: an already paid installment keeps its first paid date. */
async function setPaid(tx: Db, inst: InstallmentRow, isPaid: boolean) {
  if (inst.isPaid === isPaid) return;
  await tx.update(bookingInstallments).set(paidColumns(isPaid)).where(eq(bookingInstallments.id, inst.id));
}

async function installmentsOf(tx: Db, bookingId: string) {
  return tx
    .select()
    .from(bookingInstallments)
    .where(eq(bookingInstallments.bookingId, bookingId))
    .orderBy(asc(bookingInstallments.seq));
}

export async function setInstallmentPaid(
  ctx: Ctx,
  bookingId: string,
  input: { installmentIndex?: number; installmentId?: string; isPaid: boolean },
): Promise<BookingDto> {
  await inScope(ctx, bookingId);
  await ctx.db.transaction(async (tx) => {
    const b = await lockBooking(tx, bookingId);
    const insts = await installmentsOf(tx, b.id);
    const inst =
      input.installmentId !== undefined
        ? insts.find((i) => i.id === input.installmentId)
        : insts[input.installmentIndex ?? -1];
    if (!inst) throw new AppError('NOT_FOUND', 'Installment not found.');
    await setPaid(tx, inst, input.isPaid);
    await storePaymentStatus(tx, b.id, today(ctx));
  });
  return getBooking(ctx, bookingId);
}

/** PUT /api/bookings/payment/{bookingId}: see ZPaymentBody. */
export async function updatePayment(ctx: Ctx, bookingId: string, input: TPaymentBody): Promise<BookingDto> {
  await inScope(ctx, bookingId);
  await ctx.db.transaction(async (tx) => {
    const b = await lockBooking(tx, bookingId);
    const insts = await installmentsOf(tx, b.id);
    if (input.installments) {
      if (input.installments.length !== insts.length) {
        throw new AppError(
          'BAD_REQUEST',
          `This booking has ${insts.length} installments; send one { isPaid } for each.`,
        );
      }
      for (const [i, inst] of insts.entries()) await setPaid(tx, inst, input.installments[i]!.isPaid);
    } else {
      for (const inst of insts) await setPaid(tx, inst, input.paymentStatus === 'paid');
    }
    await storePaymentStatus(tx, b.id, today(ctx));
  });
  return getBooking(ctx, bookingId);
}

/** docs/treatments.md: a cancelled booking is kept (reports leave it out of revenue by `status`). */
export async function cancelBooking(ctx: Ctx, id: string): Promise<BookingDto> {
  assertId(id, 'Booking');
  await inScope(ctx, id);
  const [row] = await ctx.db
    .update(treatmentBookings)
    .set({ status: 'cancelled', cancelledAt: sql`coalesce(${treatmentBookings.cancelledAt}, now())` })
    .where(eq(treatmentBookings.id, id))
    .returning({ id: treatmentBookings.id });
  if (!row) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  return getBooking(ctx, id);
}

export async function deleteBooking(ctx: Ctx, id: string): Promise<{ message: string }> {
  assertId(id, 'Booking');
  await inScope(ctx, id);
  const rows = await ctx.db
    .delete(treatmentBookings)
    .where(eq(treatmentBookings.id, id))
    .returning({ id: treatmentBookings.id });
  if (!rows.length) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  return { message: 'Booking deleted successfully!' };
}
