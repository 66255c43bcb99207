/**
 * The ledger's arithmetic inside one transaction (docs/payments.md): what a record still owes,
 * how an amount is allocated, receipt numbers, and applying or reversing allocations. Callers
 * (the payments service and the enrolment and booking toggles) lock the enrolment or booking
 * first, so two cashiers paying the same installment are serialised and never collect more than
 * it is owed.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  bookingInstallments,
  branches,
  enrollmentInstallments,
  enrollments,
  paymentAllocations,
  payments,
  receiptCounters,
  treatmentBookings,
  users,
  courses,
  treatments,
} from '../../db/schema';
import type { Actor } from '../../auth/sessions';
import { AppError } from '../../errors';
import { computePaymentStatus } from '../../../shared/booking-status';
import { formatMoney } from '../../../shared/format';
import { fromMinor, toMinor } from '../../../shared/money';
import type { AllocationKind, PaymentMethod } from '../../../shared/payment-kinds';
import { isUuid } from '../common';

export const ENROLLMENT_NOT_FOUND = 'Enrollment not found.';
export const BOOKING_NOT_FOUND = 'Booking not found.';
export const ENROLLMENT_COMPLETED = 'This enrollment is completed; its payments can no longer be changed.';
export const BOOKING_CANCELLED = 'This booking is cancelled; it cannot be changed.';

/** The enrolment or booking a payment is for, locked, with what the receipt needs to name. */
export interface LedgerTarget {
  kind: 'enrollment' | 'booking';
  id: string;
  status: string;
  currency: string;
  payerId: string | null;
  payerName: string;
  payerEmail: string | null;
  payerBranchId: string | null;
  subject: string;
  /** Enrolments only: the admission fee and what has been paid of it. */
  admissionFee: number;
  admissionFeeAmountPaid: number;
}

/** One thing that can be paid: the admission fee or an installment. Money in minor units. */
export interface LedgerItem {
  kind: AllocationKind;
  /** The installment's id; null for the admission fee. */
  installmentId: string | null;
  /** 1-based installment number; null for the admission fee. */
  number: number | null;
  dueDate: string | null;
  amount: number;
  amountPaid: number;
}

export const outstandingOf = (i: LedgerItem) => i.amount - i.amountPaid;

/** Locks the enrolment (FOR UPDATE) and reads who pays and for what. */
export async function lockEnrollmentTarget(tx: Db, id: string): Promise<LedgerTarget> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', ENROLLMENT_NOT_FOUND);
  const [e] = await tx.select().from(enrollments).where(eq(enrollments.id, id)).for('update').limit(1);
  if (!e) throw new AppError('NOT_FOUND', ENROLLMENT_NOT_FOUND);
  const [u] = e.userId
    ? await tx
        .select({ username: users.username, email: users.email, branchId: users.branchId })
        .from(users)
        .where(eq(users.id, e.userId))
        .limit(1)
    : [];
  const [c] = e.courseId
    ? await tx.select({ name: courses.courseName }).from(courses).where(eq(courses.id, e.courseId)).limit(1)
    : [];
  return {
    kind: 'enrollment',
    id: e.id,
    status: e.status,
    currency: e.currency,
    payerId: e.userId,
    payerName: u?.username ?? e.deletedUsername ?? 'Unknown',
    payerEmail: u?.email ?? e.deletedEmail,
    payerBranchId: u?.branchId ?? null,
    subject: c?.name ?? e.deletedCourseName ?? 'Unknown course',
    admissionFee: e.admissionFee,
    admissionFeeAmountPaid: e.admissionFeeAmountPaid,
  };
}

/** Locks the booking (FOR UPDATE) and reads who pays and for what. */
export async function lockBookingTarget(tx: Db, id: string): Promise<LedgerTarget> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  const [b] = await tx.select().from(treatmentBookings).where(eq(treatmentBookings.id, id)).for('update').limit(1);
  if (!b) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  const [u] = b.userId
    ? await tx
        .select({ username: users.username, email: users.email, branchId: users.branchId })
        .from(users)
        .where(eq(users.id, b.userId))
        .limit(1)
    : [];
  const [t] = b.treatmentId
    ? await tx
        .select({ name: treatments.treatmentName })
        .from(treatments)
        .where(eq(treatments.id, b.treatmentId))
        .limit(1)
    : [];
  return {
    kind: 'booking',
    id: b.id,
    status: b.status,
    currency: b.currency,
    payerId: b.userId,
    payerName: u?.username ?? b.deletedUsername ?? 'Unknown',
    payerEmail: u?.email ?? b.deletedEmail,
    payerBranchId: u?.branchId ?? null,
    subject: t?.name ?? b.treatmentName,
    admissionFee: 0,
    admissionFeeAmountPaid: 0,
  };
}

