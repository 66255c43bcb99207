/**
 * Receipt numbers (docs/payments.md#receipt-numbers): a prefix per series (a branch, or people
 * without one), the year, and a counter with no gaps, e.g. GAL-2026-000042.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { receiptCounters, receiptPrefixes } from '../../db/schema';

/** Three capital letters of the branch name (Galle → GAL); GEN for people without a branch. */
export function branchCode(name: string | null | undefined): string {
  const letters = (name ?? '')
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 3)
    .toUpperCase();
  return letters || 'GEN';
}

/**
 * The series' prefix, claimed with its first receipt: the branch code, or, when another series
 * already prints it ("Kandy" and "Kandy City"), the code with the lowest free number (KAN2).
 * A concurrent claim of the same prefix waits on the unique index and then tries the next one.
 */
export async function prefixOf(tx: Db, series: string, name: string | null | undefined): Promise<string> {
  const code = branchCode(name);
  for (let n = 1; ; n++) {
    const [known] = await tx
      .select({ prefix: receiptPrefixes.prefix })
      .from(receiptPrefixes)
      .where(eq(receiptPrefixes.series, series))
      .limit(1);
    if (known) return known.prefix;
    const candidate = n === 1 ? code : `${code}${n}`;
    const [claimed] = await tx
      .insert(receiptPrefixes)
      .values({ series, prefix: candidate })
      .onConflictDoNothing()
      .returning({ prefix: receiptPrefixes.prefix });
    if (claimed) return claimed.prefix;
  }
}

/**
 * The next number of a series and year. The counter row is incremented inside the paying
 * transaction: concurrent payments of one branch wait for each other here, and a payment that
 * rolls back gives its number back, so numbers have no gaps. The prefix is found (or claimed)
 * first, so the counter is held for as short a time as the payment allows.
 */
export async function nextReceiptNumber(tx: Db, series: string, branchName: string | null | undefined, year: number) {
  const prefix = await prefixOf(tx, series, branchName);
  const [row] = await tx
    .insert(receiptCounters)
    .values({ series, year, last: 1 })
    .onConflictDoUpdate({
      target: [receiptCounters.series, receiptCounters.year],
      set: { last: sql`${receiptCounters.last} + 1` },
    })
    .returning({ last: receiptCounters.last });
  if (!row) throw new Error('receipt counter did not answer');
  return { seq: row.last, receiptNumber: `${prefix}-${year}-${String(row.last).padStart(6, '0')}` };
}
