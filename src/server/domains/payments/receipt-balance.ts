/**
 * The balance a receipt prints (docs/payments.md#receipts): what was still owed on the enrolment
 * or booking right after the payment. It is stored on the payment as it is written, because a
 * reprint a month later must say what the first print said, whatever was paid or voided since.
 */
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bookingInstallments } from '../../db/schema';
import { itemsOf, outstandingOf, type LedgerItemsKey } from './ledger-targets';

/** What is owed on the target now, in minor units; called inside the paying transaction (and by Today). */
export async function outstandingNow(tx: Db, target: LedgerItemsKey): Promise<number> {
  const items = await itemsOf(tx, target);
  return items.reduce((sum, i) => sum + Math.max(0, outstandingOf(i)), 0);
}

/**
 * What is owed now on each of many bookings, in minor units, in one grouped statement: the same
 * sum as outstandingNow (each instalment's amount less what is paid on it, never below zero), for
 * a list that shows many bookings at once (the calendar's Today).
 */
export async function bookingsOutstandingNow(db: Db, bookingIds: string[]): Promise<Map<string, number>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .select({
      bookingId: bookingInstallments.bookingId,
      owed: sql<number>`coalesce(sum(greatest(${bookingInstallments.amount} - ${bookingInstallments.amountPaid}, 0)), 0)`.mapWith(
        Number,
      ),
    })
    .from(bookingInstallments)
    .where(inArray(bookingInstallments.bookingId, bookingIds))
    .groupBy(bookingInstallments.bookingId);
  return new Map(rows.map((r) => [r.bookingId, r.owed]));
}
