import { createFileRoute } from '@tanstack/react-router';
import { BookTreatmentPage } from '@/features/bookings/book-treatment-page';

export const Route = createFileRoute('/_admin/treatment/booking')({
  component: BookTreatmentPage,
});
