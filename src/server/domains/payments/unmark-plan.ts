/**
 * What Mark as Unpaid would void (docs/payments.md#the-paidunpaid-switch): the valid payments that
 * paid the item, and the first of them that also settles something else. The toggle voids the
 * former and refuses on the latter; the confirmation dialog shows the same answer beforehand.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { paymentAllocations, payments } from '../../db/schema';
import type { AllocationKind } from '../../../shared/payment-kinds';

export interface UnmarkItem {
  kind: AllocationKind;
  installmentId: string | null;
}

export const settledTogether = (receiptNumber: string) =>
  `This was paid with receipt ${receiptNumber} together with other items; void that receipt instead.`;

export interface UnmarkPlan {
  /** The payments the switch voids, oldest first. */
  voids: Array<typeof payments.$inferSelect>;
  /** A payment that also settles another item: the switch refuses, naming its receipt. */
  blockedBy: typeof payments.$inferSelect | null;
}

/** Reads the plan; `lock` takes the payments' row locks (inside the toggle's transaction). */
export async function unmarkPlan(
  tx: Db,
  ref: { kind: 'enrollment' | 'booking'; id: string },
  item: UnmarkItem,
  lock = false,
): Promise<UnmarkPlan> {
  // Written with explicit aliases: the subqueries name both the payment and its allocations.
  const owner =
    ref.kind === 'enrollment' ? sql`a.enrollment_id = ${ref.id}::uuid` : sql`a.booking_id = ${ref.id}::uuid`;
  const query = tx
    .select({
      p: payments,
      others: sql<boolean>`exists (select 1 from ${paymentAllocations} o where o.payment_id = "payments"."id" and not (${sameItemOn('o', item)}))`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'valid'),
        sql`exists (select 1 from ${paymentAllocations} a where a.payment_id = "payments"."id" and ${owner} and ${sameItemOn('a', item)})`,
      ),
    )
    .orderBy(asc(payments.receivedAt), asc(payments.id));
  const rows = lock ? await query.for('update', { of: payments }) : await query;
  const blocked = rows.find((r) => r.others);
  return { voids: rows.map((r) => r.p), blockedBy: blocked?.p ?? null };
}

/**
 * The allocations (under `alias`) to this one item; false rather than null where the column is
 * empty, so `not (...)` counts an admission-fee allocation as another item of an installment's payment.
 */
function sameItemOn(alias: string, item: UnmarkItem) {
  const a = sql.raw(alias);
  const id = item.installmentId ?? '';
  return item.kind === 'admission_fee'
    ? sql`coalesce(${a}.kind = 'admission_fee', false)`
    : item.kind === 'enrollment_installment'
      ? sql`coalesce(${a}.enrollment_installment_id = ${id}::uuid, false)`
      : sql`coalesce(${a}.booking_installment_id = ${id}::uuid, false)`;
}
