import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { changeLanguage, currentLanguage, isLanguage } from './i18n';
import { errorCode, queryClient, trpc, type RouterOutputs } from './trpc';

export type PortalMe = RouterOutputs['portal']['me'];

/** Staff open the back office after signing in here; everyone else stays in the portal. */
export const STAFF_ROLES = ['manager', 'admin', 'superadmin'];

/**
 * The signed-in person, or null without a session. The person's profile language becomes the
 * page's at start, so whoever chose Tamil reads Tamil on any device.
 */
export const personOptions = () => trpc.portal.me.queryOptions(undefined, { staleTime: 60_000 });

/** The signed-in person inside the portal's layout (its guard has loaded them). */
export function usePerson(): PortalMe {
  return useSuspenseQuery(personOptions()).data;
}

export async function loadPerson(): Promise<PortalMe | null> {
  try {
    const me = await queryClient.ensureQueryData(personOptions());
    if (isLanguage(me.language) && me.language !== currentLanguage()) await changeLanguage(me.language);
    return me;
  } catch (err) {
    if (errorCode(err) === 'UNAUTHORIZED') return null;
    throw err;
  }
}

/** After a sign-in (password, code or invitation): staff go to the back office, others home. */
export function afterSignIn(role: string, goHome: () => void) {
  queryClient.clear();
  if (STAFF_ROLES.includes(role)) window.location.assign('/');
  else goHome();
}

export function useSignOut() {
  const router = useRouter();
  const logout = useMutation(trpc.auth.logout.mutationOptions());
  const signOut = useCallback(async () => {
    try {
      await logout.mutateAsync();
    } catch {
      // The session may already be gone; leaving the portal is still right.
    }
    try {
      // The back office keeps a copy of the signed-in user; a signed-out browser keeps none.
      localStorage.removeItem('userInfo');
    } catch {
      // Storage unavailable: nothing was kept.
    }
    await router.navigate({ href: '/portal/sign-in' });
    queryClient.clear();
  }, [logout, router]);
  return { signOut, isPending: logout.isPending };
}
