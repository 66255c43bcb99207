import { createFileRoute, redirect } from '@tanstack/react-router';
import { AppErrorPage } from '@/components/app-error-page';
import { TodayRegister } from '@/features/classes/today-register';
import { loadSessionUser } from '@/lib/auth';

/**
 * Take attendance (docs/classes.md#who-may-do-what): outside the staff-only layout, since a batch's
 * instructor may have any role; the server decides what each caller may see and mark.
 */
export const Route = createFileRoute('/classes/today')({
  validateSearch: (search: Record<string, unknown>): { session?: string } => ({
    session: typeof search.session === 'string' ? search.session : undefined,
  }),
  beforeLoad: async ({ context, location }) => {
    const user = await loadSessionUser(context.queryClient);
    // TanStack Router's redirect is thrown as a plain object by design.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (!user) throw redirect({ to: '/login', search: { redirect: location.href } });
    return { user };
  },
  errorComponent: ({ error }) => <AppErrorPage error={error} />,
  component: TodayRoute,
});

function TodayRoute() {
  const { session } = Route.useSearch();
  return <TodayRegister sessionId={session} />;
}
