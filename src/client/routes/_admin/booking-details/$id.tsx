import { createFileRoute } from '@tanstack/react-router';
import { BookingDetailsPage } from '@/features/treatments/booking-details-page';

export const Route = createFileRoute('/_admin/booking-details/$id')({
  component: BookingDetailsRoute,
});

function BookingDetailsRoute() {
  const { id } = Route.useParams();
  return <BookingDetailsPage id={id} />;
}
