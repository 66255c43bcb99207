import { PlaceholderPage } from '@/components/placeholder-page';
import { ADMIN_ROLES, PermissionDenied, RequireRole } from '@/components/require-role';

/** Placeholder until its issue builds the screen (spec section 2, All Treatment Bookings); the route file stays as is. */
export function AllBookingsPage() {
  return (
    <RequireRole roles={ADMIN_ROLES} fallback={<DeniedWithTitle />}>
      <PlaceholderPage title="All Treatment Bookings" />
    </RequireRole>
  );
}

function DeniedWithTitle() {
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">All Treatment Bookings</h1>
      <PermissionDenied />
    </div>
  );
}
