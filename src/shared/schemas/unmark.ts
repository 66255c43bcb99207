import { z } from 'zod';
import { PAYMENT_METHODS } from '@shared/payment-kinds';
import { zInstantOut, zMoneyOut } from '@shared/schemas/output';
import { zOptionalText } from '@shared/schemas/primitives';

export const UNMARK_NO_RECORD = 'Choose the enrollment or the booking.';
export const UNMARK_NO_INSTALLMENT = 'A booking installment is required.';

/**
 * Which item Mark as Unpaid is about: an enrolment's admission fee (no installment), an
 * enrolment's installment, or a booking's installment.
 */
export const ZUnmarkPreviewInput = z
  .object({
    enrollmentId: zOptionalText('Enrollment', 200),
    bookingId: zOptionalText('Booking', 200),
    installmentId: zOptionalText('Installment', 200),
  })
  .refine((v) => Boolean(v.enrollmentId) !== Boolean(v.bookingId), { message: UNMARK_NO_RECORD })
  .refine((v) => !v.bookingId || Boolean(v.installmentId), { message: UNMARK_NO_INSTALLMENT });
export type TUnmarkPreviewInput = z.infer<typeof ZUnmarkPreviewInput>;

/** What an unmark would void; `blockedBy` names the receipt that makes it refuse (409). */
export const ZUnmarkPreview = z.object({
  payments: z.array(
    z.object({
      _id: z.string(),
      receiptNumber: z.string(),
      amount: zMoneyOut,
      method: z.enum(PAYMENT_METHODS),
      receivedAt: zInstantOut,
    }),
  ),
  blockedBy: z.string().nullable(),
  message: z.string().nullable(),
});
export type TUnmarkPreview = z.infer<typeof ZUnmarkPreview>;
