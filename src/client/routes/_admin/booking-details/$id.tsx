import { createFileRoute } from '@tanstack/react-router';
import { BookingDetailsPage } from '@/features/bookings/booking-details-page';
import { trpc } from '@/lib/trpc';

export const Route = createFileRoute('/_admin/booking-details/$id')({
  // Prefetch without throwing: an unknown id shows the screen's own error box.
  loader: ({ context, params }) => context.queryClient.prefetchQuery(trpc.bookings.get.queryOptions({ id: params.id })),
  component: BookingDetailsRoute,
});

function BookingDetailsRoute() {
  const { id } = Route.useParams();
  return <BookingDetailsPage id={id} />;
}
