import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groupRows } from '../../db/rows';
import { payments, refundAllocations, type refunds } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import type { TRefund } from '@shared/schemas/refunds';

type RefundRow = typeof refunds.$inferSelect;
type AllocationRow = typeof refundAllocations.$inferSelect;

/** A refund as the API answers it, typed with its contract (docs/payments.md#refunds). */
export function toRefundDto(r: RefundRow, receiptNumber: string, allocations: AllocationRow[]): TRefund {
  return {
    _id: r.id,
    payment: { _id: r.paymentId, receiptNumber },
    creditNoteNumber: r.creditNoteNumber,
    amount: fromMinor(r.amount),
    currency: r.currency,
    method: r.method,
    reference: r.reference,
    reason: r.reason,
    refundedBy: { _id: r.refundedById, username: r.refundedByName },
    refundedAt: r.refundedAt.toISOString(),
    branch: r.branchName ? { _id: r.branchId, name: r.branchName } : null,
    payer: { _id: r.payerId, username: r.payerName, fullName: r.payerFullName, email: r.payerEmail },
    enrollmentId: r.enrollmentId,
    bookingId: r.bookingId,
    subject: r.subject,
    allocations: allocations.map((a) => ({
      kind: a.kind,
      installmentId: a.enrollmentInstallmentId ?? a.bookingInstallmentId ?? undefined,
      installmentNumber: a.installmentNumber,
      dueDate: a.dueDate,
      amount: fromMinor(a.amount),
    })),
  };
}

/** The receipt numbers and allocations of a page of refunds, in two queries. */
export async function refundDtos(db: Db, rows: RefundRow[]): Promise<TRefund[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [allocs, receipts] = await Promise.all([
    db
      .select()
      .from(refundAllocations)
      .where(inArray(refundAllocations.refundId, ids))
      .orderBy(
        asc(refundAllocations.refundId),
        sql`${refundAllocations.dueDate} asc nulls first`,
        asc(refundAllocations.installmentNumber),
      ),
    db
      .select({ id: payments.id, receiptNumber: payments.receiptNumber })
      .from(payments)
      .where(
        inArray(
          payments.id,
          rows.map((r) => r.paymentId),
        ),
      ),
  ]);
  const byRefund = groupRows(allocs, (a) => a.refundId);
  const receiptOf = new Map(receipts.map((p) => [p.id, p.receiptNumber]));
  return rows.map((r) => toRefundDto(r, receiptOf.get(r.paymentId) ?? '', byRefund.get(r.id) ?? []));
}
