import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  createdAt,
  id,
  installmentColumns,
  installmentIndexes,
  instant,
  keptRef,
  money,
  ownerRef,
  trigramIndex,
  updatedAt,
} from './common';
import { users } from './users';

export const treatments = pgTable(
  'treatments',
  {
    id: id(),
    treatmentName: text('treatment_name').notNull(),
    localPrice: money('local_price_minor').notNull(),
    foreignPrice: money('foreign_price_minor').notNull(),
    maxSessions: integer('max_sessions').notNull(),
    installments: integer('installments').notNull(),
    durationWeeks: integer('duration_weeks').notNull().default(0),
    durationDays: integer('duration_days').notNull().default(0),
    durationMonths: integer('duration_months').notNull().default(0),
    category: text('category'),
    discountedPrice: money('discounted_price_minor'),
    specialRequirements: text('special_requirements'),
    description: text('description'),
    /** One session's length, and the time kept free after it (docs/appointments.md). */
    sessionMinutes: integer('session_minutes').notNull().default(60),
    bufferMinutes: integer('buffer_minutes').notNull().default(0),
    requiresRoom: boolean('requires_room').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('treatments_name_uq').on(sql`lower(${t.treatmentName})`),
    index('treatments_created_idx').on(t.createdAt),
    // The header search finds a treatment by any part of its name (docs/architecture.md#search).
    trigramIndex('treatments_name_trgm_idx', t.treatmentName),
  ],
);

export const treatmentBookings = pgTable(
  'treatment_bookings',
  {
    id: id(),
    userId: keptRef('user_id', () => users.id),
    treatmentId: keptRef('treatment_id', () => treatments.id),
    // Kept so a booking stays readable after its treatment or user is deleted.
    treatmentName: text('treatment_name').notNull(),
    maxSessions: integer('max_sessions').notNull(),
    deletedUsername: text('deleted_username'),
    deletedEmail: text('deleted_email'),
    userType: text('user_type', { enum: ['local', 'foreign'] }).notNull(),
    paymentType: text('payment_type', { enum: ['full', 'installment'] }).notNull(),
    paymentStatus: text('payment_status', { enum: ['pending', 'partially_paid', 'paid', 'overdue'] })
      .notNull()
      .default('pending'),
    price: money('price_minor').notNull(),
    currency: text('currency').notNull(),
    periodStart: date('period_start', { mode: 'string' }),
    periodEnd: date('period_end', { mode: 'string' }),
    sessionsCompleted: integer('sessions_completed').notNull().default(0),
    status: text('status', { enum: ['active', 'cancelled'] })
      .notNull()
      .default('active'),
    cancelledAt: instant('cancelled_at'),
    bookedOn: date('booked_on', { mode: 'string' }).notNull(),
    /**
     * The earliest due date among the booking's unpaid instalments (null when none is unpaid),
     * kept by triggers on booking_installments (migration 0014), so "late" is a test of this row
     * alone (docs/performance.md#a-bookings-earliest-unpaid-due-date).
     */
    nextUnpaidDue: date('next_unpaid_due', { mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('bookings_user_treatment_idx').on(t.userId, t.treatmentId, t.createdAt),
    index('bookings_treatment_idx').on(t.treatmentId),
    index('bookings_status_idx').on(t.paymentStatus),
    index('bookings_created_idx').on(t.createdAt),
  ],
);

export const bookingInstallments = pgTable(
  'booking_installments',
  {
    id: id(),
    bookingId: ownerRef('booking_id', () => treatmentBookings.id),
    ...installmentColumns(),
  },
  (t) => [...installmentIndexes('booking_installments', { ...t, owner: t.bookingId })],
);

export const bookingSessionNotes = pgTable(
  'booking_session_notes',
  {
    bookingId: ownerRef('booking_id', () => treatmentBookings.id),
    sessionNumber: integer('session_number').notNull(),
    note: text('note').notNull().default(''),
    date: instant('date'),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.sessionNumber] })],
);
