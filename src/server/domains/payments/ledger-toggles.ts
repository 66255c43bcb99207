/**
 * The documented toggles (docs/payments.md#the-paidunpaid-switch): marking an item paid records a
 * payment of what is left of it; marking it unpaid voids the payments that paid it.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentAllocations, payments } from '../../db/schema';
import { AppError } from '../../errors';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import { writePayment, type NewPayment } from './ledger-record';
import { outstandingOf, type LedgerItem, type LedgerTarget } from './ledger-targets';
import { voidLockedPayment } from './ledger-void';

/** Records a payment of what is left of the item; answers its receipt number (none when nothing is left). */
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

/** The allocations to this one item. */
function sameItem(item: LedgerItem) {
  const id = item.installmentId ?? '';
  return item.kind === 'admission_fee'
    ? eq(paymentAllocations.kind, 'admission_fee')
    : item.kind === 'enrollment_installment'
      ? eq(paymentAllocations.enrollmentInstallmentId, id)
      : eq(paymentAllocations.bookingInstallmentId, id);
}

/**
 * Voids the payments that paid the item; answers their receipt numbers. The caller's `item` is
 * left holding what is still paid on it, as `settleItem` leaves it holding the new amount. A
 * payment that also paid other items is refused: voiding it would take back more than this item.
 */
export async function unsettleItem(
  tx: Db,
  target: LedgerTarget,
  item: LedgerItem,
  opts: { actor: NewPayment['actor']; todayIso: string },
): Promise<string[]> {
  if (item.amountPaid <= 0) return [];
  const paying = await tx
    .selectDistinct({ id: paymentAllocations.paymentId })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(
      and(
        target.kind === 'enrollment'
          ? eq(paymentAllocations.enrollmentId, target.id)
          : eq(paymentAllocations.bookingId, target.id),
        sameItem(item),
        eq(payments.status, 'valid'),
      ),
    );
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
    const [parts] = await tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(paymentAllocations)
      .where(and(eq(paymentAllocations.paymentId, p.id), sql`not (${sameItem(item)})`));
    if ((parts?.n ?? 0) > 0) {
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
