/**
 * Voiding a payment (docs/payments.md): the row stays, marked void with who, when and why, and
 * its allocations stop counting on the items that still exist.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentAllocations, payments } from '../../db/schema';
import type { Actor } from '../../auth/sessions';
import { AppError } from '../../errors';
import { formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { REFUND_MESSAGES } from '@shared/schemas/refunds';
import { refundedAmounts } from './payments.dto';
import { applyToItem, refreshTarget } from './ledger-items';
import { itemsOf, type LedgerItem, type LedgerTarget } from './ledger-targets';

/**
 * Voids a payment already locked by the caller. Answers the target's items as the void left them
 * (none without a target).
 */
export async function voidLockedPayment(
  tx: Db,
  payment: typeof payments.$inferSelect,
  target: LedgerTarget | null,
  reason: string,
  actor: Pick<Actor, 'id' | 'username'> | null,
  todayIso: string,
): Promise<LedgerItem[]> {
  // Money that was given back was really paid: a refunded payment is never voided (docs/payments.md#void).
  const refunded = (await refundedAmounts(tx, [payment.id])).get(payment.id) ?? 0;
  if (refunded > 0)
    throw new AppError('CONFLICT', REFUND_MESSAGES.cannotVoid(formatMoney(fromMinor(refunded), payment.currency)));
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
