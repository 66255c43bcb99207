/**
 * Writing the ledger inside one transaction (docs/payments.md): receipt numbers, applying and
 * reversing allocations, voids and the documented paid/unpaid toggles. Callers (the payments
 * service and the enrolment and booking toggles) lock the enrolment or booking first
 * (ledger-targets.ts) and split amounts with allocation.ts.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  bookingInstallments,
  branches,
  enrollmentInstallments,
  enrollments,
  paymentAllocations,
  payments,
  treatmentBookings,
} from '../../db/schema';
import type { Actor } from '../../auth/sessions';
import { AppError } from '../../errors';
import { computePaymentStatus } from '../../../shared/booking-status';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import { itemsOf, outstandingOf, type LedgerItem, type LedgerTarget } from './ledger-targets';
import type { Allocation } from './allocation';
import { nextReceiptNumber } from './receipt-numbers';

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

/** Writes one payment with its allocations and applies them. Returns its id and receipt number. */
export async function writePayment(tx: Db, p: NewPayment): Promise<{ id: string; receiptNumber: string }> {
  const amount = p.allocations.reduce((s, a) => s + a.amount, 0);
  if (amount <= 0 || p.allocations.some((a) => a.amount <= 0))
    throw new AppError('BAD_REQUEST', 'A payment must be for more than nothing.');
  const branchId = p.target.payerBranchId ?? p.actor?.branchId ?? null;
  const [branch] = branchId
    ? await tx.select({ name: branches.name }).from(branches).where(eq(branches.id, branchId)).limit(1)
    : [];
  const series = branch ? (branchId ?? 'none') : 'none';
  const year = Number(p.todayIso.slice(0, 4));
  const { seq, receiptNumber } = await nextReceiptNumber(tx, series, branch?.name, year);
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
  return { id: row.id, receiptNumber };
}

const sameItem = (item: LedgerItem) =>
  item.kind === 'admission_fee'
    ? eq(paymentAllocations.kind, 'admission_fee')
    : item.kind === 'enrollment_installment'
      ? eq(paymentAllocations.enrollmentInstallmentId, item.installmentId ?? '')
      : eq(paymentAllocations.bookingInstallmentId, item.installmentId ?? '');

/**
 * Voids a payment already locked by the caller: its allocations stop counting on the items that
 * still exist, and the row stays, marked void with who, when and why. Answers the target's items
 * as the void left them (none without a target).
 */
export async function voidLockedPayment(
  tx: Db,
  payment: typeof payments.$inferSelect,
  target: LedgerTarget | null,
  reason: string,
  actor: Pick<Actor, 'id' | 'username'> | null,
  todayIso: string,
): Promise<LedgerItem[]> {
  let items: LedgerItem[] = [];
  if (target) {
    items = await itemsOf(tx, target);
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
  return items;
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
): Promise<string[]> {
  const left = outstandingOf(item);
  if (left <= 0) return [];
  const { receiptNumber } = await writePayment(tx, {
    target,
    allocations: [{ item, amount: left }],
    method: opts.method ?? 'other',
    receivedAt: new Date(),
    actor: opts.actor,
    todayIso: opts.todayIso,
  });
  return [receiptNumber];
}

/**
 * Voids the payments that paid the item; answers their receipt numbers. The caller's `item` is
 * left holding what is still paid on it, as `settleItem` leaves it holding the new amount.
 */
export async function unsettleItem(
  tx: Db,
  target: LedgerTarget,
  item: LedgerItem,
  opts: { actor: NewPayment['actor']; todayIso: string },
): Promise<string[]> {
  if (item.amountPaid <= 0) return [];
  const owner =
    target.kind === 'enrollment'
      ? eq(paymentAllocations.enrollmentId, target.id)
      : eq(paymentAllocations.bookingId, target.id);
  const paying = await tx
    .selectDistinct({ id: paymentAllocations.paymentId })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(and(owner, sameItem(item), eq(payments.status, 'valid')));
  if (paying.length === 0) return [];
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
  for (const p of rows) {
    const after = await voidLockedPayment(tx, p, target, 'marked unpaid', opts.actor, opts.todayIso);
    const now = after.find((i) => i.kind === item.kind && i.installmentId === item.installmentId);
    if (now) item.amountPaid = now.amountPaid;
  }
  return rows.map((p) => p.receiptNumber);
}

/**
 * One switch for both toggles: paid settles what is left of the item, unpaid voids what paid it.
 * Answers the receipt numbers written or voided (for the audit entry of the toggle).
 */
export async function setItemPaid(
  tx: Db,
  target: LedgerTarget,
  item: LedgerItem,
  isPaid: boolean,
  opts: { method?: PaymentMethod; actor: NewPayment['actor']; todayIso: string },
): Promise<string[]> {
  return isPaid ? settleItem(tx, target, item, opts) : unsettleItem(tx, target, item, opts);
}
