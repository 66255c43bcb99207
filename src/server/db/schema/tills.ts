import { sql } from 'drizzle-orm';
import { boolean, date, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { branches } from './branches';
import { createdAt, id, instant, keptRef, money } from './common';
import { payments } from './payments';
import { users } from './users';

/**
 * A cashier's till at a branch (docs/payments.md#tills): opened with a float, closed with the
 * counted cash. Names are kept on the row, so a till stays readable after its branch or cashier
 * is deleted.
 */
export const tills = pgTable(
  'tills',
  {
    id: id(),
    branchId: keptRef('branch_id', () => branches.id),
    branchName: text('branch_name').notNull(),
    cashierId: keptRef('cashier_id', () => users.id),
    cashierName: text('cashier_name').notNull(),
    openedAt: instant('opened_at').notNull().defaultNow(),
    /** The calendar day (TIME_ZONE) it was opened on: the day it locks once closed. */
    openingDay: date('opening_day', { mode: 'string' }).notNull(),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    closedAt: instant('closed_at'),
    closedById: keptRef('closed_by', () => users.id),
    closedByName: text('closed_by_name'),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    // One open till per cashier and branch, held by PostgreSQL itself so two parallel opens
    // cannot both succeed.
    uniqueIndex('tills_one_open_uq')
      .on(t.cashierId, t.branchId)
      .where(sql`${t.status} = 'open'`),
    // The day lock looks up a branch's tills of one day.
    index('tills_branch_day_idx').on(t.branchId, t.openingDay),
    index('tills_opened_idx').on(t.openedAt, t.id),
  ],
);

/** A till's money per currency, in minor units: the float, and at close what was expected and counted. */
export const tillAmounts = pgTable(
  'till_amounts',
  {
    tillId: uuid('till_id')
      .notNull()
      .references(() => tills.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    opening: money('opening_minor').notNull().default(0),
    /** Named in the opening float (false: a currency first met at close). */
    inFloat: boolean('in_float').notNull().default(true),
    expected: money('expected_minor'),
    counted: money('counted_minor'),
  },
  (t) => [primaryKey({ columns: [t.tillId, t.currency] })],
);

/**
 * Which till a cash payment went into, written in the paying transaction (one till per payment).
 * A table of its own rather than a column of the ledger, so the payments table and its insert
 * stay as they are.
 */
export const tillPayments = pgTable(
  'till_payments',
  {
    paymentId: uuid('payment_id')
      .primaryKey()
      .references(() => payments.id, { onDelete: 'restrict' }),
    tillId: uuid('till_id')
      .notNull()
      .references(() => tills.id, { onDelete: 'restrict' }),
  },
  (t) => [index('till_payments_till_idx').on(t.tillId)],
);
