import { ADMIN_ROLES, STAFF_ROLES, type Role } from '../../shared/roles';

export type Access = 'public' | 'authed' | 'staff' | 'admin';

export const UNAUTHORIZED_MESSAGE = 'You must be signed in.';
export const FORBIDDEN_MESSAGE = 'You do not have permission to access this page.';

export function rolesFor(access: Access): readonly Role[] | null {
  if (access === 'staff') return STAFF_ROLES;
  if (access === 'admin') return ADMIN_ROLES;
  return null;
}
