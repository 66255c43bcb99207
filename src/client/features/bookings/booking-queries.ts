import { listRoute } from '@/lib/list-route';
import { PAYMENT_STATUSES, type PaymentStatus } from '@shared/booking-status';
import { oneOf, pageInput, sortOf, validateListSearch, type ListSearch, type ListSort } from '@/lib/list-search';
import { BOOKING_SORT_COLUMNS } from '@shared/schemas/bookings';
import { trpc, type RouterOutputs } from '@/lib/trpc';

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
  return trpc.bookings.list.queryOptions({
    ...pageInput(search, BOOKING_PAGE_SIZE),
    paymentStatus: search.status,
    sortBy: bookingSort(search).by,
    sortDir: bookingSort(search).dir,
  });
}

/** docs/product.md#screens-and-routes: the customer column shows the email, or 'Unknown' (a deleted user's kept email first). */
export function customerEmail(b: Pick<Booking, 'userId' | 'deletedEmail'>): string {
  return b.userId?.email || b.deletedEmail || 'Unknown';
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** /treatment/all-book. */
export const allBookingsRoute = listRoute({
  validateSearch: validateBookingSearch,
  prefetch: (queryClient, search) => queryClient.prefetchQuery(bookingListOptions(search)),
});
