/**
 * The question Mark as Unpaid asks before it acts: which receipts it would void, or which receipt
 * makes it refuse (docs/payments.md#the-paidunpaid-switch). The same plan the toggle follows.
 */
import { and, eq } from 'drizzle-orm';
import { bookingInstallments, enrollmentInstallments, enrollments, treatmentBookings } from '../../db/schema';
import { AppError } from '../../errors';
import type { ServiceContext } from '../context';
import { assertRecordInScope } from '../branch-scope';
import { assertId, isUuid } from '../ids';
import { fromMinor } from '../../../shared/money';
import type { TUnmarkPreview, TUnmarkPreviewInput } from '@shared/schemas/unmark';
import { BOOKING_NOT_FOUND, ENROLLMENT_NOT_FOUND } from './ledger-targets';
import { settledTogether, unmarkPlan, type UnmarkItem } from './unmark-plan';

export async function unmarkPreview(ctx: ServiceContext, input: TUnmarkPreviewInput): Promise<TUnmarkPreview> {
  const ref = input.enrollmentId
    ? { kind: 'enrollment' as const, id: input.enrollmentId, notFound: ENROLLMENT_NOT_FOUND }
    : { kind: 'booking' as const, id: input.bookingId ?? '', notFound: BOOKING_NOT_FOUND };
  assertId(ref.id, ref.kind === 'enrollment' ? 'Enrollment' : 'Booking');
  await assertRecordInScope(ctx, ref.kind, ref.id, ref.notFound);
  const table = ref.kind === 'enrollment' ? enrollments : treatmentBookings;
  const [exists] = await ctx.db.select({ id: table.id }).from(table).where(eq(table.id, ref.id)).limit(1);
  if (!exists) throw new AppError('NOT_FOUND', ref.notFound);
  const installmentId = input.installmentId ?? null;
  if (installmentId !== null && !(await installmentOf(ctx, ref, installmentId)))
    throw new AppError('NOT_FOUND', 'Installment not found.');
  const item: UnmarkItem =
    installmentId === null
      ? { kind: 'admission_fee', installmentId: null }
      : { kind: ref.kind === 'enrollment' ? 'enrollment_installment' : 'booking_installment', installmentId };
  const plan = await unmarkPlan(ctx.db, ref, item);
  return {
    payments: plan.voids.map((p) => ({
      _id: p.id,
      receiptNumber: p.receiptNumber,
      amount: fromMinor(p.amount),
      method: p.method,
      receivedAt: p.receivedAt.toISOString(),
    })),
    blockedBy: plan.blockedBy?.receiptNumber ?? null,
    message: plan.blockedBy ? settledTogether(plan.blockedBy.receiptNumber) : null,
  };
}

/** Whether the installment is one of that record's: another record's, or none, is not found. */
async function installmentOf(ctx: ServiceContext, ref: { kind: 'enrollment' | 'booking'; id: string }, id: string) {
  if (!isUuid(id)) return false;
  const [row] =
    ref.kind === 'enrollment'
      ? await ctx.db
          .select({ id: enrollmentInstallments.id })
          .from(enrollmentInstallments)
          .where(and(eq(enrollmentInstallments.id, id), eq(enrollmentInstallments.enrollmentId, ref.id)))
          .limit(1)
      : await ctx.db
          .select({ id: bookingInstallments.id })
          .from(bookingInstallments)
          .where(and(eq(bookingInstallments.id, id), eq(bookingInstallments.bookingId, ref.id)))
          .limit(1);
  return Boolean(row);
}
