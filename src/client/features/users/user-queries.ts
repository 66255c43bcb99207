import { listRoute } from '@/lib/list-route';
import { grantableRoles, ROLES, type Role } from '@shared/roles';
import { oneOf, pageInput, sortOf, validateListSearch, type ListSearch, type ListSort } from '@/lib/list-search';
import { trpc, type RouterInputs, type RouterOutputs } from '@/lib/trpc';
import { withCursor } from '@/lib/keyset';

export type User = RouterOutputs['users']['get'];
export type UserListInput = RouterInputs['users']['list'];

export const USERS_PAGE_SIZE = 25;

/** The columns `users.list` sorts by; newest first without a choice in the URL. */
const USER_SORT_COLUMNS = ['username', 'fullName', 'email', 'role', 'createdAt'] as const;
export const userSort = (search: ListSearch): ListSort<(typeof USER_SORT_COLUMNS)[number]> =>
  sortOf(search, USER_SORT_COLUMNS, { by: 'createdAt', dir: 'desc' });
/** Pictures are at most 2 MB and JPEG, PNG or WebP (docs/users.md); the server checks the bytes. */
export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

export interface UsersSearch extends ListSearch {
  role?: Role;
}

export function validateUsersSearch(search: Record<string, unknown>): UsersSearch {
  return { ...validateListSearch(search), role: oneOf(ROLES, search.role) };
}

/** One place that turns the URL's search into the `users.list` input (route loader and screen). */
export function usersListOptions(search: UsersSearch) {
  const input = {
    ...pageInput(search, USERS_PAGE_SIZE),
    role: search.role,
    sortBy: userSort(search).by,
    sortDir: userSort(search).dir,
  };
  return trpc.users.list.queryOptions(withCursor(input, trpc.users.list.pathKey()));
}

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

/** /users and /users/all-users. */
export const usersRoute = listRoute({
  validateSearch: validateUsersSearch,
  prefetch: (queryClient, search) => queryClient.prefetchQuery(usersListOptions(search)),
});
