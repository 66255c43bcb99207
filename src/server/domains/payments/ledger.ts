/**
 * Writing the ledger inside one transaction (docs/payments.md): receipt numbers, applying and
 * reversing allocations, voids and the documented paid/unpaid toggles. Callers (the payments
 * service and the enrolment and booking toggles) lock the enrolment or booking first
 * (ledger-targets.ts) and split amounts with allocation.ts.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { placeholders, preparedOn, rowValues, slot } from '../../db/prepared';
import {
  bookingInstallments,
  branches,
  enrollmentInstallments,
  enrollments,
  paymentAllocations,
  payments,
  treatmentBookings,
} from '../../db/schema';
import type { Actor } from '../../auth/sessions';
import { AppError } from '../../errors';
import { computePaymentStatus } from '../../../shared/booking-status';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import { bookingInstallmentRows, itemsOf, outstandingOf, type LedgerItem, type LedgerTarget } from './ledger-targets';
import type { Allocation } from './allocation';
import { nextReceiptNumber } from './receipt-numbers';

const P = sql.placeholder;

/**
 * What an item's paid-at becomes: the moment of this change when it becomes paid, what it was when
 * it stays paid, nothing when it is not paid. Each is a statement of its own (no value of one call
 * is built into a statement, db/prepared.ts).
 */
type PaidAt = 'now' | 'kept' | 'none';

const setAdmissionFee = (tx: Db, paidAt: PaidAt) =>
  preparedOn(tx, `ledger.set_admission_fee ${paidAt}`, (d) =>
    d
      .update(enrollments)
      .set({
        admissionFeeAmountPaid: slot(enrollments.admissionFeeAmountPaid, 'paid'),
        admissionFeePaid: slot(enrollments.admissionFeePaid, 'isPaid'),
        admissionFeePaidAt:
          paidAt === 'now'
            ? slot(enrollments.admissionFeePaidAt, 'when')
            : paidAt === 'kept'
              ? sql`${enrollments.admissionFeePaidAt}`
              : null,
        updatedAt: slot(enrollments.updatedAt, 'updatedAt'),
      })
      .where(eq(enrollments.id, P('id')))
      .prepare('ledger_set_admission_fee'),
  );

const setInstallment = (tx: Db, kind: 'enrollment_installment' | 'booking_installment', paidAt: PaidAt) =>
  preparedOn(tx, `ledger.set_installment ${kind} ${paidAt}`, (d) => {
    const table = kind === 'enrollment_installment' ? enrollmentInstallments : bookingInstallments;
    return d
      .update(table)
      .set({
        amountPaid: slot(table.amountPaid, 'paid'),
        isPaid: slot(table.isPaid, 'isPaid'),
        paidAt: paidAt === 'now' ? slot(table.paidAt, 'when') : paidAt === 'kept' ? sql`${table.paidAt}` : null,
      })
      .where(eq(table.id, P('id')))
      .prepare('ledger_set_installment');
  });

/** Adds (or, negative, takes back) money on one item and keeps isPaid/paidAt in step. */
async function applyToItem(tx: Db, target: LedgerTarget, item: LedgerItem, delta: number, when: Date) {
  const paid = item.amountPaid + delta;
  const isPaid = paid >= item.amount;
  const paidAt: PaidAt = !isPaid ? 'none' : item.amountPaid < item.amount ? 'now' : 'kept';
  item.amountPaid = paid;
  if (item.kind === 'admission_fee') {
    await setAdmissionFee(tx, paidAt).execute({ paid, isPaid, when, updatedAt: new Date(), id: target.id });
    target.admissionFeeAmountPaid = paid;
    return;
  }
  await setInstallment(tx, item.kind, paidAt).execute({ paid, isPaid, when, id: item.installmentId ?? '' });
}

const touchEnrollment = (tx: Db) =>
  preparedOn(tx, 'ledger.touch_enrollment', (d) =>
    d
      .update(enrollments)
      .set({ updatedAt: slot(enrollments.updatedAt, 'updatedAt') })
      .where(eq(enrollments.id, P('id')))
      .prepare('ledger_touch_enrollment'),
  );

const setBookingStatus = (tx: Db) =>
  preparedOn(tx, 'ledger.set_booking_status', (d) =>
    d
      .update(treatmentBookings)
      .set({
        paymentStatus: slot(treatmentBookings.paymentStatus, 'status'),
        updatedAt: slot(treatmentBookings.updatedAt, 'updatedAt'),
      })
      .where(eq(treatmentBookings.id, P('id')))
      .prepare('ledger_set_booking_status'),
  );

/** After any change of a booking's installments: its stored payment status (docs/treatments.md). */
async function refreshTarget(tx: Db, target: LedgerTarget, todayIso: string) {
  if (target.kind === 'enrollment') {
    await touchEnrollment(tx).execute({ updatedAt: new Date(), id: target.id });
    return;
  }
  const insts = await bookingInstallmentRows(tx, target.id);
  await setBookingStatus(tx).execute({
    status: computePaymentStatus(insts, todayIso),
    updatedAt: new Date(),
    id: target.id,
  });
}

