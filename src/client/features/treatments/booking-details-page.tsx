import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its issue builds the screen (spec section 2, Treatment Booking Details); the route file stays as is. */
export function BookingDetailsPage({ id }: { id: string }) {
  return (
    <div>
      <PlaceholderPage title="Treatment Booking Details" />
      <p className="text-sm text-muted-foreground">Booking {id}</p>
    </div>
  );
}
