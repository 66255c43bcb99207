import { countEvents, type EventLimit } from '../../auth/rate-events';
import type { ServiceContext } from '../context';

/**
 * Receipt e-mails (docs/payments.md#receipts): a payer gets a receipt again when they ask, not a
 * flood of them, and one account cannot use the ledger to mail people by the hundred.
 */
export const RECEIPT_EMAILS_PER_PAYMENT: EventLimit = {
  bucket: 'receipt-email:payment',
  max: 3,
  windowMs: 60 * 60_000,
  message: 'This receipt has been e-mailed 3 times in the last hour. Please try again later.',
};
export const RECEIPT_EMAILS_PER_SENDER: EventLimit = {
  bucket: 'receipt-email:sender',
  max: 30,
  windowMs: 60 * 60_000,
  message: 'You have e-mailed 30 receipts in the last hour. Please try again later.',
};

/** Counts one receipt e-mail of `paymentId` by the caller, or refuses with 429 and Retry-After. */
export function countReceiptEmail(ctx: ServiceContext, paymentId: string): Promise<void> {
  return countEvents(ctx.db, [
    { limit: RECEIPT_EMAILS_PER_PAYMENT, key: paymentId },
    { limit: RECEIPT_EMAILS_PER_SENDER, key: ctx.actor.id },
  ]);
}
