import { defineList } from '@/lib/list-route';
import { PAYMENT_STATUS_LABELS, PAYMENT_STATUSES } from '@shared/booking-status';
import { NEWEST_FIRST, searchWithFilter } from '@/lib/list-search';
import { BOOKING_SORT_COLUMNS } from '@shared/schemas/bookings';
import { trpc, type RouterOutputs } from '@/lib/trpc';

export type Booking = RouterOutputs['bookings']['get'];

/** The bookings list's URL search: `?q=sarah&status=overdue&page=2`. */
const validateBookingSearch = searchWithFilter('status', PAYMENT_STATUSES);

/** The bookings list's payment-status filter (a `SelectFilter`): `?status=` takes one of its options. */
export const PAYMENT_STATUS_FILTER = {
  label: 'Payment Status',
  all: 'All',
  options: PAYMENT_STATUS_LABELS,
  className: 'w-44',
};

/** `bookings.list`, newest first unless the URL sorts it: /treatment/all-book. */
export const bookingList = defineList({
  validateSearch: validateBookingSearch,
  sortColumns: BOOKING_SORT_COLUMNS,
  defaultSort: NEWEST_FIRST,
  query: (input, search) => trpc.bookings.list.queryOptions({ ...input, paymentStatus: search.status }),
  screen: {
    names: {
      record: 'booking',
      plural: 'bookings',
      label: 'Treatment bookings',
      empty: 'No bookings found.',
      search: 'Search by customer email or treatment',
    },
    header: { title: 'All Treatment Bookings', description: 'Every booking, its customer, payments and sessions.' },
    add: { to: '/treatment/booking', label: 'Book New Treatment', adminOnly: true },
    guard: 'table',
  },
});

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
