import { eq, sql } from 'drizzle-orm';
import { enrollments, treatmentBookings } from '../../db/schema';
import { AppError } from '../../errors';
import { isAdmin } from '../../../shared/roles';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';

/** Clock skew a browser may have: a payment "received" a minute ahead is now, not the future. */
const FUTURE_TOLERANCE_MS = 60_000;
const DAY_MS = 24 * 60 * 60_000;

export const RECEIVED_IN_FUTURE = 'Received at cannot be in the future.';

export const backdateAdminsOnly = (days: number) =>
  `Only admins and superadmins can record a payment received more than ${days} ${days === 1 ? 'day' : 'days'} ago.`;

export const receivedBeforeRecord = (kind: 'enrollment' | 'booking', day: string) =>
  `Received at cannot be before the ${kind} existed (${day}).`;

/**
 * When a payment may say it was received (docs/payments.md#recording-a-payment): not in the future;
 * a manager at most BACKDATE_DAYS back (an admin further: a late entry of old money is theirs to
 * make); nobody before the enrolment or booking existed, that is before the earlier of its
 * enrolment or booking day (in TIME_ZONE) and the moment it was written down. A typo of 1900 in
 * the date is refused rather than written into the ledger for good.
 */
export async function checkReceivedAt(
  ctx: ServiceContext,
  ref: { kind: 'enrollment' | 'booking'; id: string },
  receivedAt: Date,
): Promise<void> {
  const now = Date.now();
  if (receivedAt.getTime() > now + FUTURE_TOLERANCE_MS) throw new AppError('BAD_REQUEST', RECEIVED_IN_FUTURE);
  const days = ctx.deps.config.BACKDATE_DAYS;
  if (!isAdmin(ctx.actor.role) && receivedAt.getTime() < now - days * DAY_MS) {
    throw new AppError('FORBIDDEN', backdateAdminsOnly(days));
  }
  if (!isUuid(ref.id)) return; // no such record: the transaction answers 404
  const tz = ctx.deps.config.TIME_ZONE;
  const table = ref.kind === 'enrollment' ? enrollments : treatmentBookings;
  const day = ref.kind === 'enrollment' ? enrollments.enrolledOn : treatmentBookings.bookedOn;
  const [record] = await ctx.db
    .select({
      since: sql<Date>`least(${table.createdAt}, (${day}::timestamp at time zone ${tz}))`.mapWith(
        (v: string | Date) => new Date(v),
      ),
    })
    .from(table)
    .where(eq(table.id, ref.id))
    .limit(1);
  // A record that is gone is the transaction's to report (404).
  if (record && receivedAt.getTime() < record.since.getTime()) {
    const shown = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(record.since);
    throw new AppError('BAD_REQUEST', receivedBeforeRecord(ref.kind, shown));
  }
}