/** What can be paid on the target, oldest first: the admission fee, then installments by due date. */
export async function itemsOf(tx: Db, target: LedgerTarget): Promise<LedgerItem[]> {
  if (target.kind === 'enrollment') {
    const rows = await tx
      .select()
      .from(enrollmentInstallments)
      .where(eq(enrollmentInstallments.enrollmentId, target.id))
      .orderBy(asc(enrollmentInstallments.dueDate), asc(enrollmentInstallments.seq));
    const fee: LedgerItem[] =
      target.admissionFee > 0
        ? [
            {
              kind: 'admission_fee',
              installmentId: null,
              number: null,
              dueDate: null,
              amount: target.admissionFee,
              amountPaid: target.admissionFeeAmountPaid,
            },
          ]
        : [];
    return [
      ...fee,
      ...rows.map((r) => ({
        kind: 'enrollment_installment' as const,
        installmentId: r.id,
        number: r.seq + 1,
        dueDate: r.dueDate,
        amount: r.amount,
        amountPaid: r.amountPaid,
      })),
    ];
  }
  const rows = await tx
    .select()
    .from(bookingInstallments)
    .where(eq(bookingInstallments.bookingId, target.id))
    .orderBy(asc(bookingInstallments.dueDate), asc(bookingInstallments.seq));
  return rows.map((r) => ({
    kind: 'booking_installment' as const,
    installmentId: r.id,
    number: r.seq + 1,
    dueDate: r.dueDate,
    amount: r.amount,
    amountPaid: r.amountPaid,
  }));
}

const recordName = (t: LedgerTarget) => (t.kind === 'enrollment' ? 'enrollment' : 'booking');
const money = (minor: number, currency: string) => formatMoney(fromMinor(minor), currency);

export interface Allocation {
  item: LedgerItem;
  amount: number;
}

/**
 * Splits `amount` (minor units) over the target's items: oldest first, or as the caller named
 * them. Refuses paying more than is outstanding, naming how much is.
 */
export function allocate(
  target: LedgerTarget,
  items: LedgerItem[],
  amount: number,
  explicit?: Array<{ kind: AllocationKind; installmentId?: string; amount: number }>,
): Allocation[] {
  const outstanding = items.reduce((s, i) => s + outstandingOf(i), 0);
  if (amount > outstanding) {
    throw new AppError(
      'CONFLICT',
      outstanding === 0
        ? `Nothing is outstanding on this ${recordName(target)}.`
        : `Only ${money(outstanding, target.currency)} is outstanding on this ${recordName(target)}.`,
      { outstanding: fromMinor(outstanding) },
    );
  }
  if (!explicit) {
    const out: Allocation[] = [];
    let left = amount;
    for (const item of items) {
      if (left === 0) break;
      const part = Math.min(left, outstandingOf(item));
      if (part > 0) out.push({ item, amount: part });
      left -= part;
    }
    return out;
  }
  const byItem = new Map<LedgerItem, number>();
  for (const a of explicit) {
    const item = items.find((i) =>
      a.kind === 'admission_fee'
        ? i.kind === 'admission_fee'
        : i.kind === a.kind && i.installmentId === a.installmentId,
    );
    if (!item) {
      throw new AppError(
        'NOT_FOUND',
        a.kind === 'admission_fee'
          ? 'This enrollment has no admission fee to pay.'
          : `Installment not found in this ${recordName(target)}.`,
      );
    }
    byItem.set(item, (byItem.get(item) ?? 0) + toMinor(a.amount));
  }
  let sum = 0;
  for (const [item, part] of byItem) {
    if (part > outstandingOf(item)) {
      const what = item.kind === 'admission_fee' ? 'the admission fee' : `installment ${item.number}`;
      throw new AppError('CONFLICT', `Only ${money(outstandingOf(item), target.currency)} is outstanding on ${what}.`, {
        outstanding: fromMinor(outstandingOf(item)),
      });
    }
    sum += part;
  }
  if (sum !== amount) throw new AppError('BAD_REQUEST', 'The allocations must add up to the amount.');
  return [...byItem].map(([item, part]) => ({ item, amount: part }));
}

