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
  type AnyPgColumn,
  type ExtraConfigColumn,
} from 'drizzle-orm/pg-core';

export const id = () => uuid('id').primaryKey().defaultRandom();
/** A point in time (timestamptz), read as a Date. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => instant('created_at').notNull().defaultNow();
export const updatedAt = () =>
  instant('updated_at')
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * A reference that outlives the row it names: deleting that row sets it to null and this one
 * stays, with the names and amounts it copied (docs/courses.md, docs/payments.md).
 */
export const keptRef = (name: string, target: () => AnyPgColumn) =>
  uuid(name).references(target, { onDelete: 'set null' });

/** The owner of a row that is part of it (an installment, a session): deleted with its owner. */
export const ownerRef = (name: string, target: () => AnyPgColumn) =>
  uuid(name).notNull().references(target, { onDelete: 'cascade' });
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
  paidAt: instant('paid_at'),
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

/** An index over just the rows that have the column: few do, and only they are looked up by it. */
export const nonNullIndex = (name: string, column: ExtraConfigColumn) =>
  index(name)
    .on(column)
    .where(sql`${column} is not null`);

/** A trigram index: "contains" search (ILIKE '%text%') on the text reads it (pg_trgm, docs/scale.md). */
export const trigramIndex = (name: string, text: ExtraConfigColumn | SQL) =>
  index(name).using('gin', sql`${text} gin_trgm_ops`);

/** A trigram index over the rows that have the text (a name kept from a deleted record). */
export const keptNameTrigramIndex = (name: string, text: ExtraConfigColumn) =>
  trigramIndex(name, text).where(sql`${text} is not null`);
