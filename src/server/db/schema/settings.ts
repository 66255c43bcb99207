import { boolean, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt } from './common';

/** The organisation's settings: one row (id = 1). */
export const settings = pgTable('settings', {
  id: integer('id').primaryKey().default(1),
  localCurrency: text('local_currency').notNull().default('LKR'),
  foreignCurrency: text('foreign_currency').notNull().default('USD'),
  exchangeRate: numeric('exchange_rate', { precision: 12, scale: 4 }).notNull().default('320.75'),
  /** docs/security.md#branch-scope: when on, managers work only with their own branch's people. */
  managersOwnBranchOnly: boolean('managers_own_branch_only').notNull().default(false),
  /** docs/payments.md#tills: when on, a cash payment needs the cashier's open till. */
  tillRequired: boolean('till_required').notNull().default(false),
  /** docs/payments.md#approval: when on, a manager's discount or scholarship waits for an admin. */
  adjustmentApprovalRequired: boolean('adjustment_approval_required').notNull().default(false),
  /** docs/portal.md#settings: whether people book and move their own appointments, and its limits. */
  portalSelfBooking: boolean('portal_self_booking').notNull().default(false),
  portalCancelHours: integer('portal_cancel_hours').notNull().default(24),
  portalMinNoticeHours: integer('portal_min_notice_hours').notNull().default(12),
  portalMaxDaysAhead: integer('portal_max_days_ahead').notNull().default(30),
  updatedAt: updatedAt(),
});
