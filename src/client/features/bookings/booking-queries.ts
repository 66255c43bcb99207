import { listRoute } from '@/lib/list-route';
import { PAYMENT_STATUSES, type PaymentStatus } from '@shared/booking-status';
import { oneOf, pageInput, sortOf, validateListSearch, type ListSearch, type ListSort } from '@/lib/list-search';
import { BOOKING_SORT_COLUMNS } from '@shared/schemas/bookings';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { withCursor } from '@/lib/keyset';

export const BOOKING_PAGE_SIZE = 25;

export type Booking = RouterOutputs['bookings']['get'];

/** The bookings list's URL search: `?q=sarah&status=overdue&page=2`. */
export interface BookingSearch extends ListSearch {
  status?: PaymentStatus;
}

export function validateBookingSearch(search: Record<string, unknown>): BookingSearch {
  return { ...validateListSearch(search), status: oneOf(PAYMENT_STATUSES, search.status) };
}

/** The list's sort from the URL; newest first without a choice. */
export const bookingSort = (search: ListSearch): ListSort<(typeof BOOKING_SORT_COLUMNS)[number]> =>
  sortOf(search, BOOKING_SORT_COLUMNS, { by: 'createdAt', dir: 'desc' });

export function bookingListOptions(search: BookingSearch) {
  const sort = bookingSort(search);
  const input = {
    ...pageInput(search, BOOKING_PAGE_SIZE),
    paymentStatus: search.status,
    sortBy: sort.by,
    sortDir: sort.dir,
  };
  return trpc.bookings.list.queryOptions(withCursor(input, trpc.bookings.list.pathKey()));
}

/** docs/product.md#screens-and-routes: the customer column shows the email, or 'Unknown' (a deleted user's kept email first). */
export function customerEmail(b: Pick<Booking, 'userId' | 'deletedEmail'>): string {
  return b.userId?.email || b.deletedEmail || 'Unknown';
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A section of the booking screen that edits the booking and hands the saved one back. */
export interface BookingSectionProps {
  booking: Booking;
  /** False once the booking is cancelled: it is kept for the record only. */
  editable: boolean;
  onSaved: (b: Booking) => void;
}

/** docs/product.md#messages: a session edit on a booking whose customer or treatment is gone. */
export const MISSING_INFO = 'Missing required booking information';

/** The detail screen writes sessions by booking id; a booking whose customer or treatment is gone is history. */
export function missingInfo(b: Booking): boolean {
  return !b.userId || !b.treatmentId._id;
}

/** /treatment/all-book. */
export const allBookingsRoute = listRoute({
  validateSearch: validateBookingSearch,
  prefetch: (queryClient, search) => queryClient.prefetchQuery(bookingListOptions(search)),
});
