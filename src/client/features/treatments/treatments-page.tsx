import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its issue builds the screen (spec section 2, All Treatments); the route file stays as is. */
export function TreatmentsPage() {
  return (
    <PlaceholderPage title="All Treatments" />
  );
}
