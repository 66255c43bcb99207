import { and, count, eq, gt, sql } from 'drizzle-orm';
import { ADJUSTMENT_MESSAGES } from '@shared/schemas/adjustments';
import { hasAppliedAdjustments } from '../adjustments/adjustments.service';
import type { Db } from '../../db/client';
import { courses, enrollmentInstallments, enrollments, users } from '../../db/schema';
import { assertUserInScope } from '../branch-scope';
import { isAdmissionSettled } from '../../../shared/enrollment-status';
import { AppError, isUniqueViolation } from '../../errors';
import { assertId, isUuid } from '../ids';
import { buildInstallmentSchedule } from '../installments';
import { startDayOf } from '../start-day';
import { setItemPaid } from '../payments/ledger';
import {
  enrollmentTargetOf,
  itemsOf,
  lockEnrollmentRow,
  lockEnrollmentTarget,
  type LedgerItem,
  type LedgerTarget,
} from '../payments/ledger-targets';
import { recordItemToggle } from '../payments/ledger-audit';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import type {
  TCreateEnrollmentInput,
  TDeleteEnrollmentInput,
  TPayAdmissionFeeInput,
  TPayInstallmentInput,
  TUpdateEnrollmentInput,
} from '@shared/schemas/enrollments';

import {
  enrollmentBefore,
  recordEnrollmentCompleted,
  recordEnrollmentCreated,
  recordEnrollmentDeleted,
  recordPlanChanged,
} from './enrollments.audit';
import { inScope, loadEnrollment, NOT_FOUND, today, type Ctx, type EnrollmentDto } from './enrollments.dto';
import { afterWrite, invalidateReads } from '../read-cache';

const ALREADY_ENROLLED = 'User is already enrolled in this course';
const USER_NOT_FOUND = 'User not found. Please check the email.';
const COMPLETED_LOCKED = 'This enrollment is completed; its payments can no longer be changed.';

// ---------------------------------------------------------------------------------------------
// Writes

async function findUserId(db: Db, input: TCreateEnrollmentInput): Promise<string> {
  const where = input.userId
    ? isUuid(input.userId)
      ? eq(users.id, input.userId)
      : undefined
    : eq(sql`lower(${users.email})`, input.email!.trim().toLowerCase());
  if (!where) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  const [u] = await db.select({ id: users.id }).from(users).where(where).limit(1);
  if (!u) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  return u.id;
}

export async function createEnrollment(ctx: Ctx, input: TCreateEnrollmentInput): Promise<EnrollmentDto> {
  const userId = await findUserId(ctx.db, input);
  await assertUserInScope(ctx, userId, USER_NOT_FOUND);
  assertId(input.courseId, 'Course');
  const enrolledOn = startDayOf(ctx, input.enrolledOn, 'Enrolled on');
  let id: string;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const [course] = await tx.select().from(courses).where(eq(courses.id, input.courseId)).limit(1);
      if (!course) throw new AppError('NOT_FOUND', 'Course not found.');
      const [open] = await tx
        .select({ id: enrollments.id })
        .from(enrollments)
        .where(
          and(eq(enrollments.userId, userId), eq(enrollments.courseId, course.id), eq(enrollments.status, 'active')),
        )
        .limit(1);
      if (open) throw new AppError('CONFLICT', ALREADY_ENROLLED);
      const [row] = await tx
        .insert(enrollments)
        .values({
          userId,
          courseId: course.id,
          paymentType: input.paymentType,
          totalFee: course.totalFee,
          admissionFee: course.admissionFee,
          currency: course.currency,
          enrolledOn,
        })
        .returning();
      const schedule = buildInstallmentSchedule(course.totalFee, input.paymentType, course.installments, enrolledOn);
      await tx.insert(enrollmentInstallments).values(schedule.map((p) => ({ ...p, enrollmentId: row!.id })));
      await recordEnrollmentCreated(tx, ctx, row!);
      return row!.id;
    });
    invalidateReads(ctx.deps);
  } catch (err) {
    // Two simultaneous enrolments: the partial unique index refuses the second.
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', ALREADY_ENROLLED);
    throw err;
  }
  return loadEnrollment(ctx, id);
}

/** Locks the enrolment row so concurrent toggles and `complete` see one consistent state. */
async function lockEnrollment(tx: Db, id: string) {
  assertId(id, 'Enrollment');
  const [row] = await tx.select().from(enrollments).where(eq(enrollments.id, id)).for('update').limit(1);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return row;
}

