import { PlaceholderPage } from '@/components/placeholder-page';
import { ADMIN_ROLES, PermissionDenied, RequireRole } from '@/components/require-role';

/** Placeholder until its issue builds the screen (spec section 2, Book Treatment for User); the route file stays as is. */
export function BookTreatmentPage() {
  return (
    <RequireRole roles={ADMIN_ROLES} fallback={<DeniedWithTitle />}>
      <PlaceholderPage title="Book Treatment for User" />
    </RequireRole>
  );
}

function DeniedWithTitle() {
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Book Treatment for User</h1>
      <PermissionDenied />
    </div>
  );
}
