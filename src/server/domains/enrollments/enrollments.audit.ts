/**
 * The audit entries of enrolments (docs/audit.md#what-is-recorded). The toggles of installments and
 * the admission fee are the ledger's (payments/ledger-audit.ts); these are the enrolment's own.
 */
import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { enrollmentInstallments, type enrollments } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import { fieldChanges, recordAudit, type AuditContext } from '../audit/audit.service';
import { lockEnrollmentTarget, type LedgerTarget } from '../payments/ledger-targets';
import { targetName } from '../payments/ledger-audit';

type EnrollmentRow = typeof enrollments.$inferSelect;

/** The enrolment as a person reads it: names beside ids, money as decimals. */
async function view(tx: Db, e: EnrollmentRow, t: LedgerTarget) {
  const [n] = await tx
    .select({ n: count() })
    .from(enrollmentInstallments)
    .where(eq(enrollmentInstallments.enrollmentId, e.id));
  return {
    student: t.payerName,
    course: t.subject,
    paymentType: e.paymentType,
    installments: n?.n ?? 0,
    totalFee: fromMinor(e.totalFee),
    admissionFee: fromMinor(e.admissionFee),
    currency: e.currency,
    enrolledOn: e.enrolledOn,
    status: e.status,
  };
}

const plan = (paymentType: string, parts: number) =>
  paymentType === 'full' ? 'full payment' : `${parts} installment${parts === 1 ? '' : 's'}`;

export async function recordEnrollmentCreated(tx: Db, ctx: AuditContext, e: EnrollmentRow): Promise<void> {
  const t = await lockEnrollmentTarget(tx, e.id);
  const after = await view(tx, e, t);
  await recordAudit(tx, ctx, {
    action: 'create',
    entityType: 'enrollment',
    entityId: e.id,
    summary: `Enrolled ${t.payerName} in ${t.subject} (${plan(after.paymentType, after.installments)})`,
    changes: fieldChanges(null, after),
  });
}

/** Reads what the entry of a plan change or a delete needs before the change. */
export async function enrollmentBefore(tx: Db, e: EnrollmentRow) {
  const t = await lockEnrollmentTarget(tx, e.id);
  return { target: t, view: await view(tx, e, t) };
}

export async function recordPlanChanged(
  tx: Db,
  ctx: AuditContext,
  before: Awaited<ReturnType<typeof enrollmentBefore>>,
  e: EnrollmentRow,
): Promise<void> {
  const after = await view(tx, e, before.target);
  await recordAudit(tx, ctx, {
    action: 'update',
    entityType: 'enrollment',
    entityId: e.id,
    summary: `Changed the payment plan of ${targetName(before.target)} from ${plan(before.view.paymentType, before.view.installments)} to ${plan(after.paymentType, after.installments)}`,
    changes: fieldChanges(before.view, after, { fields: ['paymentType', 'installments'] }),
  });
}

export async function recordEnrollmentCompleted(
  tx: Db,
  ctx: AuditContext,
  e: EnrollmentRow,
  completedAt: Date,
): Promise<void> {
  const t = await lockEnrollmentTarget(tx, e.id);
  await recordAudit(tx, ctx, {
    action: 'complete',
    entityType: 'enrollment',
    entityId: e.id,
    summary: `Completed ${targetName(t)}`,
    changes: [
      { field: 'status', before: e.status, after: 'completed' },
      { field: 'completedAt', before: null, after: completedAt.toISOString() },
    ],
  });
}

/** Call before the delete: the entry reads the installments that go with it. */
export async function recordEnrollmentDeleted(
  tx: Db,
  ctx: AuditContext,
  before: Awaited<ReturnType<typeof enrollmentBefore>>,
  e: EnrollmentRow,
): Promise<void> {
  await recordAudit(tx, ctx, {
    action: 'delete',
    entityType: 'enrollment',
    entityId: e.id,
    summary: `Deleted the enrolment of ${before.target.payerName} in ${before.target.subject}`,
    changes: fieldChanges({ ...before.view, amountPaid: fromMinor(await paidMinor(tx, e)) }, null),
  });
}

/** What the ledger holds against the enrolment (call before its installments go). */
async function paidMinor(tx: Db, e: EnrollmentRow): Promise<number> {
  const rows = await tx
    .select({ paid: enrollmentInstallments.amountPaid })
    .from(enrollmentInstallments)
    .where(eq(enrollmentInstallments.enrollmentId, e.id));
  return rows.reduce((s, r) => s + r.paid, e.admissionFeeAmountPaid);
}
