import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { SelectFilter } from '@/components/filter-field';
import { AddLink, DeleteConfirm, ViewDeleteActions } from '@/components/list-actions';
import { ListPage, type TableHook } from '@/components/list-page';
import { Badge } from '@/components/ui/badge';
import { useIsAdmin } from '@/lib/auth';
import { useConfirmedDelete } from '@/lib/use-row-mutations';
import { trpc } from '@/lib/trpc';
import { PAYMENT_STATUS_LABELS } from '@shared/booking-status';
import { formatDate } from '@shared/format';
import { bookingList, capitalize, customerEmail } from './booking-queries';
import { PaymentStatusBadge } from './payment-status-badge';

/** docs/product.md#screens-and-routes, All Treatment Bookings: searched, filtered and paged on the server. */
export function AllBookingsPage() {
  return (
    <ListPage
      guard="table"
      list={bookingList}
      names={{
        record: 'booking',
        plural: 'bookings',
        label: 'Treatment bookings',
        empty: 'No bookings found.',
        search: 'Search by customer email or treatment',
      }}
      header={{ title: 'All Treatment Bookings', description: 'Every booking, its customer, payments and sessions.' }}
      actions={
        <AddLink to="/treatment/booking" adminOnly>
          Book New Treatment
        </AddLink>
      }
      useTable={useBookingsTable}
    />
  );
}

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
        <SelectFilter
          label="Payment Status"
          all="All"
          options={PAYMENT_STATUS_LABELS}
          className="w-44"
          {...paged.filter('status')}
        />
      </label>
    ),
    columns: [
      {
        header: 'Customer Name',
        wrap: true,
        sort: 'customer',
        className: 'font-medium',
        cell: (b) => customerEmail(b),
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
      {
        header: 'Actions',
        headClassName: 'w-24 text-right',
        className: 'text-right',
        cell: (b) => (
          // Icon buttons, as in the other lists: text buttons pushed the column out of a 1360px screen.
          <ViewDeleteActions
            view={(icon) => (
              <Link
                to="/booking-details/$id"
                params={{ id: b._id }}
                aria-label={`View booking of ${customerEmail(b)}`}
                title="View"
              >
                {icon}
              </Link>
            )}
            deleteLabel={`Delete booking of ${customerEmail(b)}`}
            onDelete={
              admin
                ? () => del.ask({ id: b._id, label: `${b.treatmentId.treatmentName} for ${customerEmail(b)}` })
                : undefined
            }
          />
        ),
      },
    ],
    dialog: (
      <DeleteConfirm
        dialog={del.dialog}
        what="booking"
        name={del.target?.label}
        consequence="Its installments and notes go with it."
        onConfirm={del.confirm}
      />
    ),
  };
};