/** Locks the enrolment once for a toggle: its row and the ledger's view of it (payer, course). */
async function lockForToggle(tx: Db, id: string) {
  assertId(id, 'Enrollment');
  const [locked] = await lockEnrollmentRow(tx, id);
  if (!locked) throw new AppError('NOT_FOUND', NOT_FOUND);
  return { e: locked.e, target: enrollmentTargetOf(locked) };
}

/** PUT: change the payment plan (only while nothing is paid) or the admission-fee state. */
export async function updateEnrollment(ctx: Ctx, input: TUpdateEnrollmentInput): Promise<EnrollmentDto> {
  await inScope(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const e = await lockEnrollment(tx, input.id);
    if (e.status === 'completed' && (input.paymentType !== undefined || input.admissionFeePaid !== undefined)) {
      throw new AppError('CONFLICT', COMPLETED_LOCKED);
    }
    if (input.paymentType !== undefined && input.paymentType !== e.paymentType) {
      const [paid] = await tx
        .select({ n: count() })
        .from(enrollmentInstallments)
        .where(and(eq(enrollmentInstallments.enrollmentId, e.id), gt(enrollmentInstallments.amountPaid, 0)));
      if ((paid?.n ?? 0) > 0)
        throw new AppError('CONFLICT', 'The payment type cannot change once an installment is paid.');
      // Rebuilding the plan from the fee would silently undo a discount on its installments.
      if (await hasAppliedAdjustments(tx, e.id)) throw new AppError('CONFLICT', ADJUSTMENT_MESSAGES.planChanged);
      const before = await enrollmentBefore(tx, e);
      let parts = 1;
      if (input.paymentType === 'installment') {
        const [course] = e.courseId
          ? await tx
              .select({ installments: courses.installments })
              .from(courses)
              .where(eq(courses.id, e.courseId))
              .limit(1)
          : [];
        if (!course)
          throw new AppError(
            'CONFLICT',
            'The course of this enrollment was deleted, so its installment plan is unknown.',
          );
        parts = course.installments;
      }
      await tx.delete(enrollmentInstallments).where(eq(enrollmentInstallments.enrollmentId, e.id));
      const schedule = buildInstallmentSchedule(e.totalFee, input.paymentType, parts, e.enrolledOn);
      await tx.insert(enrollmentInstallments).values(schedule.map((p) => ({ ...p, enrollmentId: e.id })));
      const [changed] = await tx
        .update(enrollments)
        .set({ paymentType: input.paymentType })
        .where(eq(enrollments.id, e.id))
        .returning();
      await recordPlanChanged(tx, ctx, before, changed!);
    }
    if (input.admissionFeePaid !== undefined && input.admissionFeePaid !== e.admissionFeePaid) {
      const target = await lockEnrollmentTarget(tx, e.id);
      const fee = await admissionFeeItem(tx, target);
      if (fee) await toggleItem(tx, ctx, target, fee, input.admissionFeePaid, toggle(ctx));
    }
  });
  invalidateReads(ctx.deps);
  return loadEnrollment(ctx, input.id);
}

/** A toggle through the ledger, recorded with the receipt it wrote or voided (docs/audit.md). */
async function toggleItem(
  tx: Db,
  ctx: Ctx,
  target: LedgerTarget,
  item: LedgerItem,
  isPaid: boolean,
  opts: ReturnType<typeof toggle>,
) {
  const paidBefore = item.amountPaid;
  const receipts = await setItemPaid(tx, target, item, isPaid, opts);
  if (receipts.length) await recordItemToggle(tx, ctx, target, item, paidBefore, isPaid, receipts);
}

/** The toggles go through the ledger (docs/payments.md#the-paidunpaid-switch). */
const toggle = (ctx: Ctx, method?: PaymentMethod) => ({ actor: ctx.actor ?? null, todayIso: today(ctx), method });

async function admissionFeeItem(tx: Db, target: LedgerTarget): Promise<LedgerItem | undefined> {
  return (await itemsOf(tx, target)).find((i) => i.kind === 'admission_fee');
}

/**
 * Repeating a call is harmless: an already-paid installment keeps its first paidAt. Marking paid
 * records a payment of what is left of it; marking unpaid voids the payments that paid it.
 */
export async function payInstallment(ctx: Ctx, input: TPayInstallmentInput): Promise<EnrollmentDto> {
  await inScope(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const { e, target } = await lockForToggle(tx, input.id);
    const isPaid = input.isPaid ?? true;
    const items = (await itemsOf(tx, target)).filter((i) => i.kind === 'enrollment_installment');
    const item =
      input.installmentId !== undefined
        ? items.find((i) => i.installmentId === input.installmentId)
        : items.find((i) => i.number === (input.installmentIndex ?? -1) + 1);
    if (!item) throw new AppError('NOT_FOUND', 'Installment not found in this enrollment.');
    if (isPaid ? item.amountPaid >= item.amount : item.amountPaid === 0) return;
    if (e.status === 'completed') throw new AppError('CONFLICT', COMPLETED_LOCKED);
    await toggleItem(tx, ctx, target, item, isPaid, toggle(ctx, input.method));
  });
  invalidateReads(ctx.deps);
  return loadEnrollment(ctx, input.id);
}

