/**
 * What a payment is for, read under a row lock (docs/payments.md): the enrolment or booking with
 * the names a receipt prints, and its payable items (admission fee, installments) with what each
 * still owes. Callers lock before they allocate, so two cashiers paying the same installment are
 * serialised and never collect more than it is owed.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  bookingInstallments,
  courses,
  enrollmentInstallments,
  enrollments,
  treatmentBookings,
  treatments,
  users,
} from '../../db/schema';
import { AppError } from '../../errors';
import type { AllocationKind } from '../../../shared/payment-kinds';
import { isUuid } from '../ids';

export const ENROLLMENT_NOT_FOUND = 'Enrollment not found.';
export const BOOKING_NOT_FOUND = 'Booking not found.';
export const ENROLLMENT_COMPLETED = 'This enrollment is completed; its payments can no longer be changed.';
export const BOOKING_CANCELLED = 'This booking is cancelled; it cannot be changed.';

/** The enrolment or booking a payment is for, locked, with what the receipt needs to name. */
export interface LedgerTarget {
  kind: 'enrollment' | 'booking';
  id: string;
  status: string;
  currency: string;
  payerId: string | null;
  payerName: string;
  /** The payer's full name now (null once the person is deleted): new payments keep it. */
  payerFullName: string | null;
  payerEmail: string | null;
  payerBranchId: string | null;
  subject: string;
  /** Enrolments only: the admission fee and what has been paid of it. */
  admissionFee: number;
  admissionFeeAmountPaid: number;
}

/** One thing that can be paid: the admission fee or an installment. Money in minor units. */
export interface LedgerItem {
  kind: AllocationKind;
  /** The installment's id; null for the admission fee. */
  installmentId: string | null;
  /** 1-based installment number; null for the admission fee. */
  number: number | null;
  dueDate: string | null;
  amount: number;
  amountPaid: number;
}

export const outstandingOf = (i: LedgerItem) => i.amount - i.amountPaid;

/** Who pays: the student's or customer's name, e-mail and branch, if the account still exists. */
async function payerOf(tx: Db, userId: string | null) {
  if (!userId) return undefined;
  const [u] = await tx
    .select({ username: users.username, fullName: users.fullName, email: users.email, branchId: users.branchId })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return u;
}

/**
 * Locks the enrolment (FOR UPDATE of its row only) and reads who pays and for what, in one
 * statement: the payer and the course are joined rather than read after the lock (one round trip
 * instead of three on every payment, toggle and enrolment audit entry).
 */
export function lockEnrollmentRow(tx: Db, id: string) {
  return tx
    .select({
      e: enrollments,
      payer: { username: users.username, fullName: users.fullName, email: users.email, branchId: users.branchId },
      courseName: courses.courseName,
    })
    .from(enrollments)
    .leftJoin(users, eq(users.id, enrollments.userId))
    .leftJoin(courses, eq(courses.id, enrollments.courseId))
    .where(eq(enrollments.id, id))
    .for('update', { of: enrollments })
    .limit(1);
}

export type LockedEnrollment = Awaited<ReturnType<typeof lockEnrollmentRow>>[number];

/** The ledger's view of an enrolment read by lockEnrollmentRow. */
export function enrollmentTargetOf({ e, payer, courseName }: LockedEnrollment): LedgerTarget {
  return {
    kind: 'enrollment',
    id: e.id,
    status: e.status,
    currency: e.currency,
    payerId: e.userId,
    payerName: payer?.username ?? e.deletedUsername ?? 'Unknown',
    payerFullName: payer?.fullName || null,
    payerEmail: payer?.email ?? e.deletedEmail,
    payerBranchId: payer?.branchId ?? null,
    subject: courseName ?? e.deletedCourseName ?? 'Unknown course',
    admissionFee: e.admissionFee,
    admissionFeeAmountPaid: e.admissionFeeAmountPaid,
  };
}

/** Locks the enrolment (FOR UPDATE) and reads who pays and for what. */
export async function lockEnrollmentTarget(tx: Db, id: string): Promise<LedgerTarget> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', ENROLLMENT_NOT_FOUND);
  const [locked] = await lockEnrollmentRow(tx, id);
  if (!locked) throw new AppError('NOT_FOUND', ENROLLMENT_NOT_FOUND);
  return enrollmentTargetOf(locked);
}

/** Locks the booking (FOR UPDATE) and reads who pays and for what. */
export async function lockBookingTarget(tx: Db, id: string): Promise<LedgerTarget> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  const [b] = await tx.select().from(treatmentBookings).where(eq(treatmentBookings.id, id)).for('update').limit(1);
  if (!b) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  const u = await payerOf(tx, b.userId);
  const [t] = b.treatmentId
    ? await tx
        .select({ name: treatments.treatmentName })
        .from(treatments)
        .where(eq(treatments.id, b.treatmentId))
        .limit(1)
    : [];
  return {
    kind: 'booking',
    id: b.id,
    status: b.status,
    currency: b.currency,
    payerId: b.userId,
    payerName: u?.username ?? b.deletedUsername ?? 'Unknown',
    payerFullName: u?.fullName || null,
    payerEmail: u?.email ?? b.deletedEmail,
    payerBranchId: u?.branchId ?? null,
    subject: t?.name ?? b.treatmentName,
    admissionFee: 0,
    admissionFeeAmountPaid: 0,
  };
}

/** The part of a target its payable items follow from (a booking's id alone: the calendar's Today reads it unlocked). */
export type LedgerItemsKey = Pick<LedgerTarget, 'kind' | 'id' | 'admissionFee' | 'admissionFeeAmountPaid'>;

/** What can be paid on the target, oldest first: the admission fee, then installments by due date. */
export async function itemsOf(tx: Db, target: LedgerItemsKey): Promise<LedgerItem[]> {
  if (target.kind === 'enrollment') {
    const rows = await tx
      .select()
      .from(enrollmentInstallments)
      .where(eq(enrollmentInstallments.enrollmentId, target.id))
      .orderBy(asc(enrollmentInstallments.dueDate), asc(enrollmentInstallments.seq));
    const fee: LedgerItem[] =
      target.admissionFee > 0
        ? [
            {
              kind: 'admission_fee',
              installmentId: null,
              number: null,
              dueDate: null,
              amount: target.admissionFee,
              amountPaid: target.admissionFeeAmountPaid,
            },
          ]
        : [];
    return [
      ...fee,
      ...rows.map((r) => ({
        kind: 'enrollment_installment' as const,
        installmentId: r.id,
        number: r.seq + 1,
        dueDate: r.dueDate,
        amount: r.amount,
        amountPaid: r.amountPaid,
      })),
    ];
  }
  const rows = await bookingInstallmentRows(tx, target.id);
  return rows.map((r) => ({
    kind: 'booking_installment' as const,
    installmentId: r.id,
    number: r.seq + 1,
    dueDate: r.dueDate,
    amount: r.amount,
    amountPaid: r.amountPaid,
  }));
}

/** A booking's instalment rows, by due date: its items, and what its payment status is worked out from. */
export function bookingInstallmentRows(tx: Db, bookingId: string) {
  return tx
    .select()
    .from(bookingInstallments)
    .where(eq(bookingInstallments.bookingId, bookingId))
    .orderBy(asc(bookingInstallments.dueDate), asc(bookingInstallments.seq));
}
