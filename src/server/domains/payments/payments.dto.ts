import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groupRows } from '../../db/rows';
import { paymentAllocations, refunds, users, type payments } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import { iso } from '../ids';
import type { TPayment } from '@shared/schemas/payments.output';

type PaymentRow = typeof payments.$inferSelect;
type AllocationRow = typeof paymentAllocations.$inferSelect;

function toAllocationDto(a: AllocationRow): TPayment['allocations'][number] {
  return {
    kind: a.kind,
    installmentId: a.enrollmentInstallmentId ?? a.bookingInstallmentId ?? undefined,
    enrollmentId: a.enrollmentId ?? undefined,
    bookingId: a.bookingId ?? undefined,
    installmentNumber: a.installmentNumber,
    dueDate: a.dueDate,
    amount: fromMinor(a.amount),
  };
}

/**
 * A payment as the API answers it (docs/payments.md#rest-paths). Typed with its output contract,
 * so a field that one has and the other lacks fails the build instead of leaving the answer.
 */
export function toPaymentDto(
  p: PaymentRow,
  allocations: AllocationRow[],
  refundedMinor = 0,
  payerFullName: string | null = null,
): TPayment {
  return {
    _id: p.id,
    receiptNumber: p.receiptNumber,
    amount: fromMinor(p.amount),
    currency: p.currency,
    method: p.method,
    reference: p.reference,
    note: p.note,
    receivedAt: p.receivedAt.toISOString(),
    receivedBy: p.receivedByName
      ? { _id: p.receivedById, username: p.receivedByName, fullName: p.receivedByFullName }
      : null,
    status: p.status,
    voidedAt: iso(p.voidedAt),
    voidedBy: p.voidedByName ? { _id: p.voidedById, username: p.voidedByName } : null,
    voidReason: p.voidReason,
    branch: p.branchName ? { _id: p.branchId, name: p.branchName } : null,
    payer: { _id: p.payerId, username: p.payerName, email: p.payerEmail, fullName: payerFullName },
    enrollmentId: p.enrollmentId,
    bookingId: p.bookingId,
    subject: p.subject,
    allocations: allocations.map(toAllocationDto),
    createdAt: p.createdAt.toISOString(),
    refundedAmount: fromMinor(refundedMinor),
  };
}

/** The refunded sums of a list of payments, in one query (the payments' `refundedAmount`). */
export async function refundedAmounts(db: Db, paymentIds: string[]): Promise<Map<string, number>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db
    .select({ paymentId: refunds.paymentId, minor: sql<number>`sum(${refunds.amount})`.mapWith(Number) })
    .from(refunds)
    .where(inArray(refunds.paymentId, paymentIds))
    .groupBy(refunds.paymentId);
  return new Map(rows.map((r) => [r.paymentId, r.minor]));
}
export type PaymentDto = TPayment;

/** The allocations of a page of payments in one query. */
export async function withAllocations(db: Db, rows: PaymentRow[]): Promise<PaymentDto[]> {
  if (rows.length === 0) return [];
  const refunded = refundedAmounts(
    db,
    rows.map((r) => r.id),
  );
  const allocs = await db
    .select()
    .from(paymentAllocations)
    .where(
      inArray(
        paymentAllocations.paymentId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(
      asc(paymentAllocations.paymentId),
      // The admission fee (no due date) comes first, as the ledger allocates it first.
      sql`${paymentAllocations.dueDate} asc nulls first`,
      asc(paymentAllocations.installmentNumber),
    );
  const byPayment = groupRows(allocs, (a) => a.paymentId);
  const refundedOf = await refunded;
  const names = await currentFullNames(db, rows);
  return rows.map((r) =>
    toPaymentDto(
      r,
      byPayment.get(r.id) ?? [],
      refundedOf.get(r.id) ?? 0,
      r.payerFullName || (names.get(r.payerId ?? '') ?? null),
    ),
  );
}

/**
 * The payer's name is the one the payment was taken under (`payer_full_name`), as the receipt
 * prints it, so the list and a reprint agree after a rename (docs/payments.md#receipts). Only a
 * payment that kept no name reads the account's name now, in one query (null once it is gone).
 */
async function currentFullNames(db: Db, rows: PaymentRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.filter((r) => !r.payerFullName && r.payerId).map((r) => r.payerId!))];
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: users.id, fullName: users.fullName }).from(users).where(inArray(users.id, ids));
  return new Map(found.map((u) => [u.id, u.fullName]));
}
