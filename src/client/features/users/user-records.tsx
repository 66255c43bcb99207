import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BookingLink, KeptName, TreatmentLink } from '@/components/record-links';
import { RELATED_PAGE_SIZE, RelatedCard } from '@/components/related-card';
import { Badge } from '@/components/ui/badge';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { formatDate, formatDateTime, formatMoney } from '@shared/format';
import { PaymentStatusBadge } from '@/features/bookings/payment-status-badge';
import { RelatedEnrollments } from '@/features/enrollments/related-enrollments';
import { PAYMENT_METHOD_LABELS } from '@/features/payments/payment-common';

/** Everything a user has with the institute and the clinic: enrolments, bookings, payments. */
export function UserRecords({ userId }: { userId: string }) {
  return (
    <>
      <RelatedEnrollments of={{ userId }} />
      <UserBookings userId={userId} />
      <UserPayments userId={userId} />
    </>
  );
}

function UserBookings({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery({
    ...trpc.bookings.list.queryOptions({ userId, page, pageSize: RELATED_PAGE_SIZE, sortDir: 'desc' }),
    placeholderData: keepPreviousData,
  });
  return (
    <RelatedCard
      title="Treatment Bookings"
      label="Treatment bookings"
      query={query}
      page={page}
      onPageChange={setPage}
      empty="No bookings yet."
      head={
        <>
          <TableHead>Treatment</TableHead>
          <TableHead>Booked On</TableHead>
          <TableHead className="text-right">Price</TableHead>
          <TableHead>Payment Status</TableHead>
          <TableHead className="text-right">Details</TableHead>
        </>
      }
    >
      {(b) => (
        <TableRow key={b._id} data-testid="related-booking">
          <TableCell>
            <KeptName kept={b.treatmentId.treatmentName}>
              {b.treatmentId._id && <TreatmentLink name={b.treatmentId.treatmentName} />}
            </KeptName>
          </TableCell>
          <TableCell>{formatDate(b.bookedOn)}</TableCell>
          <TableCell className="text-right tabular-nums">{formatMoney(b.price, b.currency)}</TableCell>
          <TableCell>
            <PaymentStatusBadge status={b.paymentStatus} />
          </TableCell>
          <TableCell className="text-right">
            <BookingLink id={b._id} label={`View booking of ${b.treatmentId.treatmentName}`}>
              View
            </BookingLink>
          </TableCell>
        </TableRow>
      )}
    </RelatedCard>
  );
}

function UserPayments({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery({
    ...trpc.payments.list.queryOptions({ payerId: userId, page, pageSize: RELATED_PAGE_SIZE, sortDir: 'desc' }),
    placeholderData: keepPreviousData,
  });
  return (
    <RelatedCard
      title="Payments"
      label="Payments"
      query={query}
      page={page}
      onPageChange={setPage}
      empty="No payments yet."
      head={
        <>
          <TableHead>Receipt</TableHead>
          <TableHead>Received</TableHead>
          <TableHead>For</TableHead>
          <TableHead>Method</TableHead>
          <TableHead className="text-right">Amount</TableHead>
        </>
      }
    >
      {(p) => (
        <TableRow key={p._id} data-testid="related-payment">
          <TableCell className="font-mono text-xs">
            {p.receiptNumber}
            {p.status === 'void' && (
              <Badge variant="destructive" className="ml-2">
                Void
              </Badge>
            )}
          </TableCell>
          <TableCell>{formatDateTime(p.receivedAt)}</TableCell>
          <TableCell>{p.bookingId ? <BookingLink id={p.bookingId}>{p.subject}</BookingLink> : p.subject}</TableCell>
          <TableCell>{PAYMENT_METHOD_LABELS[p.method]}</TableCell>
          <TableCell className="text-right tabular-nums">{formatMoney(p.amount, p.currency)}</TableCell>
        </TableRow>
      )}
    </RelatedCard>
  );
}
