import { Badge } from '@/components/ui/badge';
import { PAYMENT_STATUS_LABELS, type PaymentStatus } from '@shared/booking-status';

const VARIANT = { pending: 'secondary', partially_paid: 'warning', paid: 'success', overdue: 'destructive' } as const;

/** docs/product.md#states: pending, partially paid, paid, overdue (red). */
export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return (
    <Badge variant={VARIANT[status]} data-testid="payment-status" data-status={status}>
      {PAYMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
