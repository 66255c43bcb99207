import { PlaceholderPage } from '@/components/placeholder-page';
import { ADMIN_ROLES, PermissionDenied, RequireRole } from '@/components/require-role';

/** Placeholder until its issue builds the screen (spec section 2, Enroll Student); the route file stays as is. */
export function EnrollCoursePage() {
  return (
    <RequireRole roles={ADMIN_ROLES} fallback={<DeniedWithTitle />}>
      <PlaceholderPage title="Enroll Student" />
    </RequireRole>
  );
}

function DeniedWithTitle() {
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Enroll Student</h1>
      <PermissionDenied />
    </div>
  );
}
