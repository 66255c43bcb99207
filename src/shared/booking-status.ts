/**
 * Treatment booking payment rules shared by the server (which stores the status) and the client
 * (which draws badges and the progress bar), so both always agree (docs/treatments.md, Treatment bookings).
 */
import { valuesOf } from './vocabulary';

export const PAYMENT_STATUS_LABELS = {
  pending: 'Pending',
  partially_paid: 'Partially Paid',
  paid: 'Paid',
  overdue: 'Overdue',
};
export const PAYMENT_STATUSES = valuesOf(PAYMENT_STATUS_LABELS);
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface InstallmentLike {
  isPaid: boolean;
  /** YYYY-MM-DD */
  dueDate: string;
  /** What has been paid of it so far (any unit); a part-payment makes the booking partially paid. */
  amountPaid?: number;
}

/**
 * nothing paid -> pending, all paid -> paid, otherwise (a part of one is enough) partially_paid; an unpaid installment whose
 * due date is before `today` (YYYY-MM-DD, clinic time zone) makes it overdue until it is paid.
 */
export function computePaymentStatus(
  installments: readonly InstallmentLike[],
  today: string,
  fallback: PaymentStatus = 'pending',
): PaymentStatus {
  if (installments.length === 0) return fallback;
  if (installments.some((i) => !i.isPaid && i.dueDate < today)) return 'overdue';
  const paid = installments.filter((i) => i.isPaid).length;
  if (paid === 0) return installments.some((i) => (i.amountPaid ?? 0) > 0) ? 'partially_paid' : 'pending';
  return paid === installments.length ? 'paid' : 'partially_paid';
}

/** docs/product.md#states: paid installments over all; without installments 100 when paid, else 0. */
export function paymentCompletionPercentage(
  installments: ReadonlyArray<{ isPaid: boolean }>,
  paymentStatus: string | null | undefined,
): number {
  if (installments.length === 0) return paymentStatus === 'paid' ? 100 : 0;
  return Math.round((installments.filter((i) => i.isPaid).length / installments.length) * 100);
}

/** Bar colour: green at 100, orange above 0, red at 0. */
export function progressColor(percentage: number): 'green' | 'orange' | 'red' {
  if (percentage >= 100) return 'green';
  if (percentage > 0) return 'orange';
  return 'red';
}
