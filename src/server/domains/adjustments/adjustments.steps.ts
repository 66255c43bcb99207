/**
 * The steps every adjustment write shares: locking its record, checking it can still change, and
 * applying a plan to the items with the rows that record each before and after.
 */
import type { Db } from '../../db/client';
import { adjustmentItems, adjustments } from '../../db/schema';
import { AppError } from '../../errors';
import { fromMinor } from '../../../shared/money';
import type { ServiceContext } from '../context';
import { todayIn } from '../../../shared/calendar';
import { changeItemAmount, refreshTarget } from '../payments/ledger-items';
import { itemName } from '../payments/ledger-audit';
import {
  BOOKING_CANCELLED,
  BOOKING_NOT_FOUND,
  ENROLLMENT_COMPLETED,
  ENROLLMENT_NOT_FOUND,
  lockBookingTarget,
  lockEnrollmentTarget,
  type LedgerTarget,
} from '../payments/ledger-targets';
import { type PlannedItem, type PlanRequest } from './adjustments.plan';

export type AdjustmentRow = typeof adjustments.$inferSelect;
export type RecordRef = { kind: 'enrollment' | 'booking'; id: string };

export const refOf = (input: { enrollmentId?: string; bookingId?: string }): RecordRef =>
  input.enrollmentId ? { kind: 'enrollment', id: input.enrollmentId } : { kind: 'booking', id: input.bookingId ?? '' };
export const notFoundOf = (ref: RecordRef) => (ref.kind === 'enrollment' ? ENROLLMENT_NOT_FOUND : BOOKING_NOT_FOUND);
export const today = (ctx: Pick<ServiceContext, 'deps'>) => todayIn(ctx.deps.config.TIME_ZONE);

export const lockTarget = (tx: Db, ref: RecordRef) =>
  ref.kind === 'enrollment' ? lockEnrollmentTarget(tx, ref.id) : lockBookingTarget(tx, ref.id);

/** A completed enrolment or a cancelled booking is owed nothing more, so its amounts stay as they are. */
export function assertChangeable(target: LedgerTarget) {
  if (target.kind === 'enrollment' && target.status === 'completed')
    throw new AppError('CONFLICT', ENROLLMENT_COMPLETED);
  if (target.kind === 'booking' && target.status === 'cancelled') throw new AppError('CONFLICT', BOOKING_CANCELLED);
}

export const storedRequest = (a: AdjustmentRow): PlanRequest => ({
  kind: a.kind,
  percentHundredths: a.percent === null ? null : Math.round(a.percent * 100),
  amount: a.requestedAmount,
  itemId: a.itemId,
});

/** One item's row: what it was before and after (planned, or as the ledger actually changed it). */
function itemRow(adjustmentId: string, p: PlannedItem, before: number, after: number) {
  return {
    adjustmentId,
    kind: p.item.kind,
    enrollmentInstallmentId: p.item.kind === 'enrollment_installment' ? p.item.installmentId : null,
    bookingInstallmentId: p.item.kind === 'booking_installment' ? p.item.installmentId : null,
    installmentNumber: p.item.number,
    dueDate: p.item.dueDate,
    before,
    after,
  };
}

/** Changes the items as planned and answers the rows that record it. */
export async function applyPlan(
  tx: Db,
  target: LedgerTarget,
  adjustmentId: string,
  plan: PlannedItem[],
  when: Date,
  todayIso: string,
) {
  const rows: Array<typeof adjustmentItems.$inferInsert> = [];
  for (const p of plan) {
    const changed = await changeItemAmount(tx, target, p.item, p.after - p.before, when);
    if (!changed) continue;
    rows.push(itemRow(adjustmentId, p, changed.before, changed.after));
  }
  if (rows.length) await tx.insert(adjustmentItems).values(rows);
  await refreshTarget(tx, target, todayIso);
}

export const planRows = (adjustmentId: string, plan: PlannedItem[]): Array<typeof adjustmentItems.$inferInsert> =>
  plan.map((p) => itemRow(adjustmentId, p, p.before, p.after));

export const sumOf = (plan: PlannedItem[]) => plan.reduce((s, p) => s + (p.before - p.after), 0);
export const planLines = (plan: PlannedItem[]) =>
  plan.map((p) => `${itemName(p.item)}: ${fromMinor(p.before)} → ${fromMinor(p.after)}`);