export interface NewPayment {
  target: LedgerTarget;
  allocations: Allocation[];
  method: PaymentMethod;
  reference?: string;
  note?: string;
  receivedAt: Date;
  /** Who took the money; null for internal callers (demo data), shown as "not recorded". */
  actor: Pick<Actor, 'id' | 'username' | 'branchId'> | null;
  /** YYYY-MM-DD of today in the organisation's time zone (the receipt's year; booking statuses). */
  todayIso: string;
}

const branchName = (tx: Db) =>
  preparedOn(tx, 'ledger.branch_name', (d) =>
    d
      .select({ name: branches.name })
      .from(branches)
      .where(eq(branches.id, P('id')))
      .limit(1)
      .prepare('ledger_branch_name'),
  );

const PAYMENT_FIELDS = [
  'receiptNumber',
  'receiptSeries',
  'receiptYear',
  'receiptSeq',
  'branchId',
  'branchName',
  'payerId',
  'payerName',
  'payerEmail',
  'enrollmentId',
  'bookingId',
  'subject',
  'amount',
  'currency',
  'method',
  'reference',
  'note',
  'receivedAt',
  'receivedById',
  'receivedByName',
] as const satisfies ReadonlyArray<keyof typeof payments.$inferInsert>;
type PaymentValues = Pick<typeof payments.$inferInsert, (typeof PAYMENT_FIELDS)[number]>;

const insertPayment = (tx: Db) =>
  preparedOn(tx, 'ledger.insert_payment', (d) =>
    d
      .insert(payments)
      .values(placeholders(PAYMENT_FIELDS))
      .returning({ id: payments.id })
      .prepare('ledger_insert_payment'),
  );

const ALLOCATION_FIELDS = [
  'paymentId',
  'kind',
  'enrollmentId',
  'bookingId',
  'enrollmentInstallmentId',
  'bookingInstallmentId',
  'installmentNumber',
  'dueDate',
  'amount',
] as const satisfies ReadonlyArray<keyof typeof paymentAllocations.$inferInsert>;
type AllocationValues = Pick<typeof paymentAllocations.$inferInsert, (typeof ALLOCATION_FIELDS)[number]>;

/** The allocations of a payment of `n` items: one statement per count. */
const insertAllocations = (tx: Db, n: number) =>
  preparedOn(tx, `ledger.insert_allocations ${n}`, (d) =>
    d
      .insert(paymentAllocations)
      .values(Array.from({ length: n }, (_, i) => placeholders(ALLOCATION_FIELDS, i)))
      .prepare('ledger_insert_allocations'),
  );

/**
 * Writes one payment with its allocations and applies them. Returns its id and receipt number.
 * The items are updated first and the receipt number taken last, just before the rows that
 * carry it: the branch's receipt counter stays locked from there until the transaction ends, and
 * every other payment of the branch waits for it (docs/payments.md#receipt-numbers).
 */
export async function writePayment(tx: Db, p: NewPayment): Promise<{ id: string; receiptNumber: string }> {
  const amount = p.allocations.reduce((s, a) => s + a.amount, 0);
  if (amount <= 0 || p.allocations.some((a) => a.amount <= 0))
    throw new AppError('BAD_REQUEST', 'A payment must be for more than nothing.');
  const branchId = p.target.payerBranchId ?? p.actor?.branchId ?? null;
  const [branch] = branchId ? await branchName(tx).execute({ id: branchId }) : [];
  const series = branch ? (branchId ?? 'none') : 'none';
  const year = Number(p.todayIso.slice(0, 4));
  for (const a of p.allocations) await applyToItem(tx, p.target, a.item, a.amount, p.receivedAt);
  await refreshTarget(tx, p.target, p.todayIso);
  const { seq, receiptNumber } = await nextReceiptNumber(tx, series, branch?.name, year);
  const values: PaymentValues = {
    receiptNumber,
    receiptSeries: series,
    receiptYear: year,
    receiptSeq: seq,
    branchId: branch ? branchId : null,
    branchName: branch?.name ?? null,
    payerId: p.target.payerId,
    payerName: p.target.payerName,
    payerEmail: p.target.payerEmail,
    enrollmentId: p.target.kind === 'enrollment' ? p.target.id : null,
    bookingId: p.target.kind === 'booking' ? p.target.id : null,
    subject: p.target.subject,
    amount,
    currency: p.target.currency,
    method: p.method,
    reference: p.reference ?? null,
    note: p.note ?? null,
    receivedAt: p.receivedAt,
    receivedById: p.actor?.id ?? null,
    receivedByName: p.actor?.username ?? null,
  };
  const [row] = await insertPayment(tx).execute(values);
  if (!row) throw new Error('payment insert did not answer');
  const allocations = p.allocations.map((a): AllocationValues => ({
    paymentId: row.id,
    kind: a.item.kind,
    enrollmentId: p.target.kind === 'enrollment' ? p.target.id : null,
    bookingId: p.target.kind === 'booking' ? p.target.id : null,
    enrollmentInstallmentId: a.item.kind === 'enrollment_installment' ? a.item.installmentId : null,
    bookingInstallmentId: a.item.kind === 'booking_installment' ? a.item.installmentId : null,
    installmentNumber: a.item.number,
    dueDate: a.item.dueDate,
    amount: a.amount,
  }));
  await insertAllocations(tx, allocations.length).execute(rowValues(allocations));
  return { id: row.id, receiptNumber };
}

