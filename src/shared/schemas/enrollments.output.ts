import { z } from 'zod';
import { DISPLAY_STATUSES, ENROLLMENT_STATUSES } from '@shared/enrollment-status';
import { ZInstallment } from '@shared/schemas/installments.output';
import {
  zCountOut,
  zDayOut,
  zInstantOut,
  zIntOut,
  zMoneyOut,
  zOneOf,
  zPageOf,
  zRecordOut,
} from '@shared/schemas/output';

// fullName beyond the spec's populated fields: the front desk names people by it (docs/users.md).
const ZStudentRef = z.object({ _id: z.string(), username: z.string(), email: z.string(), fullName: z.string() });

/** docs/product.md#records-and-their-fields Enrollment, with populated `userId` and `courseId`. */
export const ZEnrollment = zRecordOut({
  userId: ZStudentRef.nullable(),
  courseId: z.object({ _id: z.string(), courseName: z.string(), totalFee: zMoneyOut }).nullable(),
  paymentType: z.enum(['full', 'installment']),
  admissionFeePaid: z.boolean(),
  admissionFeePaidAt: zInstantOut.nullable(),
  admissionFee: zMoneyOut,
  admissionFeeAmountPaid: zMoneyOut,
  totalFee: zMoneyOut,
  currency: z.string(),
  status: zOneOf(ENROLLMENT_STATUSES),
  displayStatus: z.enum(DISPLAY_STATUSES),
  installments: z.array(ZInstallment),
  paidAmount: zMoneyOut,
  outstandingAmount: zMoneyOut,
  enrolledOn: zDayOut,
  completedAt: zInstantOut.nullable(),
  deletedUsername: z.string().nullable(),
  deletedEmail: z.string().nullable(),
  deletedCourseName: z.string().nullable(),
});
export type TEnrollment = z.infer<typeof ZEnrollment>;
/** What a service hands the contract (`status` may be typed as plain text there). */
export type TEnrollmentIn = z.input<typeof ZEnrollment>;

export const ZEnrollmentPage = zPageOf(ZEnrollment);
export const ZEnrollmentList = z.array(ZEnrollment);
/** REST GET /api/enrollments: the documented `{ data }` answer. */
export const ZEnrollmentData = z.object({ data: ZEnrollmentList });

/** An unpaid installment past its due date, with who owes it. */
export const ZOverdueInstallment = ZInstallment.extend({
  installmentNumber: zIntOut,
  enrollmentId: z.string(),
  userId: ZStudentRef.nullable(),
  courseId: z.object({ _id: z.string(), courseName: z.string() }).nullable(),
  deletedUsername: z.string().nullable(),
  deletedEmail: z.string().nullable(),
  deletedCourseName: z.string().nullable(),
});
export type TOverdueInstallment = z.infer<typeof ZOverdueInstallment>;
export const ZOverdueInstallmentList = z.array(ZOverdueInstallment);

export const ZEnrollmentStatistics = z.object({
  totalEnrollments: zCountOut,
  completedEnrollments: zCountOut,
  overdueInstallments: zCountOut,
});
