import { z } from 'zod';
import { zStartDay } from '@shared/schemas/start-day';
import { blankToUndefined, INT4_MAX, restPage, zId, zOptionalText, zText } from '@shared/schemas/primitives';
import { DISPLAY_STATUSES } from '@shared/enrollment-status';
import { ZPageInput, zSortBy } from '@shared/pagination';
import { zPaymentMethod } from '@shared/schemas/payment-method';

export const ENROLL_REQUIRED = 'Please enter a valid email and select a course.';
export const USER_ID_REQUIRED = 'User ID not found in enrollment data';

/**
 * The screen sends the typed email; REST callers (the old client) send the user's id.
 * Either names the student; the email is matched trimmed and case-insensitively.
 */
export const ZCreateEnrollmentInput = z
  .object({
    userId: zOptionalText('User', 100),
    email: z.preprocess(blankToUndefined, zText('Email').trim().max(320, ENROLL_REQUIRED).optional()),
    courseId: z.preprocess(
      blankToUndefined,
      zText('Course', { message: ENROLL_REQUIRED }).trim().max(200, ENROLL_REQUIRED),
    ),
    paymentType: z.preprocess(
      blankToUndefined,
      z.enum(['full', 'installment'], { error: 'Payment type must be full or installment.' }).default('full'),
    ),
    // The old client sends the currency; the enrolment takes the course's.
    currency: z.unknown().optional(),
    /** A day up to 12 months back, for a student who joined earlier (admins only). */
    enrolledOn: zStartDay('Enrolled on'),
  })
  .refine((v) => Boolean(v.userId || v.email), { message: ENROLL_REQUIRED, path: ['email'] });
export type TCreateEnrollmentInput = z.infer<typeof ZCreateEnrollmentInput>;

export const ZEnrollmentIdInput = z.object({ id: zId('Enrollment') });

/** A student's enrolments (`enrollments.byStudent`). */
export const ZStudentEnrollmentsInput = z.object({ userId: z.string() });

export const ZUpdateEnrollmentFields = z.object({
  paymentType: z.enum(['full', 'installment'], { error: 'Payment type must be full or installment.' }).optional(),
  admissionFeePaid: z.boolean({ error: 'admissionFeePaid must be true or false.' }).optional(),
});
export const ZUpdateEnrollmentInput = ZUpdateEnrollmentFields.extend({ id: zId('Enrollment') });
export type TUpdateEnrollmentInput = z.infer<typeof ZUpdateEnrollmentInput>;

/** The delete screen sends the enrolment's user id as a guard against deleting the wrong row. */
export const ZDeleteEnrollmentFields = z.object({
  userId: z.preprocess(
    blankToUndefined,
    zText('User', { message: USER_ID_REQUIRED }).trim().max(100, USER_ID_REQUIRED),
  ),
});
export const ZDeleteEnrollmentInput = ZDeleteEnrollmentFields.extend({ id: zId('Enrollment') });
export type TDeleteEnrollmentInput = z.infer<typeof ZDeleteEnrollmentInput>;

/** `installmentId` (marks paid unless isPaid says otherwise), or `installmentIndex` with `isPaid`. */
export const ZPayInstallmentFields = z
  .object({
    installmentId: zOptionalText('Installment', 100),
    installmentIndex: z
      .number({ error: 'installmentIndex must be a whole number.' })
      .int('installmentIndex must be a whole number.')
      .min(0, 'installmentIndex cannot be negative.')
      .max(INT4_MAX, 'Installment not found.')
      .optional(),
    isPaid: z.boolean({ error: 'isPaid must be true or false.' }).optional(),
    /** How the money came in when marking paid (docs/payments.md#the-paidunpaid-switch); `other` if not said. */
    method: zPaymentMethod.optional(),
  })
  .refine((v) => v.installmentId !== undefined || v.installmentIndex !== undefined, {
    message: 'Send installmentId, or installmentIndex with isPaid.',
  })
  .refine((v) => v.installmentId !== undefined || v.isPaid !== undefined, {
    message: 'Send isPaid with installmentIndex.',
    path: ['isPaid'],
  });
export const ZPayInstallmentInput = z.intersection(ZPayInstallmentFields, z.object({ id: zId('Enrollment') }));
export type TPayInstallmentInput = z.infer<typeof ZPayInstallmentInput>;

export const ZPayAdmissionFeeFields = z.object({
  isPaid: z.boolean({ error: 'isPaid must be true or false.' }).default(true),
  method: zPaymentMethod.optional(),
});
export const ZPayAdmissionFeeInput = ZPayAdmissionFeeFields.extend({ id: zId('Enrollment') });
export type TPayAdmissionFeeInput = z.infer<typeof ZPayAdmissionFeeInput>;

/** The columns the list sorts by (its sortable headers). */
export const ENROLLMENT_SORT_COLUMNS = ['username', 'courseName', 'totalFee', 'createdAt'] as const;

export const ZListEnrollmentsInput = ZPageInput.extend({
  displayStatus: z.enum(DISPLAY_STATUSES).optional(),
  courseId: zId('Course').optional(),
  userId: zId('User').optional(),
  sortBy: zSortBy(ENROLLMENT_SORT_COLUMNS, 'createdAt'),
});
export type TListEnrollmentsInput = z.infer<typeof ZListEnrollmentsInput>;

export const ZOverdueInput = z.object({
  limit: z.number().int().min(1).max(1000).default(200),
});
export type TOverdueInput = z.infer<typeof ZOverdueInput>;

/** REST GET /api/enrollments: the documented `{ data }` answer, newest first, paged for size. */
export const ZRestListQuery = z.object(restPage(1000, 500));
