import { bigint, boolean, customType, date, integer, timestamp, uuid } from 'drizzle-orm/pg-core';

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
