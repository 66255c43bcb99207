/**
 * Refunds (docs/payments.md#refunds): money given back on a valid payment, in full or in part, by
 * an admin. A refund is an entry of its own with its credit note; the payment keeps its figures
 * and its status `valid`, and the items the refund takes back from are owed again.
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { paymentAllocations, refundAllocations, refunds, tillRefunds } from '../../db/schema';
import { AppError } from '../../errors';
import { formatMoney } from '../../../shared/format';
import { fromMinor, toMinor } from '../../../shared/money';
import { PAYMENT_METHOD_LABELS } from '../../../shared/payment-kinds';
import { isAdmin } from '../../../shared/roles';
import { todayIn } from '../../../shared/calendar';
import {
  REFUND_MESSAGES,
  type TListRefundsInput,
  type TRefund,
  type TRefundList,
  type TRefundPaymentInput,
} from '@shared/schemas/refunds';
import { recordAudit } from '../audit/audit.service';
import { branchCondition, branchScopeOf, findInBranchScope } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId, isUuid } from '../ids';
import { invalidateReads } from '../read-cache';
import { applyToItem, refreshTarget } from '../payments/ledger-items';
import { itemName, targetName } from '../payments/ledger-audit';
import { ENROLLMENT_COMPLETED, itemsOf } from '../payments/ledger-targets';
import { findPayment, lockPaymentAndRecord } from '../payments/payments.service';
import { tillAtPayment } from '../tills/tills.service';
import { nextCreditNoteNumber } from './credit-note-numbers';
import { refundDtos } from './refunds.dto';

type PaymentAllocationRow = typeof paymentAllocations.$inferSelect;

const money = (minor: number, currency: string) => formatMoney(fromMinor(minor), currency);

/** How much of each of a payment's allocations is already refunded, and of the payment in all. */
export async function refundedOf(tx: Db, paymentId: string) {
  const [parts, [total]] = await Promise.all([
    tx
      .select({
        allocationId: refundAllocations.paymentAllocationId,
        minor: sql<number>`sum(${refundAllocations.amount})`.mapWith(Number),
      })
      .from(refundAllocations)
      .innerJoin(refunds, eq(refunds.id, refundAllocations.refundId))
      .where(eq(refunds.paymentId, paymentId))
      .groupBy(refundAllocations.paymentAllocationId),
    tx
      .select({ minor: sql<number>`coalesce(sum(${refunds.amount}), 0)`.mapWith(Number) })
      .from(refunds)
      .where(eq(refunds.paymentId, paymentId)),
  ]);
  return { byAllocation: new Map(parts.map((p) => [p.allocationId, p.minor])), total: total?.minor ?? 0 };
}

interface RefundPart {
  allocation: PaymentAllocationRow;
  amount: number;
}

const allocationName = (a: PaymentAllocationRow) => itemName({ kind: a.kind, number: a.installmentNumber });

/**
 * Which allocations the refund takes back: the items the caller named, or the newest item first
 * (the last-due installment first, the admission fee last: the reverse of how a payment settles).
 */
function refundParts(
  allocs: PaymentAllocationRow[],
  refunded: Map<string, number>,
  amount: number,
  currency: string,
  named: TRefundPaymentInput['allocations'],
): RefundPart[] {
  const left = (a: PaymentAllocationRow) => a.amount - (refunded.get(a.id) ?? 0);
  if (!named) {
    const order = [...allocs].sort(
      (a, b) =>
        (b.dueDate ?? '').localeCompare(a.dueDate ?? '') || (b.installmentNumber ?? 0) - (a.installmentNumber ?? 0),
    );
    const out: RefundPart[] = [];
    let rest = amount;
    for (const allocation of order) {
      if (rest === 0) break;
      const part = Math.min(rest, left(allocation));
      if (part > 0) out.push({ allocation, amount: part });
      rest -= part;
    }
    return out;
  }
  const byAllocation = new Map<PaymentAllocationRow, number>();
  for (const n of named) {
    const allocation = allocs.find((a) =>
      n.kind === 'admission_fee'
        ? a.kind === 'admission_fee'
        : a.kind === n.kind && (a.enrollmentInstallmentId ?? a.bookingInstallmentId) === n.installmentId,
    );
    if (!allocation) throw new AppError('BAD_REQUEST', REFUND_MESSAGES.notPaid);
    byAllocation.set(allocation, (byAllocation.get(allocation) ?? 0) + toMinor(n.amount));
  }
  let sum = 0;
  for (const [allocation, part] of byAllocation) {
    if (part > left(allocation)) {
      throw new AppError(
        'CONFLICT',
        `Only ${money(left(allocation), currency)} of ${allocationName(allocation)} is left to refund on this payment.`,
        { refundable: fromMinor(left(allocation)) },
      );
    }
    sum += part;
  }
  if (sum !== amount) throw new AppError('BAD_REQUEST', REFUND_MESSAGES.sum);
  return [...byAllocation].map(([allocation, part]) => ({ allocation, amount: part }));
}

