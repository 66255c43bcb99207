import { ShieldAlertIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useCurrentUser } from '@/lib/auth';
import { ADMIN_ROLES, STAFF_ROLES, type Role } from '@shared/roles';

export const PERMISSION_DENIED = 'You do not have permission to access this page.';

/**
 * Renders children only for the given roles; others see docs/product.md#messages's permission message.
 * The server enforces the same rule: this only spares the user a form that would be refused.
 *   <RequireRole roles={ADMIN_ROLES}><AddBranchForm /></RequireRole>
 */
export function RequireRole({
  roles,
  children,
  fallback,
}: {
  roles: readonly Role[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const user = useCurrentUser();
  if (!(roles as readonly string[]).includes(user.role)) return <>{fallback ?? <PermissionDenied />}</>;
  return <>{children}</>;
}

export function PermissionDenied({ title, message = PERMISSION_DENIED }: { title?: string; message?: string }) {
  return (
    <Alert variant="destructive" className="max-w-xl" data-testid="permission-denied">
      <ShieldAlertIcon />
      {title && <AlertTitle>{title}</AlertTitle>}
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}

export { ADMIN_ROLES, STAFF_ROLES };

/**
 * A page only some roles may use (the add and create forms): its header for everyone, its body
 * for those roles, the permission message for the others.
 */
export function RolePage({
  title,
  description,
  roles,
  children,
}: {
  title: string;
  description?: ReactNode;
  roles: readonly Role[];
  children: ReactNode;
}) {
  return (
    <div>
      <PageHeader title={title} description={description} />
      <RequireRole roles={roles}>{children}</RequireRole>
    </div>
  );
}
