import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { EyeIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Pagination } from '@/components/pagination';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { SearchInput } from '@/components/search-input';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { PAYMENT_STATUS_LABELS, PAYMENT_STATUSES, type PaymentStatus } from '../../../shared/booking-status';
import { BOOKING_PAGE_SIZE, bookingListOptions, capitalize, customerEmail, formatDate, type BookingSearch } from './booking-queries';
import { NativeSelect } from './native-select';
import { PaymentStatusBadge } from './payment-status-badge';

/** spec section 2, All Treatment Bookings: searched, filtered and paged on the server. */
export function AllBookingsPage({ search, onSearchChange }: { search: BookingSearch; onSearchChange: (next: BookingSearch) => void }) {
  return (
    <div>
      <PageHeader title="All Treatment Bookings" description="Every booking, its customer, payments and sessions." actions={<BookNewLink />} />
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

function BookingsTable({ search, onSearchChange }: { search: BookingSearch; onSearchChange: (next: BookingSearch) => void }) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const page = search.page ?? 1;
  const list = useQuery({ ...bookingListOptions(search), placeholderData: keepPreviousData });
  const [toDelete, setToDelete] = useState<{ id: string; label: string } | null>(null);

  const remove = useMutation(
    trpc.bookings.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Booking deleted successfully!');
        setToDelete(null);
        await queryClient.invalidateQueries(trpc.bookings.pathFilter());
      },
      onError: (err) => {
        toast.error(explainedMessage(err, 'Failed to delete booking'));
        setToDelete(null);
      },
    }),
  );

  const items = list.data?.items;
  useEffect(() => {
    if (items && items.length === 0 && page > 1 && !list.isPlaceholderData) onSearchChange({ ...search, page: page - 1 });
  }, [items, page, list.isPlaceholderData, onSearchChange, search]);

  return (
    <>
      <Card className="gap-4">
        <CardContent className="flex flex-wrap items-center gap-3">
          <SearchInput
            value={search.q ?? ''}
            onChange={(q) => onSearchChange({ ...search, q: q || undefined, page: undefined })}
            placeholder="Search by customer email or treatment"
            aria-label="Search bookings"
          />
          <label className="flex items-center gap-2 text-sm">
            <span className="text-muted-foreground">Payment Status</span>
            <NativeSelect
              aria-label="Payment Status"
              className="w-44"
              value={search.status ?? ''}
              onChange={(e) => onSearchChange({ ...search, status: (e.target.value || undefined) as PaymentStatus | undefined, page: undefined })}
            >
              <option value="">All</option>
              {PAYMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {PAYMENT_STATUS_LABELS[s]}
                </option>
              ))}
            </NativeSelect>
          </label>
          {list.isFetching && !list.isPending && <Spinner className="text-muted-foreground" />}
        </CardContent>
        <CardContent>
          {list.isError ? (
            <LoadError error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <>
              <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label="Treatment bookings">
                <TableHeader className="sticky top-0 z-10">
                  <TableRow>
                    <TableHead className="w-12">#</TableHead>
                    <TableHead>Customer Name</TableHead>
                    <TableHead>Treatment</TableHead>
                    <TableHead>Payment Status</TableHead>
                    <TableHead>Payment Type</TableHead>
                    <TableHead>Booked On</TableHead>
                    <TableHead className="w-40 text-right">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.isPending &&
                    Array.from({ length: 4 }, (_, i) => (
                      <TableRow key={i} data-testid="loading-row">
                        <TableCell colSpan={7}>
                          <Skeleton className="h-6 w-full" />
                        </TableCell>
                      </TableRow>
                    ))}
                  {items?.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={7} className="py-10 text-center text-muted-foreground">
                        No bookings found.
                      </TableCell>
                    </TableRow>
                  )}
                  {items?.map((b, i) => (
                    <TableRow key={b._id} data-testid="booking-row" data-booking-id={b._id}>
                      <TableCell className="text-muted-foreground">{(page - 1) * BOOKING_PAGE_SIZE + i + 1}</TableCell>
                      <TableCell className="font-medium">{customerEmail(b)}</TableCell>
                      <TableCell>{b.treatmentId.treatmentName}</TableCell>
                      <TableCell>
                        <div className="flex gap-1">
                          <PaymentStatusBadge status={b.paymentStatus} />
                          {b.status === 'cancelled' && <Badge variant="outline">Cancelled</Badge>}
                        </div>
                      </TableCell>
                      <TableCell>{capitalize(b.paymentType)}</TableCell>
                      <TableCell>{formatDate(b.bookedOn)}</TableCell>
                      <TableCell className="text-right">
                        <div className="flex justify-end gap-2">
                          <Button size="sm" variant="outline" asChild>
                            <Link to="/booking-details/$id" params={{ id: b._id }} aria-label={`View booking of ${customerEmail(b)}`}>
                              <EyeIcon /> View
                            </Link>
                          </Button>
                          {admin && (
                            <Button
                              size="sm"
                              variant="outline"
                              className="text-destructive hover:text-destructive"
                              onClick={() => setToDelete({ id: b._id, label: `${b.treatmentId.treatmentName} for ${customerEmail(b)}` })}
                              aria-label={`Delete booking of ${customerEmail(b)}`}
                            >
                              <Trash2Icon />
                            </Button>
                          )}
                        </div>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {list.data && (
                <Pagination page={page} pageSize={BOOKING_PAGE_SIZE} total={list.data.total} onPageChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })} />
              )}
            </>
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        pending={remove.isPending}
        description={
          <>
            Are you sure you want to delete the booking <strong className="text-foreground">{toDelete?.label}</strong>? Its installments and notes go with it. This action cannot be undone.
          </>
        }
        onConfirm={() => toDelete && remove.mutate({ id: toDelete.id })}
      />
    </>
  );
}