/**
 * POST /api/payments/{id}/refunds. Under the record's lock and the payment's row lock, so parallel
 * refunds of one payment queue and can never give back more than was paid.
 */
export async function refundPayment(ctx: ServiceContext, input: TRefundPaymentInput): Promise<TRefund> {
  if (!isAdmin(ctx.actor.role)) throw new AppError('FORBIDDEN', REFUND_MESSAGES.admins);
  const before = await findPayment(ctx, input.paymentId);
  const todayIso = todayIn(ctx.deps.config.TIME_ZONE);
  const id = await ctx.db.transaction(async (tx) => {
    const { target, p } = await lockPaymentAndRecord(tx, before);
    if (p.status === 'void') throw new AppError('CONFLICT', REFUND_MESSAGES.void);
    // A completed enrolment is fully paid and stays so; a cancelled booking may still give money back.
    if (target?.kind === 'enrollment' && target.status === 'completed')
      throw new AppError('CONFLICT', ENROLLMENT_COMPLETED);
    const refunded = await refundedOf(tx, p.id);
    const left = p.amount - refunded.total;
    const amount = toMinor(input.amount);
    if (left <= 0) throw new AppError('CONFLICT', REFUND_MESSAGES.full, { refundable: 0 });
    if (amount > left) {
      throw new AppError(
        'CONFLICT',
        `Only ${money(left, p.currency)} of receipt ${p.receiptNumber} is left to refund.`,
        {
          refundable: fromMinor(left),
        },
      );
    }
    const allocs = await tx.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, p.id));
    const parts = refundParts(allocs, refunded.byAllocation, amount, p.currency, input.allocations);
    const now = new Date();
    // The refund is money out of the branch today: the day lock, and a cash refund's till.
    const till = await tillAtPayment(tx, ctx, { branchId: p.branchId, method: input.method, receivedAt: now });
    if (target) {
      const items = await itemsOf(tx, target);
      for (const part of parts) {
        const a = part.allocation;
        const item = items.find((i) =>
          a.kind === 'admission_fee'
            ? i.kind === 'admission_fee'
            : i.installmentId === (a.enrollmentInstallmentId ?? a.bookingInstallmentId),
        );
        if (item) await applyToItem(tx, target, item, -part.amount, now);
      }
      await refreshTarget(tx, target, todayIso);
    }
    // The number last, just before the rows that carry it: its counter stays locked until commit.
    const year = Number(todayIso.slice(0, 4));
    const { seq, creditNoteNumber } = await nextCreditNoteNumber(tx, p.receiptSeries, p.branchName, year);
    const row = firstRow(
      await tx
        .insert(refunds)
        .values({
          paymentId: p.id,
          creditNoteNumber,
          series: p.receiptSeries,
          year,
          seq,
          branchId: p.branchId,
          branchName: p.branchName,
          payerId: p.payerId,
          payerName: p.payerName,
          payerFullName: p.payerFullName,
          payerEmail: p.payerEmail,
          enrollmentId: p.enrollmentId,
          bookingId: p.bookingId,
          subject: p.subject,
          amount,
          currency: p.currency,
          method: input.method,
          reference: input.reference ?? null,
          reason: input.reason,
          refundedAt: now,
          refundedById: ctx.actor.id,
          refundedByName: ctx.actor.username,
        })
        .returning({ id: refunds.id }),
    );
    await tx.insert(refundAllocations).values(
      parts.map((part) => ({
        refundId: row.id,
        paymentAllocationId: part.allocation.id,
        kind: part.allocation.kind,
        enrollmentId: part.allocation.enrollmentId,
        bookingId: part.allocation.bookingId,
        enrollmentInstallmentId: part.allocation.enrollmentInstallmentId,
        bookingInstallmentId: part.allocation.bookingInstallmentId,
        installmentNumber: part.allocation.installmentNumber,
        dueDate: part.allocation.dueDate,
        amount: part.amount,
      })),
    );
    if (till) await tx.insert(tillRefunds).values({ refundId: row.id, tillId: till });
    await recordAudit(tx, ctx, {
      action: 'refund',
      entityType: 'payment',
      entityId: p.id,
      parent: p.enrollmentId
        ? { type: 'enrollment', id: p.enrollmentId }
        : p.bookingId
          ? { type: 'booking', id: p.bookingId }
          : undefined,
      summary: `Refunded ${money(amount, p.currency)} (${PAYMENT_METHOD_LABELS[input.method]}) of receipt ${p.receiptNumber} with credit note ${creditNoteNumber}${target ? ` for ${targetName(target)}` : ''}: ${input.reason}`,
      changes: [
        { field: 'creditNoteNumber', before: null, after: creditNoteNumber },
        { field: 'refundedAmount', before: fromMinor(refunded.total), after: fromMinor(refunded.total + amount) },
        { field: 'method', before: null, after: input.method },
        ...(input.reference ? [{ field: 'reference', before: null, after: input.reference }] : []),
        { field: 'reason', before: null, after: input.reason },
        {
          field: 'allocations',
          before: null,
          after: parts.map((part) => `${allocationName(part.allocation)}: ${fromMinor(part.amount)}`),
        },
      ],
    });
    return row.id;
  });
  invalidateReads(ctx.deps);
  return getRefund(ctx, id);
}