/** Adds (or, negative, takes back) money on one item and keeps isPaid/paidAt in step. */
async function applyToItem(tx: Db, target: LedgerTarget, item: LedgerItem, delta: number, when: Date) {
  const paid = item.amountPaid + delta;
  const isPaid = paid >= item.amount;
  const becamePaid = isPaid && item.amountPaid < item.amount;
  item.amountPaid = paid;
  if (item.kind === 'admission_fee') {
    await tx
      .update(enrollments)
      .set({
        admissionFeeAmountPaid: paid,
        admissionFeePaid: isPaid,
        admissionFeePaidAt: isPaid ? (becamePaid ? when : sql`${enrollments.admissionFeePaidAt}`) : null,
        updatedAt: new Date(),
      })
      .where(eq(enrollments.id, target.id));
    target.admissionFeeAmountPaid = paid;
    return;
  }
  const table = item.kind === 'enrollment_installment' ? enrollmentInstallments : bookingInstallments;
  await tx
    .update(table)
    .set({
      amountPaid: paid,
      isPaid,
      paidAt: isPaid ? (becamePaid ? when : sql`${table.paidAt}`) : null,
    })
    .where(eq(table.id, item.installmentId ?? ''));
}

/** After any change of a booking's installments: its stored payment status (docs/treatments.md). */
async function refreshTarget(tx: Db, target: LedgerTarget, todayIso: string) {
  if (target.kind === 'enrollment') {
    await tx.update(enrollments).set({ updatedAt: new Date() }).where(eq(enrollments.id, target.id));
    return;
  }
  const insts = await tx.select().from(bookingInstallments).where(eq(bookingInstallments.bookingId, target.id));
  await tx
    .update(treatmentBookings)
    .set({ paymentStatus: computePaymentStatus(insts, todayIso) })
    .where(eq(treatmentBookings.id, target.id));
}

/** Three capital letters of the branch name (Galle → GAL); GEN for people without a branch. */
export function branchCode(name: string | null | undefined): string {
  const letters = (name ?? '')
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 3)
    .toUpperCase();
  return letters || 'GEN';
}

/**
 * The next number of a series and year. The counter row is incremented inside the paying
 * transaction: concurrent payments of one branch wait for each other here, and a payment that
 * rolls back gives its number back, so numbers have no gaps.
 */
async function nextReceiptSeq(tx: Db, series: string, year: number): Promise<number> {
  const [row] = await tx
    .insert(receiptCounters)
    .values({ series, year, last: 1 })
    .onConflictDoUpdate({
      target: [receiptCounters.series, receiptCounters.year],
      set: { last: sql`${receiptCounters.last} + 1` },
    })
    .returning({ last: receiptCounters.last });
  if (!row) throw new Error('receipt counter did not answer');
  return row.last;
}

export interface NewPayment {
  target: LedgerTarget;
  allocations: Allocation[];
  method: PaymentMethod;
  reference?: string;
  note?: string;
  receivedAt: Date;
  /** Who took the money; null for internal callers (demo data), shown as "not recorded". */
  actor: Pick<Actor, 'id' | 'username' | 'branchId'> | null;
  /** YYYY-MM-DD of today in the organisation's time zone (the receipt's year; booking statuses). */
  todayIso: string;
}

/** Writes one payment with its allocations and applies them. Returns the payment id. */
export async function writePayment(tx: Db, p: NewPayment): Promise<string> {
  const amount = p.allocations.reduce((s, a) => s + a.amount, 0);
  if (amount <= 0 || p.allocations.some((a) => a.amount <= 0))
    throw new AppError('BAD_REQUEST', 'A payment must be for more than nothing.');
  const branchId = p.target.payerBranchId ?? p.actor?.branchId ?? null;
  const [branch] = branchId
    ? await tx.select({ name: branches.name }).from(branches).where(eq(branches.id, branchId)).limit(1)
    : [];
  const series = branch ? (branchId ?? 'none') : 'none';
  const year = Number(p.todayIso.slice(0, 4));
  const seq = await nextReceiptSeq(tx, series, year);
  const receiptNumber = `${branchCode(branch?.name)}-${year}-${String(seq).padStart(6, '0')}`;
  const [row] = await tx
    .insert(payments)
    .values({
      receiptNumber,
      receiptSeries: series,
      receiptYear: year,
      receiptSeq: seq,
      branchId: branch ? branchId : null,
      branchName: branch?.name ?? null,
      payerId: p.target.payerId,
      payerName: p.target.payerName,
      payerEmail: p.target.payerEmail,
      enrollmentId: p.target.kind === 'enrollment' ? p.target.id : null,
      bookingId: p.target.kind === 'booking' ? p.target.id : null,
      subject: p.target.subject,
      amount,
      currency: p.target.currency,
      method: p.method,
      reference: p.reference ?? null,
      note: p.note ?? null,
      receivedAt: p.receivedAt,
      receivedById: p.actor?.id ?? null,
      receivedByName: p.actor?.username ?? null,
    })
    .returning({ id: payments.id });
  if (!row) throw new Error('payment insert did not answer');
  await tx.insert(paymentAllocations).values(
    p.allocations.map((a) => ({
      paymentId: row.id,
      kind: a.item.kind,
      enrollmentId: p.target.kind === 'enrollment' ? p.target.id : null,
      bookingId: p.target.kind === 'booking' ? p.target.id : null,
      enrollmentInstallmentId: a.item.kind === 'enrollment_installment' ? a.item.installmentId : null,
      bookingInstallmentId: a.item.kind === 'booking_installment' ? a.item.installmentId : null,
      installmentNumber: a.item.number,
      dueDate: a.item.dueDate,
      amount: a.amount,
    })),
  );
  for (const a of p.allocations) await applyToItem(tx, p.target, a.item, a.amount, p.receivedAt);
  await refreshTarget(tx, p.target, p.todayIso);
  return row.id;
}

