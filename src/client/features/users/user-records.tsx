import { BookingLink, KeptName, TreatmentLink } from '@/components/record-links';
import { RELATED_PAGE_SIZE, RelatedCard } from '@/components/related-card';
import { Badge } from '@/components/ui/badge';
import { trpc } from '@/lib/trpc';
import { formatDate, formatDateTime, formatMoney } from '@shared/format';
import { PaymentStatusBadge } from '@/features/bookings/payment-status-badge';
import { RelatedEnrollments } from '@/features/enrollments/related-enrollments';
import { PAYMENT_METHOD_LABELS } from '@/features/payments/payment-common';

const RIGHT = { headClassName: 'text-right', className: 'text-right tabular-nums' };

/** Everything a user has with the institute and the clinic: enrolments, bookings, payments. */
export function UserRecords({ userId }: { userId: string }) {
  return (
    <>
      <RelatedEnrollments of={{ userId }} />
      <RelatedCard
        title="Treatment Bookings"
        label="Treatment bookings"
        query={(page) =>
          trpc.bookings.list.queryOptions({ userId, page, pageSize: RELATED_PAGE_SIZE, sortDir: 'desc' })
        }
        empty="No bookings yet."
        rowTestId="related-booking"
        columns={[
          {
            header: 'Treatment',
            wrap: true,
            cell: (b) => (
              <KeptName kept={b.treatmentId.treatmentName}>
                {b.treatmentId._id && <TreatmentLink name={b.treatmentId.treatmentName} />}
              </KeptName>
            ),
          },
          { header: 'Booked On', cell: (b) => formatDate(b.bookedOn) },
          { header: 'Price', ...RIGHT, cell: (b) => formatMoney(b.price, b.currency) },
          { header: 'Payment Status', cell: (b) => <PaymentStatusBadge status={b.paymentStatus} /> },
          {
            header: 'Details',
            headClassName: 'text-right',
            className: 'text-right',
            cell: (b) => (
              <BookingLink id={b._id} label={`View booking of ${b.treatmentId.treatmentName}`}>
                View
              </BookingLink>
            ),
          },
        ]}
      />
      <RelatedCard
        title="Payments"
        label="Payments"
        query={(page) =>
          trpc.payments.list.queryOptions({ payerId: userId, page, pageSize: RELATED_PAGE_SIZE, sortDir: 'desc' })
        }
        empty="No payments yet."
        rowTestId="related-payment"
        columns={[
          {
            header: 'Receipt',
            className: 'font-mono text-xs',
            cell: (p) => (
              <>
                {p.receiptNumber}
                {p.status === 'void' && (
                  <Badge variant="destructive" className="ml-2">
                    Void
                  </Badge>
                )}
              </>
            ),
          },
          { header: 'Received', cell: (p) => formatDateTime(p.receivedAt) },
          {
            header: 'For',
            wrap: true,
            cell: (p) => (p.bookingId ? <BookingLink id={p.bookingId}>{p.subject}</BookingLink> : p.subject),
          },
          { header: 'Method', cell: (p) => PAYMENT_METHOD_LABELS[p.method] },
          { header: 'Amount', ...RIGHT, cell: (p) => formatMoney(p.amount, p.currency) },
        ]}
      />
    </>
  );
}
