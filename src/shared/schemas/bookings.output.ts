import { z } from 'zod';
import { PAYMENT_STATUSES } from '@shared/booking-status';
import { ZInstallment } from '@shared/schemas/installments.output';
import { zDayOut, zInstantOut, zIntOut, zMoneyOut, zPageOf, zRecordOut } from '@shared/schemas/output';

/** docs/product.md#records-and-their-fields Treatment booking, with populated `userId` and `treatmentId`. */
export const ZBooking = zRecordOut({
  // fullName beyond the spec's populated fields: the front desk names people by it (docs/users.md).
  userId: z.object({ _id: z.string(), username: z.string(), email: z.string(), fullName: z.string() }).nullable(),
  deletedUsername: z.string().nullable(),
  deletedEmail: z.string().nullable(),
  /** What was sold: `_id` is null once the treatment is deleted; the name is then the kept copy. */
  treatmentId: z.object({ _id: z.string().nullable(), treatmentName: z.string(), maxSessions: zIntOut }),
  userType: z.enum(['local', 'foreign']),
  paymentType: z.enum(['full', 'installment']),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  price: zMoneyOut,
  currency: z.string(),
  treatmentPeriod: z.object({ startDate: zDayOut, endDate: zDayOut }).nullable(),
  sessionsCompleted: zIntOut,
  sessionNotes: z.array(z.object({ sessionNumber: zIntOut, note: z.string(), date: zInstantOut.nullable() })),
  installments: z.array(ZInstallment),
  status: z.enum(['active', 'cancelled']),
  cancelledAt: zInstantOut.nullable(),
  bookedOn: zDayOut,
});
export type TBooking = z.infer<typeof ZBooking>;

export const ZBookingPage = zPageOf(ZBooking);
export const ZBookingList = z.array(ZBooking);

/** POST /api/bookings/{bookingId}/pay-installment. */
export const ZPayInstallmentAnswer = z.object({ success: z.literal(true), message: z.string() });
