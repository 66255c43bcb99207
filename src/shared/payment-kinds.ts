/** The ledger's fixed vocabularies (docs/payments.md); also read by the database schema, so no imports. */
export const PAYMENT_METHODS = ['cash', 'card', 'bank_transfer', 'cheque', 'online', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  card: 'Card',
  bank_transfer: 'Bank transfer',
  cheque: 'Cheque',
  online: 'Online',
  other: 'Other',
};

export const ALLOCATION_KINDS = ['admission_fee', 'enrollment_installment', 'booking_installment'] as const;
export type AllocationKind = (typeof ALLOCATION_KINDS)[number];
