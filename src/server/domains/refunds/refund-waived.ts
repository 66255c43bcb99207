/**
 * "Fee waived, money returned" (docs/payments.md#fee-waived-money-returned): a refund and, on each
 * item the refund made owed again, a discount of exactly the part refunded, in one transaction. The
 * record ends owing what it owed before; the money went back and the fee came down by as much.
 * Either both happen or neither: a refund the discount cannot follow (a cancelled booking, a
 * payment with no record left) is refused whole.
 */
import { eq } from 'drizzle-orm';
import { refunds } from '../../db/schema';
import { AppError } from '../../errors';
import { isAdmin } from '../../../shared/roles';
import { REFUND_MESSAGES, type TRefundPaymentInput, type TRefundWaived } from '@shared/schemas/refunds';
import type { TAdjustment } from '@shared/schemas/adjustments';
import type { ServiceContext } from '../context';
import { invalidateReads } from '../read-cache';
import { createAdjustment } from '../adjustments/adjustments.service';
import { refundPayment } from './refunds.service';

export async function refundWithFeeWaived(ctx: ServiceContext, input: TRefundPaymentInput): Promise<TRefundWaived> {
  if (!isAdmin(ctx.actor.role)) throw new AppError('FORBIDDEN', REFUND_MESSAGES.admins);
  const result = await ctx.db.transaction(async (tx) => {
    // Both services run on this transaction (theirs become savepoints of it), so the record's
    // lock the refund takes is held until the discounts are written and everything commits together.
    const inTx: ServiceContext = { ...ctx, db: tx };
    const refund = await refundPayment(inTx, input);
    const record = refund.enrollmentId
      ? { enrollmentId: refund.enrollmentId }
      : refund.bookingId
        ? { bookingId: refund.bookingId }
        : null;
    if (!record) throw new AppError('CONFLICT', REFUND_MESSAGES.noTarget);
    // Marked so the credit note says what its items were refunded for, not that they are owed again.
    await tx.update(refunds).set({ feeWaived: true }).where(eq(refunds.id, refund._id));
    const adjustments: TAdjustment[] = [];
    for (const part of refund.allocations) {
      const itemId = part.kind === 'admission_fee' ? 'admission_fee' : part.installmentId;
      adjustments.push(
        await createAdjustment(inTx, {
          ...record,
          body: { kind: 'discount', amount: part.amount, itemId, reason: `Fee waived: ${input.reason}`.slice(0, 500) },
        }),
      );
    }
    return { refund, adjustments };
  });
  invalidateReads(ctx.deps);
  return result;
}
