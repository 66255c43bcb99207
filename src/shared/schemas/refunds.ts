import { z } from 'zod';
import { ALLOCATION_KINDS, PAYMENT_METHODS } from '@shared/payment-kinds';
import { zCountOut, zDayOut, zInstantOut, zMoneyOut } from '@shared/schemas/output';
import { ZAdjustmentList } from '@shared/schemas/adjustments';
import { ZAllocationInput, zAmount } from '@shared/schemas/payments';
import { zPaymentMethod } from '@shared/schemas/payment-method';
import { blankToUndefined, restPageFields, zId, zOptionalDay, zOptionalText, zText } from '@shared/schemas/primitives';

/** docs/payments.md#refunds: the user-facing texts of the refund rules. */
export const REFUND_MESSAGES = {
  reason: 'A reason is required to refund a payment.',
  method: 'Method is required: cash, card, bank_transfer, cheque, online or other.',
  admins: 'Only admins and superadmins can refund payments.',
  notFound: 'Refund not found.',
  void: 'A void payment cannot be refunded.',
  full: 'This payment has been refunded in full.',
  noTarget: 'The enrollment or booking of this payment no longer exists.',
  sum: 'The allocations must add up to the amount.',
  notPaid: 'This payment did not pay that item.',
  cannotVoid: (refunded: string) =>
    `This payment has been refunded (${refunded}); a refunded payment cannot be voided. Only money that was never really paid is voided.`,
} as const;

const zRefundMethod = z.enum(PAYMENT_METHODS, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? REFUND_MESSAGES.method
      : 'Method must be cash, card, bank_transfer, cheque, online or other.',
});

/** POST /api/payments/{id}/refunds. */
export const ZRefundBody = z.object({
  amount: zAmount(),
  method: zRefundMethod,
  reference: zOptionalText('Reference', 100),
  reason: zText('Reason', { message: REFUND_MESSAGES.reason })
    .trim()
    .min(1, REFUND_MESSAGES.reason)
    .max(500, 'Reason must be at most 500 characters.'),
  /** Which items are owed again, shaped as a payment's allocations; newest item first without them. */
  allocations: z
    .array(ZAllocationInput)
    .min(1, 'Allocations, when given, need at least one entry.')
    .max(100)
    .optional(),
});
export type TRefundBody = z.infer<typeof ZRefundBody>;
export const ZRefundPaymentInput = ZRefundBody.extend({ paymentId: zId('Payment') });
export type TRefundPaymentInput = z.infer<typeof ZRefundPaymentInput>;

export const ZRefundIdInput = z.object({ id: zId('Refund') });

/** GET /api/refunds and `refunds.list`: days in TIME_ZONE, newest first. */
export const ZListRefundsInput = z
  .object({
    from: zOptionalDay('From'),
    to: zOptionalDay('To'),
    branchId: zOptionalText('Branch', 200),
    method: z.preprocess(blankToUndefined, zPaymentMethod.optional()),
    paymentId: zOptionalText('Payment', 200),
    /** One enrolment's or booking's refunds (the details screens' money history). */
    enrollmentId: zOptionalText('Enrollment', 200),
    bookingId: zOptionalText('Booking', 200),
    ...restPageFields,
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'From must be on or before To.', path: ['to'] });
export type TListRefundsInput = z.infer<typeof ZListRefundsInput>;

const ZKeptUser = z.object({ _id: z.string().nullable(), username: z.string() });

/** A refund as the API answers it (docs/payments.md#refunds). */
export const ZRefund = z.object({
  _id: z.string(),
  payment: z.object({ _id: z.string(), receiptNumber: z.string() }),
  creditNoteNumber: z.string(),
  amount: zMoneyOut,
  currency: z.string(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string().nullable(),
  reason: z.string(),
  refundedBy: ZKeptUser,
  refundedAt: zInstantOut,
  branch: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  /** `fullName` as the payment recorded it (null when none was), as the credit note prints it. */
  payer: z.object({
    _id: z.string().nullable(),
    username: z.string(),
    fullName: z.string().nullable(),
    email: z.string().nullable(),
  }),
  enrollmentId: z.string().nullable(),
  bookingId: z.string().nullable(),
  subject: z.string(),
  allocations: z.array(
    z.object({
      kind: z.enum(ALLOCATION_KINDS),
      installmentId: z.string().or(z.undefined()),
      installmentNumber: z.number().int().nullable(),
      dueDate: zDayOut.nullable(),
      amount: zMoneyOut,
    }),
  ),
});
export type TRefund = z.infer<typeof ZRefund>;

const ZCurrencyTotal = z.object({ currency: z.string(), amount: zMoneyOut, count: zCountOut });
export const ZRefundList = z.object({
  data: z.array(ZRefund),
  total: zCountOut,
  page: z.number().int(),
  /** The refunds' sums per currency over every page. */
  totals: z.array(ZCurrencyTotal),
});
export type TRefundList = z.infer<typeof ZRefundList>;

export const ZCreditNoteQueued = z.object({ message: z.string(), jobId: z.string() });

/**
 * "Fee waived, money returned" as one action: the refund and, on each item it made owed again, a
 * discount of the part refunded, so the record owes what it owed before (docs/payments.md#refunds).
 */
export const ZRefundWaived = z.object({ refund: ZRefund, adjustments: ZAdjustmentList });
export type TRefundWaived = z.infer<typeof ZRefundWaived>;
