import { z } from 'zod';
import { hasAtMostTwoDecimals } from '@shared/money';
import { ZPageInput, zSortBy } from '@shared/pagination';
import {
  ALLOCATION_KINDS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type AllocationKind,
  type PaymentMethod,
} from '@shared/payment-kinds';
import { zPaymentMethod } from '@shared/schemas/payment-method';
import {
  blankToUndefined,
  MAX_MONEY,
  restPageFields,
  zId,
  zInstant,
  zOptionalDay,
  zOptionalText,
  zText,
} from '@shared/schemas/primitives';

export { PAYMENT_METHODS, PAYMENT_METHOD_LABELS, ALLOCATION_KINDS, type PaymentMethod, type AllocationKind };

export const AMOUNT_INVALID = 'Amount must be greater than 0 with at most two decimals.';
export const NO_TARGET = 'Choose the enrollment or the booking this payment is for.';

/** A positive amount with at most two decimals, within what the money columns hold. */
export const zAmount = (message = AMOUNT_INVALID) =>
  z
    .number({ error: message })
    .refine((n) => Number.isFinite(n) && n > 0 && n <= MAX_MONEY && hasAtMostTwoDecimals(n), message);

export { zPaymentMethod };

export const METHOD_REQUIRED = 'Method is required: cash, card, bank_transfer, cheque, online or other.';

/**
 * A ledger does not guess how money came in: a payment names its method (the screens always send
 * one), and a missing one is refused rather than recorded as cash.
 */
const zRecordMethod = z.enum(PAYMENT_METHODS, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? METHOD_REQUIRED
      : 'Method must be cash, card, bank_transfer, cheque, online or other.',
});

export const ZAllocationInput = z.object({
  kind: z.enum(ALLOCATION_KINDS, {
    error: 'Allocation kind must be admission_fee, enrollment_installment or booking_installment.',
  }),
  installmentId: zOptionalText('Installment', 200),
  amount: zAmount('Each allocation amount must be greater than 0 with at most two decimals.'),
});

export const ZRecordPaymentInput = z
  .object({
    enrollmentId: zOptionalText('Enrollment', 200),
    bookingId: zOptionalText('Booking', 200),
    amount: zAmount(),
    method: zRecordMethod,
    /** When given, must be the record's own currency (a USD booking is paid in USD). */
    currency: zOptionalText('Currency', 3),
    reference: zOptionalText('Reference', 100),
    note: zOptionalText('Note', 500),
    /** Defaults to now; may be back-dated, never in the future. */
    receivedAt: z.preprocess(blankToUndefined, zInstant('Received at').optional()),
    allocations: z
      .array(ZAllocationInput)
      .min(1, 'Allocations, when given, need at least one entry.')
      .max(100)
      .optional(),
  })
  .refine((v) => Boolean(v.enrollmentId) !== Boolean(v.bookingId), { message: NO_TARGET, path: ['enrollmentId'] });
export type TRecordPaymentInput = z.infer<typeof ZRecordPaymentInput>;

export const ZVoidPaymentInput = z.object({
  id: zId('Payment'),
  reason: zText('Reason', { message: 'A reason is required to void a payment.' })
    .trim()
    .min(1, 'A reason is required to void a payment.')
    .max(500, 'Reason must be at most 500 characters.'),
});
export type TVoidPaymentInput = z.infer<typeof ZVoidPaymentInput>;

export const ZPaymentIdInput = z.object({ id: zId('Payment') });

/** A From after its To would silently answer nothing: refused instead, naming the fields as labelled. */
const daysInOrder: [(f: { from?: string; to?: string }) => boolean, { message: string; path: string[] }] = [
  (f) => !f.from || !f.to || f.from <= f.to,
  { message: 'From must be on or before To.', path: ['to'] },
];

export const ZPaymentFilters = z.object({
  from: zOptionalDay('From'),
  to: zOptionalDay('To'),
  branchId: zOptionalText('Branch', 200),
  method: z.preprocess(blankToUndefined, zPaymentMethod.optional()),
  receivedBy: zOptionalText('Cashier', 200),
  /** One payer's payments (their user screen). */
  payerId: zOptionalText('Payer', 200),
  status: z.preprocess(
    blankToUndefined,
    z.enum(['valid', 'void'], { error: 'Status must be valid or void.' }).optional(),
  ),
});
export type TPaymentFilters = z.infer<typeof ZPaymentFilters>;

/** The columns the Payments list sorts by (its sortable headers); newest first by default. */
export const PAYMENT_SORT_COLUMNS = [
  'receivedAt',
  'receiptNumber',
  'payer',
  'amount',
  'method',
  'receivedBy',
  'status',
] as const;

export const ZListPaymentsInput = ZPageInput.extend({
  ...ZPaymentFilters.shape,
  sortBy: zSortBy(PAYMENT_SORT_COLUMNS, 'receivedAt'),
}).refine(...daysInOrder);
export type TListPaymentsInput = z.infer<typeof ZListPaymentsInput>;

export const ZCashUpInput = z
  .object({
    from: zOptionalDay('From'),
    to: zOptionalDay('To'),
    branchId: zOptionalText('Branch', 200),
  })
  .refine(...daysInOrder);
export type TCashUpInput = z.infer<typeof ZCashUpInput>;

export const ZPaymentsOfInput = z.object({ id: zId('Record') });

/** GET /api/payments: the filters as query strings, `page` and `limit` as the documented names. */
export const ZListPaymentsQuery = ZPaymentFilters.extend({
  search: z.preprocess(
    blankToUndefined,
    zText('Search').trim().max(200, 'Search must be at most 200 characters.').optional(),
  ),
  ...restPageFields,
}).refine(...daysInOrder);

export const ZDashboardInput = z.object({ branchId: zOptionalText('Branch', 200) });
export type TDashboardInput = z.infer<typeof ZDashboardInput>;