const sameItem = (item: LedgerItem) =>
  item.kind === 'admission_fee'
    ? eq(paymentAllocations.kind, 'admission_fee')
    : item.kind === 'enrollment_installment'
      ? eq(paymentAllocations.enrollmentInstallmentId, item.installmentId ?? '')
      : eq(paymentAllocations.bookingInstallmentId, item.installmentId ?? '');

/**
 * Voids a payment already locked by the caller: its allocations stop counting on the items that
 * still exist, and the row stays, marked void with who, when and why.
 */
export async function voidLockedPayment(
  tx: Db,
  payment: typeof payments.$inferSelect,
  target: LedgerTarget | null,
  reason: string,
  actor: Pick<Actor, 'id' | 'username'> | null,
  todayIso: string,
): Promise<void> {
  if (target) {
    const items = await itemsOf(tx, target);
    const allocs = await tx.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, payment.id));
    for (const a of allocs) {
      const item = items.find((i) =>
        a.kind === 'admission_fee'
          ? i.kind === 'admission_fee'
          : i.installmentId === (a.enrollmentInstallmentId ?? a.bookingInstallmentId),
      );
      if (item) await applyToItem(tx, target, item, -a.amount, new Date());
    }
    await refreshTarget(tx, target, todayIso);
  }
  await tx
    .update(payments)
    .set({
      status: 'void',
      voidedAt: new Date(),
      voidedById: actor?.id ?? null,
      voidedByName: actor?.username ?? null,
      voidReason: reason,
    })
    .where(eq(payments.id, payment.id));
}

/**
 * The documented toggles (docs/payments.md#the-paidunpaid-switch): marking an item paid records a
 * payment of what is left of it; marking it unpaid voids the payments that paid it.
 */
export async function settleItem(
  tx: Db,
  target: LedgerTarget,
  item: LedgerItem,
  opts: { method?: PaymentMethod; actor: NewPayment['actor']; todayIso: string },
): Promise<void> {
  const left = outstandingOf(item);
  if (left <= 0) return;
  await writePayment(tx, {
    target,
    allocations: [{ item, amount: left }],
    method: opts.method ?? 'other',
    receivedAt: new Date(),
    actor: opts.actor,
    todayIso: opts.todayIso,
  });
}

export async function unsettleItem(
  tx: Db,
  target: LedgerTarget,
  item: LedgerItem,
  opts: { actor: NewPayment['actor']; todayIso: string },
): Promise<void> {
  if (item.amountPaid <= 0) return;
  const owner =
    target.kind === 'enrollment'
      ? eq(paymentAllocations.enrollmentId, target.id)
      : eq(paymentAllocations.bookingId, target.id);
  const paying = await tx
    .selectDistinct({ id: paymentAllocations.paymentId })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(and(owner, sameItem(item), eq(payments.status, 'valid')));
  if (paying.length === 0) return;
  const rows = await tx
    .select()
    .from(payments)
    .where(
      inArray(
        payments.id,
        paying.map((p) => p.id),
      ),
    )
    .for('update');
  for (const p of rows) {
    const parts = await tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(paymentAllocations)
      .where(and(eq(paymentAllocations.paymentId, p.id), sql`not (${sameItem(item)})`));
    if ((parts[0]?.n ?? 0) > 0) {
      throw new AppError(
        'CONFLICT',
        `This was paid with receipt ${p.receiptNumber} together with other items; void that receipt instead.`,
      );
    }
  }
  for (const p of rows) await voidLockedPayment(tx, p, target, 'marked unpaid', opts.actor, opts.todayIso);
}
