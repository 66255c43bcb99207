/**
 * What a payment or a void does to the items it touches (docs/payments.md): the money on each
 * admission fee or installment with its paid flag and paid-at, then the enrolment's or booking's
 * own row. Callers hold the target's lock (ledger-targets.ts).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bookingInstallments, enrollmentInstallments, enrollments, treatmentBookings } from '../../db/schema';
import { computePaymentStatus } from '../../../shared/booking-status';
import { bookingInstallmentRows, type LedgerItem, type LedgerTarget } from './ledger-targets';

/**
 * Adds (or, negative, takes back) money on one item and keeps isPaid/paidAt in step: paid-at is
 * the moment of this change when the item becomes paid, stays what it was while it stays paid,
 * and is cleared when it is no longer paid.
 */
export async function applyToItem(tx: Db, target: LedgerTarget, item: LedgerItem, delta: number, when: Date) {
  const paid = item.amountPaid + delta;
  const isPaid = paid >= item.amount;
  const wasPaid = item.amountPaid >= item.amount;
  // Left out of the update while the item stays paid, so its first paid-at is kept.
  const paidAt = !isPaid ? null : wasPaid ? undefined : when;
  item.amountPaid = paid;
  if (item.kind === 'admission_fee') {
    await tx
      .update(enrollments)
      .set({ admissionFeeAmountPaid: paid, admissionFeePaid: isPaid, admissionFeePaidAt: paidAt })
      .where(eq(enrollments.id, target.id));
    target.admissionFeeAmountPaid = paid;
    return;
  }
  const table = item.kind === 'enrollment_installment' ? enrollmentInstallments : bookingInstallments;
  await tx
    .update(table)
    .set({ amountPaid: paid, isPaid, paidAt })
    .where(eq(table.id, item.installmentId ?? ''));
}

/**
 * After any change of the target's items: the enrolment's updatedAt, or the booking's stored
 * payment status (docs/treatments.md), which drizzle stamps with its updatedAt as it writes it.
 */
export async function refreshTarget(tx: Db, target: LedgerTarget, todayIso: string) {
  if (target.kind === 'enrollment') {
    await tx.update(enrollments).set({ updatedAt: new Date() }).where(eq(enrollments.id, target.id));
    return;
  }
  const insts = await bookingInstallmentRows(tx, target.id);
  await tx
    .update(treatmentBookings)
    .set({ paymentStatus: computePaymentStatus(insts, todayIso) })
    .where(eq(treatmentBookings.id, target.id));
}

/** One item of a target named as an allocation names it: the admission fee, or an installment's id. */
export interface ItemRef {
  kind: LedgerItem['kind'];
  installmentId: string | null;
}

/**
 * Changes what an item is owed by `delta` (negative: a discount, scholarship or write-off; positive:
 * revoking one) and keeps isPaid/paidAt in step, as applyToItem does for money
 * (docs/payments.md#adjustments). Reads the row as it is now, so adjustments stacked on one item
 * add up. Answers the amount before and after, or null when the item no longer exists.
 */
export async function changeItemAmount(
  tx: Db,
  target: LedgerTarget,
  ref: ItemRef,
  delta: number,
  when: Date,
): Promise<{ before: number; after: number } | null> {
  const settle = (amount: number, paid: number, wasPaid: boolean) => {
    const isPaid = paid >= amount;
    return { isPaid, paidAt: !isPaid ? null : wasPaid ? undefined : when };
  };
  if (ref.kind === 'admission_fee') {
    const [e] = await tx
      .select({
        fee: enrollments.admissionFee,
        paid: enrollments.admissionFeeAmountPaid,
        was: enrollments.admissionFeePaid,
      })
      .from(enrollments)
      .where(eq(enrollments.id, target.id))
      .limit(1);
    if (!e) return null;
    const after = e.fee + delta;
    const s = settle(after, e.paid, e.was);
    await tx
      .update(enrollments)
      .set({ admissionFee: after, admissionFeePaid: s.isPaid, admissionFeePaidAt: s.paidAt })
      .where(eq(enrollments.id, target.id));
    target.admissionFee = after;
    return { before: e.fee, after };
  }
  const table = ref.kind === 'enrollment_installment' ? enrollmentInstallments : bookingInstallments;
  const [row] = await tx
    .select({ amount: table.amount, paid: table.amountPaid, was: table.isPaid })
    .from(table)
    .where(eq(table.id, ref.installmentId ?? ''))
    .limit(1);
  if (!row) return null;
  const after = row.amount + delta;
  const s = settle(after, row.paid, row.was);
  await tx
    .update(table)
    .set({ amount: after, isPaid: s.isPaid, paidAt: s.paidAt })
    .where(eq(table.id, ref.installmentId ?? ''));
  return { before: row.amount, after };
}
