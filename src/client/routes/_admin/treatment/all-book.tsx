import { createFileRoute } from '@tanstack/react-router';
import { AllBookingsPage } from '@/features/bookings/all-bookings-page';
import { bookingList } from '@/features/bookings/booking-queries';

export const Route = createFileRoute('/_admin/treatment/all-book')({
  ...bookingList.route,
  component: AllBookingsPage,
});