/** The allocations of one item of kind `kind` (the installment's id is the placeholder `item`). */
const sameItem = (kind: LedgerItem['kind']) =>
  kind === 'admission_fee'
    ? eq(paymentAllocations.kind, 'admission_fee')
    : kind === 'enrollment_installment'
      ? eq(paymentAllocations.enrollmentInstallmentId, P('item'))
      : eq(paymentAllocations.bookingInstallmentId, P('item'));

/** The valid payments of the target (placeholder `target`) with an allocation to the item. */
const payingPayments = (tx: Db, targetKind: LedgerTarget['kind'], kind: LedgerItem['kind']) =>
  preparedOn(tx, `ledger.paying ${targetKind} ${kind}`, (d) =>
    d
      .selectDistinct({ id: paymentAllocations.paymentId })
      .from(paymentAllocations)
      .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
      .where(
        and(
          targetKind === 'enrollment'
            ? eq(paymentAllocations.enrollmentId, P('target'))
            : eq(paymentAllocations.bookingId, P('target')),
          sameItem(kind),
          eq(payments.status, 'valid'),
        ),
      )
      .prepare('ledger_paying'),
  );

/** Locks `n` payments by id (placeholders `0` … `n-1`). */
const lockPayments = (tx: Db, n: number) =>
  preparedOn(tx, `ledger.lock_payments ${n}`, (d) =>
    d
      .select()
      .from(payments)
      .where(
        inArray(
          payments.id,
          Array.from({ length: n }, (_, i) => P(String(i))),
        ),
      )
      .for('update')
      .prepare('ledger_lock_payments'),
  );

/** How many allocations of the payment (placeholder `payment`) are for other items than this one. */
const otherAllocations = (tx: Db, kind: LedgerItem['kind']) =>
  preparedOn(tx, `ledger.other_allocations ${kind}`, (d) =>
    d
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(paymentAllocations)
      .where(and(eq(paymentAllocations.paymentId, P('payment')), sql`not (${sameItem(kind)})`))
      .prepare('ledger_other_allocations'),
  );

const allocationsOf = (tx: Db) =>
  preparedOn(tx, 'ledger.allocations_of', (d) =>
    d
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentId, P('payment')))
      .prepare('ledger_allocations_of'),
  );

const markVoid = (tx: Db) =>
  preparedOn(tx, 'ledger.mark_void', (d) =>
    d
      .update(payments)
      .set({
        status: 'void',
        voidedAt: slot(payments.voidedAt, 'voidedAt'),
        voidedById: slot(payments.voidedById, 'voidedById'),
        voidedByName: slot(payments.voidedByName, 'voidedByName'),
        voidReason: slot(payments.voidReason, 'voidReason'),
      })
      .where(eq(payments.id, P('id')))
      .prepare('ledger_mark_void'),
  );

/**
 * Voids a payment already locked by the caller: its allocations stop counting on the items that
 * still exist, and the row stays, marked void with who, when and why. Answers the target's items
 * as the void left them (none without a target).
 */
export async function voidLockedPayment(
  tx: Db,
  payment: typeof payments.$inferSelect,
  target: LedgerTarget | null,
  reason: string,
  actor: Pick<Actor, 'id' | 'username'> | null,
  todayIso: string,
): Promise<LedgerItem[]> {
  let items: LedgerItem[] = [];
  if (target) {
    items = await itemsOf(tx, target);
    const allocs = await allocationsOf(tx).execute({ payment: payment.id });
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
  await markVoid(tx).execute({
    voidedAt: new Date(),
    voidedById: actor?.id ?? null,
    voidedByName: actor?.username ?? null,
    voidReason: reason,
    id: payment.id,
  });
  return items;
}

/**
 * The documented toggles (docs/payments.md#the-paidunpaid-switch): marking an item paid records a
 * payment of what is left of it; marking it unpaid voids the payments that paid it.
 */
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
 * left holding what is still paid on it, as `settleItem` leaves it holding the new amount.
 */
export async function unsettleItem(
  tx: Db,
  target: LedgerTarget,
  item: LedgerItem,
  opts: { actor: NewPayment['actor']; todayIso: string },
): Promise<string[]> {
  if (item.amountPaid <= 0) return [];
  const ids = { target: target.id, item: item.installmentId ?? '' };
  const paying = await payingPayments(tx, target.kind, item.kind).execute(ids);
  if (paying.length === 0) return [];
  const rows = await lockPayments(tx, paying.length).execute({ ...paying.map((p) => p.id) });
  for (const p of rows) {
    const [parts] = await otherAllocations(tx, item.kind).execute({ payment: p.id, item: ids.item });
    if ((parts?.n ?? 0) > 0) {
      throw new AppError(
        'CONFLICT',
        `This was paid with receipt ${p.receiptNumber} together with other items; void that receipt instead.`,
      );
    }
  }
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
