/**
 * How an amount is split over what a record owes (docs/payments.md): oldest first, or as the
 * cashier named it. Pure arithmetic: the caller holds the lock and writes the result.
 */
import { AppError } from '../../errors';
import { formatMoney } from '../../../shared/format';
import { fromMinor, toMinor } from '../../../shared/money';
import type { AllocationKind } from '../../../shared/payment-kinds';
import { outstandingOf, type LedgerItem, type LedgerTarget } from './ledger-targets';
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
