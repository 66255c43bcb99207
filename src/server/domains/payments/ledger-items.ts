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
