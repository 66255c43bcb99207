/** The vocabularies of adjustments (docs/payments.md#adjustments); also read by the database schema, so no imports. */
export const ADJUSTMENT_KINDS = ['discount', 'scholarship', 'write_off'] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];

export const ADJUSTMENT_KIND_LABELS: Record<AdjustmentKind, string> = {
  discount: 'Discount',
  scholarship: 'Scholarship',
  write_off: 'Write-off',
};

export const ADJUSTMENT_STATUSES = ['applied', 'pending', 'revoked', 'rejected'] as const;
export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];
