import { createFileRoute } from '@tanstack/react-router';
import { AllBookingsPage } from '@/features/treatments/all-bookings-page';

export const Route = createFileRoute('/_admin/treatment/all-book')({
  component: AllBookingsPage,
});
