export const ROLES = ['user', 'student', 'customer', 'manager', 'admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

/** Roles allowed into the back-office (docs/product.md#roles). */
export const STAFF_ROLES = ['manager', 'admin', 'superadmin'] as const satisfies readonly Role[];
/** Roles allowed to create, delete and see the admin sub-links. */
export const ADMIN_ROLES = ['admin', 'superadmin'] as const satisfies readonly Role[];

export function isStaff(role: string | null | undefined): boolean {
  return (STAFF_ROLES as readonly string[]).includes(role ?? '');
}

/** Roles whose people use the portal (/portal) instead of the back-office. */
export const PORTAL_ROLES = ['user', 'student', 'customer'] as const satisfies readonly Role[];

export function isPortalRole(role: string | null | undefined): boolean {
  return (PORTAL_ROLES as readonly string[]).includes(role ?? '');
}

export function isAdmin(role: string | null | undefined): boolean {
  return (ADMIN_ROLES as readonly string[]).includes(role ?? '');
}

/** docs/users.md: who may grant which role. Nobody changes their own role (checked by the service). */
export function grantableRoles(actorRole: Role): Role[] {
  switch (actorRole) {
    case 'superadmin':
      return [...ROLES];
    case 'admin':
      return ROLES.filter((r) => r !== 'superadmin');
    case 'manager':
      return ['user', 'student', 'customer'];
    default:
      return [];
  }
}

export const ROLE_LABELS: Record<Role, string> = {
  user: 'User',
  student: 'Student',
  customer: 'Customer',
  manager: 'Manager',
  admin: 'Admin',
  superadmin: 'Super Admin',
};
