import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  timestamp,
  uniqueIndex,
  uuid,
  type ExtraConfigColumn,
} from 'drizzle-orm/pg-core';

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
/** Money in integer minor units (cents): exact sums, no float error (docs/product.md, Money). */
export const money = (name: string) => bigint(name, { mode: 'number' });

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * An enrolment's or booking's installment plan, one row a due amount (docs/payments.md): the
 * columns after its owner's id, the same in both tables.
 */
export const installmentColumns = () => ({
  seq: integer('seq').notNull(),
  amount: money('amount_minor').notNull(),
  dueDate: date('due_date', { mode: 'string' }).notNull(),
  /** Sum of the valid payment allocations (docs/payments.md); isPaid once it reaches the amount. */
  amountPaid: money('amount_paid_minor').notNull().default(0),
  isPaid: boolean('is_paid').notNull().default(false),
  paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
});

/**
 * The indexes both installment tables have: one row per (owner, seq), and the unpaid rows in
 * (due date, id) order, so the overdue list's order and the reminder run's keyset cursor are both
 * index conditions.
 */
export const installmentIndexes = (
  table: string,
  t: {
    owner: ExtraConfigColumn;
    seq: ExtraConfigColumn;
    dueDate: ExtraConfigColumn;
    id: ExtraConfigColumn;
    isPaid: ExtraConfigColumn;
  },
) => [
  uniqueIndex(`${table}_seq_uq`).on(t.owner, t.seq),
  index(`${table}_unpaid_due_id_idx`)
    .on(t.dueDate, t.id)
    .where(sql`${t.isPaid} = false`),
];

/** A trigram index: "contains" search (ILIKE '%text%') on the text reads it (pg_trgm, docs/scale.md). */
export const trigramIndex = (name: string, text: ExtraConfigColumn | SQL) =>
  index(name).using('gin', sql`${text} gin_trgm_ops`);

/** A trigram index over the rows that have the text (a name kept from a deleted record). */
export const keptNameTrigramIndex = (name: string, text: ExtraConfigColumn) =>
  trigramIndex(name, text).where(sql`${text} is not null`);
