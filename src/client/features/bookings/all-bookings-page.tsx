import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { EyeIcon, PlusIcon } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DataList } from '@/components/data-list';
import { NativeSelect } from '@/components/native-select';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { DeleteButton } from '@/components/row-actions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useIsAdmin } from '@/lib/auth';
import { oneOf } from '@/lib/list-search';
import { useUrlSearch } from '@/lib/list-route';
import { usePagedList } from '@/lib/use-paged-list';
import { useConfirmedDelete } from '@/lib/use-row-mutations';
import { trpc } from '@/lib/trpc';
import { PAYMENT_STATUS_LABELS, PAYMENT_STATUSES } from '@shared/booking-status';
import { formatDate } from '@shared/format';
import {
  BOOKING_PAGE_SIZE,
  bookingListOptions,
  bookingSort,
  capitalize,
  customerEmail,
  validateBookingSearch,
  type BookingSearch,
} from './booking-queries';
import { PaymentStatusBadge } from './payment-status-badge';

/** docs/product.md#screens-and-routes, All Treatment Bookings: searched, filtered and paged on the server. */
export function AllBookingsPage() {
  const [search, onSearchChange] = useUrlSearch(validateBookingSearch);
  return (
    <div>
      <PageHeader
        title="All Treatment Bookings"
        description="Every booking, its customer, payments and sessions."
        actions={<BookNewLink />}
      />
      <RequireRole roles={STAFF_ROLES}>
        <BookingsTable search={search} onSearchChange={onSearchChange} />
      </RequireRole>
    </div>
  );
}

function BookNewLink() {
  const admin = useIsAdmin();
  if (!admin) return null;
  return (
    <Button asChild>
      <Link to="/treatment/booking">
        <PlusIcon /> Book New Treatment
      </Link>
    </Button>
  );
}

function BookingsTable({
  search,
  onSearchChange,
}: {
  search: BookingSearch;
  onSearchChange: (next: BookingSearch) => void;
}) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const paged = usePagedList(bookingListOptions(search), search, onSearchChange);
  const del = useConfirmedDelete({
    toVariables: (t: { id: string; label: string }) => ({ id: t.id }),
    mutationOptions: trpc.bookings.delete.mutationOptions,
    success: 'Booking deleted successfully!',
    failure: 'Failed to delete booking',
    invalidate: () => queryClient.invalidateQueries(trpc.bookings.pathFilter()),
  });

  return (
    <>
      <DataList
        paged={paged}
        items={paged.list.data?.items}
        sort={bookingSort(search)}
        searchPlaceholder="Search by customer email or treatment"
        searchLabel="Search bookings"
        filters={
          <label className="flex items-center gap-2 text-sm">
            <span className="text-muted-foreground">Payment Status</span>
            <NativeSelect
              aria-label="Payment Status"
              className="w-44"
              value={search.status ?? ''}
              onChange={(e) => paged.setFilter({ status: oneOf(PAYMENT_STATUSES, e.target.value) })}
            >
              <option value="">All</option>
              {PAYMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {PAYMENT_STATUS_LABELS[s]}
                </option>
              ))}
            </NativeSelect>
          </label>
        }
        label="Treatment bookings"
        empty="No bookings found."
        pageSize={BOOKING_PAGE_SIZE}
        rowKey={(b) => b._id}
        rowProps={(b) => ({ 'data-testid': 'booking-row', 'data-booking-id': b._id })}
        columns={[
          { header: 'Customer Name', sort: 'customer', className: 'font-medium', cell: (b) => customerEmail(b) },
          { header: 'Treatment', sort: 'treatmentName', cell: (b) => b.treatmentId.treatmentName },
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
              <div className="flex justify-end gap-2">
                <Button size="icon-sm" variant="outline" asChild>
                  <Link
                    to="/booking-details/$id"
                    params={{ id: b._id }}
                    aria-label={`View booking of ${customerEmail(b)}`}
                    title="View"
                  >
                    <EyeIcon />
                  </Link>
                </Button>
                {admin && (
                  <DeleteButton
                    size="icon-sm"
                    label={`Delete booking of ${customerEmail(b)}`}
                    onClick={() =>
                      del.ask({ id: b._id, label: `${b.treatmentId.treatmentName} for ${customerEmail(b)}` })
                    }
                  />
                )}
              </div>
            ),
          },
        ]}
      />
      <ConfirmDialog
        {...del.dialog}
        description={
          <>
            Are you sure you want to delete the booking <strong className="text-foreground">{del.target?.label}</strong>
            ? Its installments and notes go with it. This action cannot be undone.
          </>
        }
        onConfirm={del.confirm}
      />
    </>
  );
}
