import { createFileRoute } from '@tanstack/react-router';
import { UserDetailsPage, validateUserDetailsSearch } from '@/features/users/user-details-page';
import { trpc } from '@/lib/trpc';

export const Route = createFileRoute('/_admin/users/$userId')({
  // `?tab=statement` opens the Statement tab (the Receivables list links there).
  validateSearch: validateUserDetailsSearch,
  // Prefetch without throwing: an unknown id shows the screen's own error box.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(trpc.users.get.queryOptions({ id: params.userId })),
  component: UserDetailsRoute,
});

function UserDetailsRoute() {
  const { userId } = Route.useParams();
  const { tab } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <UserDetailsPage
      userId={userId}
      tab={tab ?? 'records'}
      // The tab is in the URL, so Back and a shared link keep it; switching tabs is not a new page.
      onTabChange={(next) => void navigate({ search: { tab: next === 'statement' ? next : undefined }, replace: true })}
    />
  );
}
