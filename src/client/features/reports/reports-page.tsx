import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its issue builds the screen (spec section 2, Reports); the route file stays as is. */
export function ReportsPage() {
  return (
    <PlaceholderPage title="Reports" />
  );
}
