import { PlaceholderPage } from '@/components/placeholder-page';
import { ADMIN_ROLES, PermissionDenied, RequireRole } from '@/components/require-role';

/** Placeholder until its issue builds the screen (spec section 2, Add New Course); the route file stays as is. */
export function AddCoursePage() {
  return (
    <RequireRole roles={ADMIN_ROLES} fallback={<DeniedWithTitle />}>
      <PlaceholderPage title="Add New Course" />
    </RequireRole>
  );
}

function DeniedWithTitle() {
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Add New Course</h1>
      <PermissionDenied />
    </div>
  );
}
