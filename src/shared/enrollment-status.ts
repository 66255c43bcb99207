/**
 * Enrollment display status (docs/product.md#states), the one derivation shared by server answers,
 * reports and the client so that a badge and a report never disagree.
 */
export const DISPLAY_STATUSES = ['Pending Payment', 'Active (Partial)', 'Active (Paid)', 'Completed'] as const;
export type DisplayStatus = (typeof DISPLAY_STATUSES)[number];

/** The stored status as the API speaks it ('Completed' is the spelling the old client saw). */
export const ENROLLMENT_STATUSES = ['Active', 'Completed'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

export interface DisplayStatusInput {
  status: string;
  admissionFeePaid: boolean;
  /** A zero admission fee has nothing to pay, so it counts as settled. */
  admissionFee?: number;
  installments: ReadonlyArray<{ isPaid: boolean; amountPaid?: number }>;
  /** What has been paid of the admission fee (any unit): a part-payment makes the enrolment active. */
  admissionFeeAmountPaid?: number;
}

export function isAdmissionSettled(e: Pick<DisplayStatusInput, 'admissionFeePaid' | 'admissionFee'>): boolean {
  return e.admissionFeePaid || e.admissionFee === 0;
}

export function isFullyPaid(e: DisplayStatusInput): boolean {
  return isAdmissionSettled(e) && e.installments.every((i) => i.isPaid);
}

export function enrollmentDisplayStatus(e: DisplayStatusInput): DisplayStatus {
  const fullyPaid = isFullyPaid(e);
  if (fullyPaid && e.status.toLowerCase() === 'completed') return 'Completed';
  if (fullyPaid) return 'Active (Paid)';
  // A zero admission fee is settled but is not a payment the student made.
  // Any money allocated counts, a part of an installment too (docs/payments.md#statuses).
  const anyPayment =
    e.admissionFeePaid ||
    (e.admissionFeeAmountPaid ?? 0) > 0 ||
    e.installments.some((i) => i.isPaid || (i.amountPaid ?? 0) > 0);
  return anyPayment ? 'Active (Partial)' : 'Pending Payment';
}
