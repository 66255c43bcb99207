import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { keptRef, updatedAt } from './common';
import { files } from './users';

/**
 * The organisation as it prints on paper (receipts, statements, cash-ups, reports, e-mails): one
 * row (id = 1). An empty name prints the product's name.
 */
export const organisation = pgTable('organisation', {
  id: integer('id').primaryKey().default(1),
  name: text('name').notNull().default(''),
  address: text('address').notNull().default(''),
  phone: text('phone').notNull().default(''),
  email: text('email').notNull().default(''),
  receiptFooter: text('receipt_footer').notNull().default(''),
  /** How to pay by bank (account name, bank, branch, number), shown on the portal's How to pay. */
  bankDetails: text('bank_details').notNull().default(''),
  logoFileId: keptRef('logo_file_id', () => files.id),
  updatedAt: updatedAt(),
});
