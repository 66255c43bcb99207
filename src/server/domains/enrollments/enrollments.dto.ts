import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { courses, enrollmentInstallments, enrollments, users } from '../../db/schema';
import { assertRecordInScope } from '../branch-scope';
import { enrollmentDisplayStatus } from '../../../shared/enrollment-status';
import { fromMinor } from '../../../shared/money';
import { AppError } from '../../errors';
import type { SystemContext } from '../context';
import { iso } from '../ids';
import { installmentsInRow, toInstallmentDto } from '../installments';
import { todayIn } from './dates';
import type { TEnrollmentIn } from '@shared/schemas/enrollments.output';

/** Who is acting is absent for internal callers, which are never limited to a branch. */
export type Ctx = SystemContext;

export const NOT_FOUND = 'Enrollment not found.';

export const today = (ctx: Ctx) => todayIn(ctx.deps.config.TIME_ZONE);
/** A limited manager reaches only enrolments of their branch's students (docs/security.md#branch-scope). */
export const inScope = (ctx: Ctx, id: string) => assertRecordInScope(ctx, 'enrollment', id, NOT_FOUND);

// ---------------------------------------------------------------------------------------------
// Answers (docs/product.md#records-and-their-fields names)

const enrollmentColumns = {
  e: enrollments,
  user: { id: users.id, username: users.username, email: users.email, fullName: users.fullName },
  course: { id: courses.id, courseName: courses.courseName, totalFee: courses.totalFee },
  /** In the enrolment's own statement (docs/performance.md#children-in-the-records-statement). */
  installments: installmentsInRow(enrollmentInstallments, enrollmentInstallments.enrollmentId, enrollments.id),
};

export function selectEnrollments(db: Db) {
  return db
    .select(enrollmentColumns)
    .from(enrollments)
    .leftJoin(users, eq(users.id, enrollments.userId))
    .leftJoin(courses, eq(courses.id, enrollments.courseId));
}

export type EnrollmentJoinRow = Awaited<ReturnType<ReturnType<typeof selectEnrollments>['execute']>>[number];

/** Typed as the contract: a field missing on either side fails the build. */
export function toEnrollmentDto(r: EnrollmentJoinRow, todayIso: string): TEnrollmentIn {
  const { e, installments } = r;
  const status = e.status === 'completed' ? 'Completed' : 'Active';
  // What the ledger holds, partial payments included (docs/payments.md).
  const paidMinor = e.admissionFeeAmountPaid + installments.reduce((s, i) => s + i.amountPaid, 0);
  // What the items are owed now: a discount, scholarship or write-off lowers them (docs/payments.md#adjustments).
  const dueMinor = e.admissionFee + installments.reduce((s, i) => s + i.amount, 0);
  return {
    _id: e.id,
    userId: r.user?.id
      ? { _id: r.user.id, username: r.user.username, email: r.user.email, fullName: r.user.fullName }
      : null,
    courseId: r.course?.id
      ? { _id: r.course.id, courseName: r.course.courseName, totalFee: fromMinor(r.course.totalFee) }
      : null,
    paymentType: e.paymentType,
    admissionFeePaid: e.admissionFeePaid,
    admissionFeePaidAt: iso(e.admissionFeePaidAt),
    admissionFee: fromMinor(e.admissionFee),
    admissionFeeAmountPaid: fromMinor(e.admissionFeeAmountPaid),
    totalFee: fromMinor(e.totalFee),
    currency: e.currency,
    status,
    displayStatus: enrollmentDisplayStatus({
      status,
      admissionFeePaid: e.admissionFeePaid,
      admissionFee: e.admissionFee,
      admissionFeeAmountPaid: e.admissionFeeAmountPaid,
      installments,
    }),
    installments: installments.map((i) => toInstallmentDto(i, todayIso)),
    paidAmount: fromMinor(paidMinor),
    outstandingAmount: fromMinor(dueMinor - paidMinor),
    enrolledOn: e.enrolledOn,
    completedAt: iso(e.completedAt),
    deletedUsername: e.deletedUsername,
    deletedEmail: e.deletedEmail,
    deletedCourseName: e.deletedCourseName,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
export type EnrollmentDto = TEnrollmentIn;

/** A page's (or any list's) answers: each row already carries its instalments. */
export function toEnrollmentDtos(rows: EnrollmentJoinRow[], todayIso: string): EnrollmentDto[] {
  return rows.map((r) => toEnrollmentDto(r, todayIso));
}

export async function loadEnrollment(ctx: Ctx, id: string): Promise<EnrollmentDto> {
  const byId = preparedOn(ctx.db, 'enrollment_by_id', (db) =>
    selectEnrollments(db)
      .where(eq(enrollments.id, sql.placeholder('id')))
      .limit(1)
      .prepare('enrollment_by_id'),
  );
  const [row] = await byId.execute({ id });
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return toEnrollmentDto(row, today(ctx));
}
