import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { branches } from './branches';
import { createdAt, id, instant, keptRef, money, nonNullIndex, trigramIndex } from './common';
import { enrollmentInstallments, enrollments } from './courses';
import { bookingInstallments, treatmentBookings } from './treatments';
import { users } from './users';
import { ALLOCATION_KINDS, PAYMENT_METHODS } from '../../../shared/payment-kinds';

/**
 * The ledger (docs/payments.md). A payment is never deleted or changed but to void it; every
 * reference to what it paid is `set null` when that goes, and the names are kept on the row, so a
 * receipt stays readable after its student, course, enrolment or booking is deleted.
 */
/** What the Payments screen's search reads: receipt number, payer, e-mail, reference and subject. */
export function paymentSearchText(t: {
  receiptNumber: AnyPgColumn;
  payerName: AnyPgColumn;
  payerEmail: AnyPgColumn;
  reference: AnyPgColumn;
  subject: AnyPgColumn;
}) {
  return sql`(${t.receiptNumber} || ' ' || ${t.payerName} || ' ' || coalesce(${t.payerEmail}, '') || ' ' || coalesce(${t.reference}, '') || ' ' || ${t.subject})`;
}

export const payments = pgTable(
  'payments',
  {
    id: id(),
    /** e.g. GAL-2026-000042: branch code, year issued, number within both (gapless). */
    receiptNumber: text('receipt_number').notNull(),
    /** The counter the number came from: the branch id, or `none` for people without a branch. */
    receiptSeries: text('receipt_series').notNull(),
    receiptYear: integer('receipt_year').notNull(),
    receiptSeq: integer('receipt_seq').notNull(),
    branchId: keptRef('branch_id', () => branches.id),
    branchName: text('branch_name'),
    payerId: keptRef('payer_id', () => users.id),
    payerName: text('payer_name').notNull(),
    /** The payer's full name when paid: the receipt prints it (null when it was never known). */
    payerFullName: text('payer_full_name'),
    payerEmail: text('payer_email'),
    enrollmentId: keptRef('enrollment_id', () => enrollments.id),
    bookingId: keptRef('booking_id', () => treatmentBookings.id),
    /** The course or treatment name, kept. */
    subject: text('subject').notNull(),
    amount: money('amount_minor').notNull(),
    currency: text('currency').notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    reference: text('reference'),
    note: text('note'),
    receivedAt: instant('received_at').notNull(),
    receivedById: keptRef('received_by', () => users.id),
    /** Null for payments carried over from the paid/unpaid switch: who took them is unknown. */
    receivedByName: text('received_by_name'),
    /** The cashier's full name when the payment was taken, printed on its receipt (null: not known). */
    receivedByFullName: text('received_by_full_name'),
    status: text('status', { enum: ['valid', 'void'] })
      .notNull()
      .default('valid'),
    voidedAt: instant('voided_at'),
    voidedById: keptRef('voided_by', () => users.id),
    voidedByName: text('voided_by_name'),
    voidReason: text('void_reason'),
    /** What was still owed on the enrolment or booking right after this payment: the receipt prints it. */
    balanceAfter: money('balance_after_minor'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_receipt_uq').on(t.receiptSeries, t.receiptYear, t.receiptSeq),
    index('payments_received_idx').on(t.receivedAt, t.id),
    index('payments_branch_received_idx').on(t.branchId, t.receivedAt),
    index('payments_cashier_received_idx').on(t.receivedById, t.receivedAt),
    // A user's payments (user details) and the ON DELETE SET NULL of a deleted payer both look payments up by payer.
    index('payments_payer_received_idx').on(t.payerId, t.receivedAt),
    nonNullIndex('payments_enrollment_idx', t.enrollmentId),
    nonNullIndex('payments_booking_idx', t.bookingId),
    index('payments_receipt_number_idx').on(t.receiptNumber),
    // The header search matches a receipt number from its start (LIKE 'GAL-2026-00%'), which only a
    // pattern-ops index serves whatever the database's collation (docs/architecture.md#search).
    index('payments_receipt_number_prefix_idx').on(t.receiptNumber.op('text_pattern_ops')),
    // The Payments screen's search looks in all these at once (paymentSearchText): one trigram
    // index over them costs a write far less than five.
    trigramIndex('payments_search_trgm_idx', paymentSearchText(t)),
  ],
);

/** Which fee or installment each part of a payment settles. */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    id: id(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ALLOCATION_KINDS }).notNull(),
    enrollmentId: keptRef('enrollment_id', () => enrollments.id),
    bookingId: keptRef('booking_id', () => treatmentBookings.id),
    enrollmentInstallmentId: keptRef('enrollment_installment_id', () => enrollmentInstallments.id),
    bookingInstallmentId: keptRef('booking_installment_id', () => bookingInstallments.id),
    /** Installment number (1-based) and due date as they were, for the receipt. Null for a fee. */
    installmentNumber: integer('installment_number'),
    dueDate: date('due_date', { mode: 'string' }),
    amount: money('amount_minor').notNull(),
  },
  (t) => [
    index('payment_allocations_payment_idx').on(t.paymentId),
    nonNullIndex('payment_allocations_enrollment_inst_idx', t.enrollmentInstallmentId),
    nonNullIndex('payment_allocations_booking_inst_idx', t.bookingInstallmentId),
    nonNullIndex('payment_allocations_enrollment_idx', t.enrollmentId),
  ],
);

/** Gapless receipt numbers: one row per series and year, incremented inside the paying transaction. */
export const receiptCounters = pgTable(
  'receipt_counters',
  {
    series: text('series').notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);

/**
 * The prefix of each receipt series (a branch, or "none"), fixed when its first receipt is
 * numbered: unique, so two branches whose names start alike never print the same number, and
 * stable, so renaming a branch does not change how its receipts read (docs/payments.md#receipt-numbers).
 */
export const receiptPrefixes = pgTable('receipt_prefixes', {
  series: text('series').primaryKey(),
  prefix: text('prefix').notNull().unique(),
});
