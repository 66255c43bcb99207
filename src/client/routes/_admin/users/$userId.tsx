import { createFileRoute } from '@tanstack/react-router';
import { UserDetailsPage } from '@/features/users/user-details-page';
import { trpc } from '@/lib/trpc';

export const Route = createFileRoute('/_admin/users/$userId')({
  // Prefetch without throwing: an unknown id shows the screen's own error box.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(trpc.users.get.queryOptions({ id: params.userId })),
  component: UserDetailsRoute,
});

function UserDetailsRoute() {
  const { userId } = Route.useParams();
  return <UserDetailsPage userId={userId} />;
}
