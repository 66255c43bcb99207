/**
 * Recording a payment (docs/payments.md): the payment row with its receipt number and its
 * allocations, and the money applied to the items they name.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { branches, paymentAllocations, payments } from '../../db/schema';
import type { Actor } from '../../auth/sessions';
import { AppError } from '../../errors';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import type { Allocation } from './allocation';
import { applyToItem, refreshTarget } from './ledger-items';
import type { LedgerTarget } from './ledger-targets';
import { nextReceiptNumber } from './receipt-numbers';
import { outstandingNow } from './receipt-balance';

export interface NewPayment {
  target: LedgerTarget;
  allocations: Allocation[];
  method: PaymentMethod;
  reference?: string;
  note?: string;
  receivedAt: Date;
  /** Who took the money; null for internal callers (demo data), shown as "not recorded". */
  actor: Pick<Actor, 'id' | 'username' | 'fullName' | 'branchId'> | null;
  /** YYYY-MM-DD of today in the organisation's time zone (the receipt's year; booking statuses). */
  todayIso: string;
}

/**
 * Writes one payment with its allocations and applies them. Returns its id and receipt number.
 * The items are updated first and the receipt number taken last, just before the rows that
 * carry it: the branch's receipt counter stays locked from there until the transaction ends, and
 * every other payment of the branch waits for it (docs/payments.md#receipt-numbers).
 */
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
  for (const a of p.allocations) await applyToItem(tx, p.target, a.item, a.amount, p.receivedAt);
  await refreshTarget(tx, p.target, p.todayIso);
  const balanceAfter = await outstandingNow(tx, p.target);
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
      payerFullName: p.target.payerFullName,
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
      receivedByFullName: p.actor?.fullName.trim() || null,
      balanceAfter,
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
  return { id: row.id, receiptNumber };
}
