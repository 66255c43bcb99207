import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { DISPLAY_STATUSES } from '../../../shared/enrollment-status';
import {
  createdAt,
  id,
  installmentColumns,
  installmentIndexes,
  instant,
  keptNameTrigramIndex,
  keptRef,
  money,
  trigramIndex,
  ownerRef,
  updatedAt,
} from './common';
import { users } from './users';

export const courses = pgTable(
  'courses',
  {
    id: id(),
    courseName: text('course_name').notNull(),
    duration: text('duration').notNull(),
    totalFee: money('total_fee_minor').notNull(),
    installments: integer('installments').notNull(),
    category: text('category').notNull(),
    admissionFee: money('admission_fee_minor').notNull(),
    currency: text('currency').notNull().default('LKR'),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('courses_category_idx').on(t.category),
    index('courses_created_idx').on(t.createdAt),
    index('courses_name_idx').on(t.courseName),
    // The header search finds a course by any part of its name (docs/architecture.md#search).
    trigramIndex('courses_course_name_trgm_idx', t.courseName),
  ],
);

export const enrollments = pgTable(
  'enrollments',
  {
    id: id(),
    // Deleting a user or course keeps the enrolment and its money history (docs/courses.md).
    userId: keptRef('user_id', () => users.id),
    courseId: keptRef('course_id', () => courses.id),
    paymentType: text('payment_type', { enum: ['full', 'installment'] }).notNull(),
    // Snapshots of the course fees at enrolment time.
    totalFee: money('total_fee_minor').notNull(),
    admissionFee: money('admission_fee_minor').notNull(),
    currency: text('currency').notNull().default('LKR'),
    admissionFeePaid: boolean('admission_fee_paid').notNull().default(false),
    /** Sum of the valid payment allocations to the admission fee (docs/payments.md). */
    admissionFeeAmountPaid: money('admission_fee_paid_minor').notNull().default(0),
    admissionFeePaidAt: instant('admission_fee_paid_at'),
    status: text('status', { enum: ['active', 'completed'] })
      .notNull()
      .default('active'),
    completedAt: instant('completed_at'),
    /**
     * The display status (src/shared/enrollment-status.ts), kept by database triggers on every
     * write to this row's status or admission fee and to its instalments, so the status filter
     * reads a column (docs/performance.md#stored-display-status).
     */
    displayStatus: text('display_status', { enum: DISPLAY_STATUSES }).notNull().default('Pending Payment'),
    enrolledOn: date('enrolled_on', { mode: 'string' }).notNull(),
    deletedUsername: text('deleted_username'),
    deletedEmail: text('deleted_email'),
    deletedCourseName: text('deleted_course_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One open enrolment per user and course.
    uniqueIndex('enrollments_open_uq')
      .on(t.userId, t.courseId)
      .where(sql`${t.status} <> 'completed'`),
    index('enrollments_course_idx').on(t.courseId),
    index('enrollments_user_idx').on(t.userId),
    index('enrollments_created_idx').on(t.createdAt),
    index('enrollments_display_status_created_idx').on(t.displayStatus, t.createdAt),
    // Search also matches the names kept from deleted users and courses; only those rows have them.
    keptNameTrigramIndex('enrollments_deleted_email_trgm_idx', t.deletedEmail),
    keptNameTrigramIndex('enrollments_deleted_username_trgm_idx', t.deletedUsername),
    keptNameTrigramIndex('enrollments_deleted_course_trgm_idx', t.deletedCourseName),
  ],
);

export const enrollmentInstallments = pgTable(
  'enrollment_installments',
  {
    id: id(),
    enrollmentId: ownerRef('enrollment_id', () => enrollments.id),
    ...installmentColumns(),
  },
  (t) => [
    ...installmentIndexes('enrollment_installments', { ...t, owner: t.enrollmentId }),
    // "Has an (un)paid installment" per enrolment (the status filter) answered from the index alone.
    index('enrollment_installments_enrollment_paid_idx').on(t.enrollmentId, t.isPaid),
  ],
);
