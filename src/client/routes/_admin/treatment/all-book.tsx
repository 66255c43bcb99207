import { createFileRoute } from '@tanstack/react-router';
import { AllBookingsPage } from '@/features/bookings/all-bookings-page';
import { bookingListOptions, validateBookingSearch, type BookingSearch } from '@/features/bookings/booking-queries';

export const Route = createFileRoute('/_admin/treatment/all-book')({
  validateSearch: validateBookingSearch,
  loaderDeps: ({ search }) => search,
  // Prefetch without throwing: a failure shows the screen's own 'Error: {message}' state.
  loader: ({ context, deps }) => context.queryClient.prefetchQuery(bookingListOptions(deps)),
  component: AllBookingsRoute,
});

function AllBookingsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AllBookingsPage
      search={search}
      onSearchChange={(next: BookingSearch) => void navigate({ search: next, replace: true })}
    />
  );
}
