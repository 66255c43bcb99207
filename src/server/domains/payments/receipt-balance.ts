/**
 * The balance a receipt prints (docs/payments.md#receipts): what was still owed on the enrolment
 * or booking right after the payment. It is stored on the payment as it is written, because a
 * reprint a month later must say what the first print said, whatever was paid or voided since.
 */
import type { Db } from '../../db/client';
import { itemsOf, outstandingOf, type LedgerItemsKey } from './ledger-targets';

/** What is owed on the target now, in minor units; called inside the paying transaction (and by Today). */
export async function outstandingNow(tx: Db, target: LedgerItemsKey): Promise<number> {
  const items = await itemsOf(tx, target);
  return items.reduce((sum, i) => sum + Math.max(0, outstandingOf(i)), 0);
}
