import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groupRows } from '../../db/rows';
import { adjustmentItems, type adjustments } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import { iso } from '../ids';
import type { TAdjustment } from '@shared/schemas/adjustments';

type AdjustmentRow = typeof adjustments.$inferSelect;
type ItemRow = typeof adjustmentItems.$inferSelect;

const kept = (id: string | null, name: string | null) => (name ? { _id: id, username: name } : null);

/** An adjustment as the API answers it, typed with its contract (docs/payments.md#adjustments). */
export function toAdjustmentDto(a: AdjustmentRow, items: ItemRow[]): TAdjustment {
  // Who approved: only an adjustment that was applied has an approver; a rejection's decider is not one.
  const approved = a.status === 'applied' || a.status === 'revoked';
  return {
    _id: a.id,
    kind: a.kind,
    status: a.status,
    enrollmentId: a.enrollmentId,
    bookingId: a.bookingId,
    currency: a.currency,
    percent: a.percent,
    amount: a.requestedAmount === null ? null : fromMinor(a.requestedAmount),
    total: fromMinor(a.total),
    scheme: a.schemeName ? { _id: a.schemeId, name: a.schemeName } : null,
    reason: a.reason,
    items: items.map((i) => ({
      itemId: i.kind === 'admission_fee' ? 'admission_fee' : (i.enrollmentInstallmentId ?? i.bookingInstallmentId),
      item: i.kind === 'admission_fee' ? 'admission_fee' : 'installment',
      installmentNumber: i.installmentNumber,
      dueDate: i.dueDate,
      before: fromMinor(i.before),
      after: fromMinor(i.after),
    })),
    createdBy: { _id: a.createdById, username: a.createdByName },
    createdAt: a.createdAt.toISOString(),
    approvedBy: approved ? kept(a.approvedById, a.approvedByName) : null,
    appliedAt: iso(a.appliedAt),
    decidedAt: iso(a.decidedAt),
    decisionNote: a.decisionNote,
    revokedBy: kept(a.revokedById, a.revokedByName),
    revokedAt: iso(a.revokedAt),
    revokeReason: a.revokeReason,
  };
}

/** The items of a list of adjustments in one query, in the order they were written. */
export async function withItems(db: Db, rows: AdjustmentRow[]): Promise<TAdjustment[]> {
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(adjustmentItems)
    .where(
      inArray(
        adjustmentItems.adjustmentId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(adjustmentItems.adjustmentId), asc(adjustmentItems.dueDate), asc(adjustmentItems.installmentNumber));
  const byAdjustment = groupRows(items, (i) => i.adjustmentId);
  return rows.map((r) => toAdjustmentDto(r, byAdjustment.get(r.id) ?? []));
}
