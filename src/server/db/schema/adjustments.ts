import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { branches } from './branches';
import { createdAt, id, instant, keptRef, money, nonNullIndex, updatedAt } from './common';
import { enrollmentInstallments, enrollments } from './courses';
import { payments, paymentAllocations } from './payments';
import { tills } from './tills';
import { bookingInstallments, treatmentBookings } from './treatments';
import { users } from './users';
import { ALLOCATION_KINDS, PAYMENT_METHODS } from '../../../shared/payment-kinds';
import { ADJUSTMENT_KINDS, ADJUSTMENT_STATUSES } from '../../../shared/adjustment-kinds';

/**
 * Money that changes after the fact (docs/payments.md#adjustments, #refunds): each is an entry of
 * its own with who, when and why, never an edit of a past entry's figures. The installment rows'
 * amounts and amounts paid are kept up to date in the same transaction, so every reader of what
 * is owed stays right; these tables keep the history. Names are kept on the rows, as on payments.
 */

/** Settings → Scholarships: a named scheme with its usual percentage. */
export const scholarshipSchemes = pgTable(
  'scholarship_schemes',
  {
    id: id(),
    name: text('name').notNull(),
    defaultPercent: numeric('default_percent', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('scholarship_schemes_name_uq').on(sql`lower(${t.name})`)],
);

/** A discount, scholarship or write-off on an enrolment or booking. */
export const adjustments = pgTable(
  'adjustments',
  {
    id: id(),
    kind: text('kind', { enum: ADJUSTMENT_KINDS }).notNull(),
    status: text('status', { enum: ADJUSTMENT_STATUSES }).notNull(),
    enrollmentId: keptRef('enrollment_id', () => enrollments.id),
    bookingId: keptRef('booking_id', () => treatmentBookings.id),
    /** The payer's branch when it was asked for: the branch scope and the reports read it. */
    branchId: keptRef('branch_id', () => branches.id),
    payerId: keptRef('payer_id', () => users.id),
    payerName: text('payer_name').notNull(),
    subject: text('subject').notNull(),
    currency: text('currency').notNull(),
    /** What was asked: a percentage, a fixed amount, or neither (a write-off of what remains). */
    percent: numeric('percent', { precision: 5, scale: 2, mode: 'number' }),
    requestedAmount: money('requested_amount_minor'),
    /** One item (`admission_fee` or an installment id), or null for the whole fee. */
    itemId: text('item_id'),
    schemeId: keptRef('scheme_id', () => scholarshipSchemes.id),
    schemeName: text('scheme_name'),
    reason: text('reason').notNull(),
    /** The sum of the items' reductions (planned while pending). */
    total: money('total_minor').notNull(),
    createdById: keptRef('created_by', () => users.id),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    approvedById: keptRef('approved_by', () => users.id),
    approvedByName: text('approved_by_name'),
    /** When the amounts changed: at once for an admin, at approval for a request. */
    appliedAt: instant('applied_at'),
    decidedAt: instant('decided_at'),
    decisionNote: text('decision_note'),
    revokedAt: instant('revoked_at'),
    revokedById: keptRef('revoked_by', () => users.id),
    revokedByName: text('revoked_by_name'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [
    nonNullIndex('adjustments_enrollment_idx', t.enrollmentId),
    nonNullIndex('adjustments_booking_idx', t.bookingId),
    index('adjustments_created_idx').on(t.createdAt, t.id),
  ],
);

/** What one adjustment did to one item: its amount before and after. */
export const adjustmentItems = pgTable(
  'adjustment_items',
  {
    id: id(),
    adjustmentId: uuid('adjustment_id')
      .notNull()
      .references(() => adjustments.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ALLOCATION_KINDS }).notNull(),
    enrollmentInstallmentId: keptRef('enrollment_installment_id', () => enrollmentInstallments.id),
    bookingInstallmentId: keptRef('booking_installment_id', () => bookingInstallments.id),
    installmentNumber: integer('installment_number'),
    dueDate: date('due_date', { mode: 'string' }),
    before: money('before_minor').notNull(),
    after: money('after_minor').notNull(),
  },
  (t) => [
    index('adjustment_items_adjustment_idx').on(t.adjustmentId),
    nonNullIndex('adjustment_items_enrollment_inst_idx', t.enrollmentInstallmentId),
    nonNullIndex('adjustment_items_booking_inst_idx', t.bookingInstallmentId),
  ],
);

/** Money given back on a valid payment, with its credit note. */
export const refunds = pgTable(
  'refunds',
  {
    id: id(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    /** e.g. CN-COL-2026-000001: the receipt prefix of the payment's series, the year, a gapless number. */
    creditNoteNumber: text('credit_note_number').notNull(),
    series: text('series').notNull(),
    year: integer('year').notNull(),
    seq: integer('seq').notNull(),
    branchId: keptRef('branch_id', () => branches.id),
    branchName: text('branch_name'),
    payerId: keptRef('payer_id', () => users.id),
    payerName: text('payer_name').notNull(),
    /** The payer's full name as the payment recorded it: the credit note prints it. */
    payerFullName: text('payer_full_name'),
    payerEmail: text('payer_email'),
    enrollmentId: keptRef('enrollment_id', () => enrollments.id),
    bookingId: keptRef('booking_id', () => treatmentBookings.id),
    subject: text('subject').notNull(),
    amount: money('amount_minor').notNull(),
    currency: text('currency').notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    reference: text('reference'),
    reason: text('reason').notNull(),
    /** Given back with the fee waived: each refunded part was discounted too, so nothing is owed again. */
    feeWaived: boolean('fee_waived').notNull().default(false),
    refundedAt: instant('refunded_at').notNull().defaultNow(),
    refundedById: keptRef('refunded_by', () => users.id),
    refundedByName: text('refunded_by_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refunds_credit_note_uq').on(t.series, t.year, t.seq),
    index('refunds_payment_idx').on(t.paymentId),
    index('refunds_refunded_idx').on(t.refundedAt, t.id),
    index('refunds_branch_refunded_idx').on(t.branchId, t.refundedAt),
  ],
);

/** Which allocation of the payment each part of a refund takes back. */
export const refundAllocations = pgTable(
  'refund_allocations',
  {
    id: id(),
    refundId: uuid('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'restrict' }),
    paymentAllocationId: uuid('payment_allocation_id')
      .notNull()
      .references(() => paymentAllocations.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: ALLOCATION_KINDS }).notNull(),
    enrollmentId: keptRef('enrollment_id', () => enrollments.id),
    bookingId: keptRef('booking_id', () => treatmentBookings.id),
    enrollmentInstallmentId: keptRef('enrollment_installment_id', () => enrollmentInstallments.id),
    bookingInstallmentId: keptRef('booking_installment_id', () => bookingInstallments.id),
    installmentNumber: integer('installment_number'),
    dueDate: date('due_date', { mode: 'string' }),
    amount: money('amount_minor').notNull(),
  },
  (t) => [
    index('refund_allocations_refund_idx').on(t.refundId),
    index('refund_allocations_payment_allocation_idx').on(t.paymentAllocationId),
  ],
);

/** Gapless credit note numbers: one row per series and year, as receipt_counters. */
export const creditNoteCounters = pgTable(
  'credit_note_counters',
  {
    series: text('series').notNull(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.year] })],
);

/** Which till a cash refund came out of (docs/payments.md#tills), written in the refunding transaction. */
export const tillRefunds = pgTable(
  'till_refunds',
  {
    refundId: uuid('refund_id')
      .primaryKey()
      .references(() => refunds.id, { onDelete: 'restrict' }),
    tillId: uuid('till_id')
      .notNull()
      .references(() => tills.id, { onDelete: 'restrict' }),
  },
  (t) => [index('till_refunds_till_idx').on(t.tillId)],
);
