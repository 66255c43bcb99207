import { createFileRoute, redirect } from '@tanstack/react-router';
import { AppErrorPage } from '@/components/app-error-page';
import { AdminLayout } from '@/components/layout/admin-layout';
import { NoAccessPage } from '@/features/auth/no-access-page';
import { isNoAccessError, loadSessionUser, NoAccessError } from '@/lib/auth';
import { orgClockOptions } from '@/lib/org-clock';
import { isPortalRole, isStaff } from '@shared/roles';

/**
 * The protected area (docs/product.md#screens-and-routes, route guard). `auth.me` is the authority: no session goes
 * to /login (remembering the page), a portal role goes to /portal, any other role gets the
 * no-access page.
 */
export const Route = createFileRoute('/_admin')({
  beforeLoad: async ({ context, location }) => {
    const user = await loadSessionUser(context.queryClient);
    // TanStack Router's redirect is thrown as a plain object by design.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (!user) throw redirect({ to: '/login', search: { redirect: location.href } });
    // Students, customers and users have the portal, a page of its own (another bundle): the
    // browser goes there, and this guard never resolves while it does.
    if (isPortalRole(user.role)) {
      window.location.replace('/portal');
      await new Promise(() => {});
    }
    if (!isStaff(user.role)) throw new NoAccessError();
    // Days on staff screens are days on the organisation's clock (lib/org-clock).
    void context.queryClient.prefetchQuery(orgClockOptions());
    return { user };
  },
  errorComponent: ({ error }) => (isNoAccessError(error) ? <NoAccessPage /> : <AppErrorPage error={error} />),
  notFoundComponent: () => <AppErrorPage />,
  component: AdminLayout,
});
