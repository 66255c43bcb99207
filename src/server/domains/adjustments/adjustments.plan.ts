/**
 * How a discount, scholarship or write-off spreads over what is owed (docs/payments.md#adjustments).
 * Pure arithmetic in minor units: the caller holds the record's lock and writes the result.
 */
import { AppError } from '../../errors';
import { formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { ADJUSTMENT_MESSAGES } from '@shared/schemas/adjustments';
import { outstandingOf, type LedgerItem, type LedgerTarget } from '../payments/ledger-targets';

export interface PlanRequest {
  kind: 'discount' | 'scholarship' | 'write_off';
  /** A percentage in hundredths of a percent (12.5% is 1250); null for a fixed amount or a write-off. */
  percentHundredths: number | null;
  /** A fixed amount in minor units; null for a percentage or a write-off. */
  amount: number | null;
  /** `admission_fee`, an installment's id, or null for the whole fee. */
  itemId: string | null;
}

export interface PlannedItem {
  item: LedgerItem;
  before: number;
  after: number;
}

const what = (t: LedgerTarget, itemId: string | null, item?: LedgerItem) =>
  itemId === null
    ? `this ${t.kind}`
    : item?.kind === 'admission_fee'
      ? 'the admission fee'
      : `installment ${item?.number ?? '?'}`;

/** The items an adjustment covers, in the order it takes from them: the last-due installment first. */
export function coveredItems(target: LedgerTarget, items: LedgerItem[], itemId: string | null): LedgerItem[] {
  if (itemId === 'admission_fee') {
    if (target.kind === 'booking') throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.bookingNoFee);
    const fee = items.find((i) => i.kind === 'admission_fee');
    if (!fee) throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.noFee);
    return [fee];
  }
  if (itemId !== null) {
    const one = items.find((i) => i.kind !== 'admission_fee' && i.installmentId === itemId);
    if (!one) throw new AppError('NOT_FOUND', ADJUSTMENT_MESSAGES.itemNotFound);
    return [one];
  }
  // The whole fee is the installments: the admission fee only when it is named.
  return items
    .filter((i) => i.kind !== 'admission_fee')
    .sort((a, b) => (b.dueDate ?? '').localeCompare(a.dueDate ?? '') || (b.number ?? 0) - (a.number ?? 0));
}

/** p% of `owed`, rounded half up to the cent, in integer arithmetic (no float error at any size). */
export function percentOf(owed: number, percentHundredths: number): number {
  const n = BigInt(owed) * BigInt(percentHundredths);
  return Number((n * 2n + 10000n) / 20000n);
}

/**
 * The reduction of each covered item. The total is the fixed amount, the percentage of what is
 * still owed on the covered items, or (a write-off) all of it; it is taken from the items in
 * order, each at most down to what is already paid on it, so the parts add up to the total exactly.
 * Refuses (409) more than is owed, naming the largest amount allowed.
 */
export function planAdjustment(target: LedgerTarget, items: LedgerItem[], req: PlanRequest): PlannedItem[] {
  const covered = coveredItems(target, items, req.itemId);
  const owed = covered.reduce((s, i) => s + Math.max(0, outstandingOf(i)), 0);
  const on = what(target, req.itemId, covered[0]);
  if (owed === 0) throw new AppError('CONFLICT', `Nothing is owed on ${on}.`, { allowed: 0 });
  const total =
    req.kind === 'write_off'
      ? owed
      : req.percentHundredths !== null
        ? percentOf(owed, req.percentHundredths)
        : (req.amount ?? 0);
  if (total > owed) {
    throw new AppError(
      'CONFLICT',
      `At most ${formatMoney(fromMinor(owed), target.currency)} can be taken off ${on}: that is what is still owed on it.`,
      { allowed: fromMinor(owed) },
    );
  }
  if (total <= 0) throw new AppError('CONFLICT', `That percentage of what is owed on ${on} is less than a cent.`);
  const out: PlannedItem[] = [];
  let left = total;
  for (const item of covered) {
    if (left === 0) break;
    const part = Math.min(left, Math.max(0, outstandingOf(item)));
    if (part > 0) out.push({ item, before: item.amount, after: item.amount - part });
    left -= part;
  }
  return out;
}
