/**
 * The documented toggles (docs/payments.md#the-paidunpaid-switch): marking an item paid records a
 * payment of what is left of it; marking it unpaid voids the payments that paid it.
 */
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import { writePayment, type NewPayment } from './ledger-record';
import { outstandingOf, type LedgerItem, type LedgerTarget } from './ledger-targets';
import { voidLockedPayment } from './ledger-void';
import { settledTogether, unmarkPlan } from './unmark-plan';

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
  const { voids: rows, blockedBy } = await unmarkPlan(tx, target, item, true);
  if (blockedBy) throw new AppError('CONFLICT', settledTogether(blockedBy.receiptNumber));
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
