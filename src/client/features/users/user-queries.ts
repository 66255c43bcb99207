import { defineList } from '@/lib/list-route';
import { grantableRoles, ROLE_LABELS, ROLES, type Role } from '@shared/roles';
import { NEWEST_FIRST, searchWithFilter } from '@/lib/list-search';
import { trpc, type RouterInputs, type RouterOutputs } from '@/lib/trpc';

export type User = RouterOutputs['users']['get'];
export type UserListInput = RouterInputs['users']['list'];

/** Pictures are at most 2 MB and JPEG, PNG or WebP (docs/users.md); the server checks the bytes. */
export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

const validateUserSearch = searchWithFilter('role', ROLES);

/** The users list's role filter (a `SelectFilter`): `?role=` takes one of its options. */
export const ROLE_FILTER = { label: 'Filter by role', all: 'All roles', options: ROLE_LABELS, className: 'w-44' };

/** `users.list`, newest first unless the URL sorts it: /users and /users/all-users. */
export const userList = defineList({
  validateSearch: validateUserSearch,
  sortColumns: ['username', 'fullName', 'email', 'role', 'createdAt'],
  defaultSort: NEWEST_FIRST,
  query: (input, search) => trpc.users.list.queryOptions({ ...input, role: search.role }),
  screen: {
    names: { record: 'user', plural: 'users', search: 'Search username, name or email' },
    header: { title: 'Users', description: 'Staff, students and customers of every branch.' },
    add: { to: '/users/add-user', label: 'Add User' },
  },
});

/**
 * docs/product.md#roles (Admin only for admin or superadmin, Super Admin only for superadmin), which is
 * docs/users.md's granting rule: the options are exactly what the server will accept.
 */
export function roleOptionsFor(actorRole: Role): Role[] {
  return grantableRoles(actorRole);
}

/** Whether the actor may edit a row at all (the server's rule: their own row, or a role they could grant). */
export function canManage(actor: { _id: string; role: Role }, target: { _id: string; role: Role }): boolean {
  if (actor._id === target._id) return true;
  return grantableRoles(actor.role).includes(target.role);
}

export class RestError extends Error {
  constructor(
    message: string,
    public readonly status: number,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

/**
 * Pictures go as a multipart form to the REST path (tRPC carries JSON only). Same origin, so the
 * session cookie and the Origin header the server checks come with it.
 */
export async function sendUserForm(path: string, form: FormData): Promise<User> {
  let res: Response;
  try {
    res = await fetch(path, { method: 'PUT', body: form, credentials: 'same-origin' });
  } catch {
    throw new RestError('', 0);
  }
  const body = (await res.json().catch(() => null)) as (Partial<User> & { message?: string }) | null;
  if (!res.ok) throw new RestError(body?.message ?? '', res.status);
  return body as User;
}

/** The server's reason for a 4xx (bad picture, taken username), else nothing. */
export function restReason(err: unknown): string | undefined {
  return err instanceof RestError && err.status >= 400 && err.status < 500 && err.message ? err.message : undefined;
}
