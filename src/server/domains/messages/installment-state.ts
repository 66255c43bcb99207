import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bookingInstallments, enrollmentInstallments, enrollments, treatmentBookings } from '../../db/schema';
import type { SkipReason } from '@shared/schemas/messages';

/**
 * Why a notice about an installment must not go any more, or null while it is still owed: `paid`
 * when it was paid since it was planned, `no_longer_due` when its enrolment or booking is no longer
 * active or it was deleted. Read in the send's transaction, just before sending.
 */
export async function installmentGone(tx: Db, installmentId: string): Promise<SkipReason | null> {
  const [e] = await tx
    .select({ isPaid: enrollmentInstallments.isPaid, status: enrollments.status })
    .from(enrollmentInstallments)
    .innerJoin(enrollments, eq(enrollments.id, enrollmentInstallments.enrollmentId))
    .where(eq(enrollmentInstallments.id, installmentId))
    .limit(1);
  const [row] = e
    ? [e]
    : await tx
        .select({ isPaid: bookingInstallments.isPaid, status: treatmentBookings.status })
        .from(bookingInstallments)
        .innerJoin(treatmentBookings, eq(treatmentBookings.id, bookingInstallments.bookingId))
        .where(eq(bookingInstallments.id, installmentId))
        .limit(1);
  if (!row) return 'no_longer_due';
  if (row.isPaid) return 'paid';
  return row.status === 'active' ? null : 'no_longer_due';
}
