import { useMutation, useSuspenseQuery, type QueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { isAdmin, isStaff } from '@shared/roles';
import { errorCode } from './errors';
import { queryClient as defaultQueryClient, trpc, type RouterOutputs } from './trpc';

export type CurrentUser = NonNullable<RouterOutputs['auth']['me']>;

/**
 * docs/product.md#records-and-their-fields: the signed-in user is kept in localStorage under `userInfo` and restored on
 * load. Only non-secret fields are stored (the session itself is the HttpOnly cookie) and the
 * server's `auth.me` stays the authority: this copy is a hint, never a permission.
 */
export const USER_INFO_KEY = 'userInfo';

export type StoredUser = Pick<
  CurrentUser,
  '_id' | 'username' | 'fullName' | 'email' | 'role' | 'branch' | 'image' | 'updatedAt'
>;

export function readStoredUser(): StoredUser | null {
  try {
    const raw = localStorage.getItem(USER_INFO_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && typeof (value as StoredUser).role === 'string')
      return value as StoredUser;
    return null;
  } catch (err) {
    // docs/product.md#messages: failures to read the stored user are logged only; it counts as no user.
    console.warn('Could not read the stored user', err);
    return null;
  }
}

export function storeUser(user: CurrentUser) {
  const { _id, username, fullName, email, role, branch, image, updatedAt } = user;
  try {
    localStorage.setItem(
      USER_INFO_KEY,
      JSON.stringify({ _id, username, fullName, email, role, branch, image, updatedAt } satisfies StoredUser),
    );
  } catch (err) {
    console.warn('Could not store the user', err);
  }
}

export function clearStoredUser() {
  try {
    localStorage.removeItem(USER_INFO_KEY);
  } catch (err) {
    console.warn('Could not clear the stored user', err);
  }
}

/** The session's user, or null when there is no valid session. Other failures are thrown. */
export async function loadSessionUser(queryClient: QueryClient): Promise<CurrentUser | null> {
  try {
    const user = await queryClient.ensureQueryData(trpc.auth.me.queryOptions());
    if (user) storeUser(user);
    else clearStoredUser();
    return user ?? null;
  } catch (err) {
    if (errorCode(err) === 'UNAUTHORIZED') {
      clearStoredUser();
      return null;
    }
    throw err;
  }
}

/** After a successful sign-in: the answer is the user (plus a token the browser does not need). */
export function rememberSignedInUser(queryClient: QueryClient, answer: CurrentUser & { token?: string }) {
  const { token: _token, ...user } = answer;
  queryClient.setQueryData(trpc.auth.me.queryKey(), user);
  storeUser(user);
}

/** The signed-in user inside the admin layout (its guard has loaded it). */
export function useCurrentUser(): CurrentUser {
  const { data } = useSuspenseQuery(trpc.auth.me.queryOptions());
  if (!data) throw new Error('No signed-in user');
  return data;
}

export function useIsAdmin(): boolean {
  return isAdmin(useCurrentUser().role);
}

export function useIsStaff(): boolean {
  return isStaff(useCurrentUser().role);
}

/** Logout: ends the server session, forgets the user and goes to /login (docs/product.md#states). */
export function useSignOut() {
  const router = useRouter();
  const logout = useMutation(trpc.auth.logout.mutationOptions());
  const signOut = useCallback(async () => {
    try {
      await logout.mutateAsync();
    } catch {
      // The session may already be gone; signing out locally is still right.
    }
    clearStoredUser();
    // Leave the protected screens first so nothing re-queries the user mid-teardown.
    await router.navigate({ to: '/login' });
    defaultQueryClient.clear();
  }, [logout, router]);
  return { signOut, isPending: logout.isPending };
}

/**
 * Thrown by the protected layout's guard for a signed-in user of a non-staff role; the layout's
 * error component shows the no-access page instead of redirecting (docs/users.md: no redirect loop).
 */
export class NoAccessError extends Error {
  override name = 'NoAccessError';
  constructor() {
    super('Your account does not have access to the back office.');
  }
}

export function isNoAccessError(err: unknown): boolean {
  return err instanceof Error && err.name === 'NoAccessError';
}