/** A refund the caller may see (the branch scope follows its payment's branch). */
export async function findRefund(ctx: ServiceContext, id: string) {
  assertId(id, 'Refund');
  return findInBranchScope(ctx, refunds, id, REFUND_MESSAGES.notFound);
}

export async function getRefund(ctx: ServiceContext, id: string): Promise<TRefund> {
  const [dto] = await refundDtos(ctx.db, [await findRefund(ctx, id)]);
  if (!dto) throw new AppError('NOT_FOUND', REFUND_MESSAGES.notFound);
  return dto;
}

/** Start of a calendar day in the organisation's time zone, as an instant. */
const dayStart = (day: string, tz: string) => sql`(${day}::date)::timestamp at time zone ${tz}`;

/** The refunds of a period (days in TIME_ZONE), by branch and method; the cash-up reads the same. */
export function refundWhere(
  tz: string,
  f: {
    from?: string;
    to?: string;
    branchId?: string | null;
    method?: string;
    paymentId?: string;
    enrollmentId?: string;
    bookingId?: string;
  },
  scope: SQL | undefined,
) {
  return and(
    scope,
    f.from ? sql`${refunds.refundedAt} >= ${dayStart(f.from, tz)}` : undefined,
    f.to ? sql`${refunds.refundedAt} < ${dayStart(f.to, tz)} + interval '1 day'` : undefined,
    f.branchId ? (isUuid(f.branchId) ? eq(refunds.branchId, f.branchId) : sql`false`) : undefined,
    f.method ? sql`${refunds.method} = ${f.method}` : undefined,
    f.paymentId ? (isUuid(f.paymentId) ? eq(refunds.paymentId, f.paymentId) : sql`false`) : undefined,
    f.enrollmentId ? (isUuid(f.enrollmentId) ? eq(refunds.enrollmentId, f.enrollmentId) : sql`false`) : undefined,
    f.bookingId ? (isUuid(f.bookingId) ? eq(refunds.bookingId, f.bookingId) : sql`false`) : undefined,
  );
}

/** GET /api/refunds and the Payments screen's Refunds tab: newest first, with totals per currency. */
export async function listRefunds(ctx: ServiceContext, input: TListRefundsInput): Promise<TRefundList> {
  const where = refundWhere(
    ctx.deps.config.TIME_ZONE,
    input,
    branchCondition(await branchScopeOf(ctx), refunds.branchId),
  );
  const [rows, totals] = await Promise.all([
    ctx.db
      .select()
      .from(refunds)
      .where(where)
      .orderBy(desc(refunds.refundedAt), desc(refunds.id))
      .limit(input.limit)
      .offset((input.page - 1) * input.limit),
    ctx.db
      .select({
        currency: refunds.currency,
        minor: sql<number>`sum(${refunds.amount})`.mapWith(Number),
        n: sql<number>`count(*)`.mapWith(Number),
      })
      .from(refunds)
      .where(where)
      .groupBy(refunds.currency)
      .orderBy(refunds.currency),
  ]);
  return {
    data: await refundDtos(ctx.db, rows),
    total: totals.reduce((s, t) => s + t.n, 0),
    page: input.page,
    totals: totals.map((t) => ({ currency: t.currency, amount: fromMinor(t.minor), count: t.n })),
  };
}
