import { createFileRoute } from '@tanstack/react-router';
import { PaymentsPage } from '@/features/payments/payments-page';
import { paymentsRoute } from '@/features/payments/payment-queries';

export const Route = createFileRoute('/_admin/payments')({ ...paymentsRoute, component: PaymentsPage });