export async function payAdmissionFee(ctx: Ctx, input: TPayAdmissionFeeInput): Promise<EnrollmentDto> {
  await inScope(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const { e, target } = await lockForToggle(tx, input.id);
    const fee = await admissionFeeItem(tx, target);
    if (!fee || (input.isPaid ? fee.amountPaid >= fee.amount : fee.amountPaid === 0)) return;
    if (e.status === 'completed') throw new AppError('CONFLICT', COMPLETED_LOCKED);
    await toggleItem(tx, ctx, target, fee, input.isPaid, toggle(ctx, input.method));
  });
  invalidateReads(ctx.deps);
  return loadEnrollment(ctx, input.id);
}

function describeUnpaid(admissionUnpaid: boolean, unpaidInstallments: number): string {
  const parts: string[] = [];
  if (admissionUnpaid) parts.push('the admission fee is unpaid');
  if (unpaidInstallments > 0)
    parts.push(`${unpaidInstallments} ${unpaidInstallments === 1 ? 'installment is' : 'installments are'} unpaid`);
  return `Cannot complete this enrollment: ${parts.join(' and ')}.`;
}

/** docs/courses.md: only a fully paid enrolment completes; completing twice is harmless. */
export async function completeEnrollment(ctx: Ctx, id: string): Promise<EnrollmentDto> {
  await inScope(ctx, id);
  await ctx.db.transaction(async (tx) => {
    const e = await lockEnrollment(tx, id);
    if (e.status === 'completed') return;
    const [unpaid] = await tx
      .select({ n: count() })
      .from(enrollmentInstallments)
      .where(and(eq(enrollmentInstallments.enrollmentId, e.id), eq(enrollmentInstallments.isPaid, false)));
    const unpaidCount = unpaid?.n ?? 0;
    const admissionUnpaid = !isAdmissionSettled({ admissionFeePaid: e.admissionFeePaid, admissionFee: e.admissionFee });
    if (admissionUnpaid || unpaidCount > 0) {
      throw new AppError('CONFLICT', describeUnpaid(admissionUnpaid, unpaidCount), {
        admissionFeeUnpaid: admissionUnpaid,
        unpaidInstallments: unpaidCount,
      });
    }
    const completedAt = new Date();
    await tx.update(enrollments).set({ status: 'completed', completedAt }).where(eq(enrollments.id, e.id));
    await recordEnrollmentCompleted(tx, ctx, e, completedAt);
  });
  invalidateReads(ctx.deps);
  return loadEnrollment(ctx, id);
}

/**
 * The caller names the enrolment's student as a guard against deleting the wrong row. An
 * enrolment whose user was deleted has no id left to match, so any id is accepted for it.
 */
export async function deleteEnrollment(ctx: Ctx, input: TDeleteEnrollmentInput): Promise<{ message: string }> {
  assertId(input.id, 'Enrollment');
  await inScope(ctx, input.id);
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const e = await lockEnrollment(tx, input.id);
      if (e.userId && e.userId !== input.userId) {
        throw new AppError('BAD_REQUEST', 'The user ID does not match this enrollment.');
      }
      await recordEnrollmentDeleted(tx, ctx, await enrollmentBefore(tx, e), e);
      await tx.delete(enrollments).where(eq(enrollments.id, e.id));
      return { message: 'Enrollment deleted successfully!' };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Keeping history when a user or course goes (docs/courses.md). Call inside the deleting transaction,
// before the row is deleted: the foreign key then sets the id to null.

export async function detachUserFromEnrollments(tx: Db, userId: string): Promise<void> {
  const [u] = await tx
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!u) return;
  await tx
    .update(enrollments)
    .set({ deletedUsername: u.username, deletedEmail: u.email })
    .where(eq(enrollments.userId, userId));
}

export async function detachCourseFromEnrollments(tx: Db, courseId: string): Promise<void> {
  const [c] = await tx
    .select({ courseName: courses.courseName })
    .from(courses)
    .where(eq(courses.id, courseId))
    .limit(1);
  if (!c) return;
  await tx.update(enrollments).set({ deletedCourseName: c.courseName }).where(eq(enrollments.courseId, courseId));
}
