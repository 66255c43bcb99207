import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { SelectFilter } from '@/components/filter-field';
import { LabelledDeleteConfirm } from '@/components/delete-confirm';
import { viewDeleteColumn } from '@/components/row-actions';
import { listPage, type TableHook } from '@/components/list-page';
import { Badge } from '@/components/ui/badge';
import { useIsAdmin } from '@/lib/auth';
import { useConfirmedDelete } from '@/lib/use-row-mutations';
import { trpc } from '@/lib/trpc';
import { formatDate } from '@shared/format';
import { PersonName } from '@/components/person-name';
import { bookingList, capitalize, customerEmail, PAYMENT_STATUS_FILTER } from './booking-queries';
import { PaymentStatusBadge } from './payment-status-badge';

const useBookingsTable: TableHook<typeof bookingList> = ({ paged }) => {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const del = useConfirmedDelete({
    toVariables: (t: { id: string; label: string }) => ({ id: t.id }),
    mutationOptions: trpc.bookings.delete.mutationOptions,
    success: 'Booking deleted successfully!',
    failure: 'Failed to delete booking',
    invalidate: () => queryClient.invalidateQueries(trpc.bookings.pathFilter()),
  });

  return {
    filters: (
      <label className="flex items-center gap-2 text-sm">
        <span className="text-muted-foreground">Payment Status</span>
        <SelectFilter {...PAYMENT_STATUS_FILTER} {...paged.filter('status')} />
      </label>
    ),
    columns: [
      {
        header: 'Customer Name',
        wrap: true,
        sort: 'customer',
        cell: (b) => <PersonName handle={customerEmail(b)} fullName={b.userId?.fullName} handleFirst />,
      },
      { header: 'Treatment', wrap: true, sort: 'treatmentName', cell: (b) => b.treatmentId.treatmentName },
      {
        header: 'Payment Status',
        sort: 'paymentStatus',
        cell: (b) => (
          <div className="flex gap-1">
            <PaymentStatusBadge status={b.paymentStatus} />
            {b.status === 'cancelled' && <Badge variant="outline">Cancelled</Badge>}
          </div>
        ),
      },
      { header: 'Payment Type', sort: 'paymentType', cell: (b) => capitalize(b.paymentType) },
      { header: 'Booked On', sort: 'bookedOn', cell: (b) => formatDate(b.bookedOn) },
      viewDeleteColumn({
        of: (b) => `booking of ${customerEmail(b)}`,
        view: (b, link) => <Link to="/booking-details/$id" params={{ id: b._id }} {...link} />,
        onDelete: admin
          ? (b) => del.ask({ id: b._id, label: `${b.treatmentId.treatmentName} for ${customerEmail(b)}` })
          : undefined,
      }),
    ],
    dialog: <LabelledDeleteConfirm del={del} what="booking" consequence="Its installments and notes go with it." />,
  };
};

/** docs/product.md#screens-and-routes, All Treatment Bookings: searched, filtered and paged on the server. */
export const AllBookingsPage = listPage(bookingList, useBookingsTable);
