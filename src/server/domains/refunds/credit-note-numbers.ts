/**
 * Credit note numbers (docs/payments.md#credit-notes): `CN-` and the receipt prefix of the
 * payment's series, the year, and a number of their own within both, e.g. CN-COL-2026-000001.
 * Allocated as receipt numbers are: a counter row incremented inside the refunding transaction,
 * so concurrent refunds of one branch queue on it, a refund that fails gives its number back, and
 * the numbers have no gaps.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditNoteCounters } from '../../db/schema';
import { prefixOf } from '../payments/receipt-numbers';

export async function nextCreditNoteNumber(
  tx: Db,
  series: string,
  branchName: string | null | undefined,
  year: number,
): Promise<{ seq: number; creditNoteNumber: string }> {
  const prefix = await prefixOf(tx, series, branchName);
  const [row] = await tx
    .insert(creditNoteCounters)
    .values({ series, year, last: 1 })
    .onConflictDoUpdate({
      target: [creditNoteCounters.series, creditNoteCounters.year],
      set: { last: sql`${creditNoteCounters.last} + 1` },
    })
    .returning({ last: creditNoteCounters.last });
  if (!row) throw new Error('credit note counter did not answer');
  return { seq: row.last, creditNoteNumber: `CN-${prefix}-${year}-${String(row.last).padStart(6, '0')}` };
}
