import { z } from 'zod';
import { zStartDay } from '@shared/schemas/start-day';
import { zPaymentMethod } from '@shared/schemas/payment-method';
import { INT4_MAX, INT4_MIN, zId, zInstant, zInt, zText } from '@shared/schemas/primitives';
import { PAYMENT_STATUSES } from '@shared/booking-status';
import { ZPageInput, zSortBy } from '@shared/pagination';

export const SELECT_TREATMENT = 'Please select a treatment.';
export const ENTER_EMAIL = 'Please enter a user email.';
export const USER_NOT_FOUND = 'User not found. Please check the email.';

const treatmentId = zText('Treatment', { message: SELECT_TREATMENT })
  .trim()
  .min(1, SELECT_TREATMENT)
  .max(200, SELECT_TREATMENT);
const userType = z.enum(['local', 'foreign'], { error: 'Please choose a user type: local or foreign.' });
const paymentType = z
  .enum(['full', 'installment'], { error: 'Please choose a payment type: full or installment.' })
  .default('full');

/** The booking screen names the customer by email (docs/product.md#validation, Book treatment). */
export const ZBookTreatmentInput = z.object({
  treatmentId,
  email: zText('User email', { message: ENTER_EMAIL }).trim().min(1, ENTER_EMAIL).max(320, USER_NOT_FOUND),
  userType,
  paymentType,
  /** A day up to 12 months back, for a customer who started earlier (admins only). */
  bookedOn: zStartDay('Booked on'),
});
export type TBookTreatmentInput = z.infer<typeof ZBookTreatmentInput>;

/** POST /api/bookings/book names the customer by id (docs/product.md#rest-paths). */
export const ZBookTreatmentBody = z.object({
  treatmentId,
  userId: zText('User', { message: 'Please select a user.' })
    .trim()
    .min(1, 'Please select a user.')
    .max(200, 'Please select a user.'),
  userType,
  paymentType,
  /** A day up to 12 months back, for a customer who started earlier (admins only). */
  bookedOn: zStartDay('Booked on'),
});

const sessionNumber = zInt(
  'Session number must be a whole number.',
  INT4_MIN,
  INT4_MAX,
  'Session number is out of range.',
);

export const ZSessionNote = z.object({
  sessionNumber,
  note: zText('Note', { multiline: true, message: 'A note must be text.' })
    .max(5000, 'A note must be at most 5000 characters.')
    .default(''),
  date: zInstant('A note date').nullish(),
});

export const ZProgressBody = z
  .object({
    sessionsCompleted: zInt(
      'Sessions completed must be a whole number.',
      INT4_MIN,
      INT4_MAX,
      'Sessions completed is out of range.',
    ).optional(),
    sessionNotes: z.array(ZSessionNote, { error: 'Session notes must be a list.' }).max(1000).optional(),
  })
  .refine((v) => v.sessionsCompleted !== undefined || v.sessionNotes !== undefined, {
    message: 'Send sessionsCompleted or sessionNotes.',
  });
export type TProgressBody = z.infer<typeof ZProgressBody>;

export const ZBookingIdInput = z.object({ id: zId('Booking') });

export const ZSetSessionsInput = z.object({
  id: zId('Booking'),
  sessionsCompleted: zInt(
    'Sessions completed must be a whole number.',
    INT4_MIN,
    INT4_MAX,
    'Sessions completed is out of range.',
  ),
});

export const ZSaveNoteInput = z.object({ id: zId('Booking') }).extend(ZSessionNote.shape);

const isPaid = z.boolean({ error: 'isPaid must be true or false.' });

/** POST /api/bookings/{bookingId}/pay-installment: by position (as the old screen sent) or by id. */
export const ZPayInstallmentBody = z
  .object({
    installmentIndex: zInt(
      'installmentIndex must be a whole number.',
      0,
      INT4_MAX,
      'Installment not found.',
    ).optional(),
    installmentId: zId('Installment').optional(),
    isPaid,
    /** How the money came in when marking paid (docs/payments.md#the-paidunpaid-switch). */
    method: zPaymentMethod.optional(),
  })
  .refine((v) => v.installmentIndex !== undefined || v.installmentId !== undefined, {
    message: 'Please choose an installment.',
  });
export type TPayInstallmentBody = z.infer<typeof ZPayInstallmentBody>;

export const ZSetInstallmentPaidInput = z.object({
  id: zId('Booking'),
  installmentId: zId('Installment'),
  isPaid,
  method: zPaymentMethod.optional(),
});

/**
 * PUT /api/bookings/payment/{bookingId}: the payment status is derived from the installments, so
 * a caller either sets installments' paid flags by position, or marks the whole booking `paid`
 * (every installment paid) or `pending` (none paid). partially_paid and overdue follow from those.
 */
export const ZPaymentBody = z
  .object({
    installments: z
      .array(z.object({ isPaid }), { error: 'installments must be a list of { isPaid }.' })
      .max(200)
      .optional(),
    paymentStatus: z
      .enum(['paid', 'pending'], {
        error: 'paymentStatus can only be set to paid or pending; the other statuses follow from the installments.',
      })
      .optional(),
  })
  .refine((v) => (v.installments === undefined) !== (v.paymentStatus === undefined), {
    message: 'Send either installments or paymentStatus.',
  });
export type TPaymentBody = z.infer<typeof ZPaymentBody>;

const paymentStatus = z.enum(PAYMENT_STATUSES, {
  error: `paymentStatus must be one of ${PAYMENT_STATUSES.join(', ')}.`,
});
const userTypeFilter = z.enum(['local', 'foreign'], { error: 'userType must be local or foreign.' });

/** The columns the bookings list sorts by (its sortable headers); `customer` is the e-mail it shows. */
export const BOOKING_SORT_COLUMNS = [
  'customer',
  'treatmentName',
  'paymentStatus',
  'paymentType',
  'bookedOn',
  'createdAt',
] as const;

export const ZListBookingsInput = ZPageInput.extend({
  /** One customer's bookings (their user screen). */
  userId: zId('User').optional(),
  sortBy: zSortBy(BOOKING_SORT_COLUMNS, 'createdAt'),
  paymentStatus: paymentStatus.optional(),
  userType: userTypeFilter.optional(),
  status: z.enum(['active', 'cancelled']).optional(),
});
export type TListBookingsInput = z.infer<typeof ZListBookingsInput>;

export const ZListBookingsQuery = z.object({
  paymentStatus: z
    .union([z.literal(''), paymentStatus])
    .optional()
    .transform((v) => v || undefined),
  userType: z
    .union([z.literal(''), userTypeFilter])
    .optional()
    .transform((v) => v || undefined),
});
export type TBookingFilters = {
  paymentStatus?: TListBookingsInput['paymentStatus'];
  userType?: TListBookingsInput['userType'];
  status?: TListBookingsInput['status'];
};
