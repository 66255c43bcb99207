import { integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt } from './common';

/** Currency settings: one row (id = 1). */
export const settings = pgTable('settings', {
  id: integer('id').primaryKey().default(1),
  localCurrency: text('local_currency').notNull().default('LKR'),
  foreignCurrency: text('foreign_currency').notNull().default('USD'),
  exchangeRate: numeric('exchange_rate', { precision: 12, scale: 4 }).notNull().default('320.75'),
  updatedAt: updatedAt(),
});
