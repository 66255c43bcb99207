import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '@/features/users/users-page';
import { usersListOptions, validateUsersSearch, type UsersSearch } from '@/features/users/user-queries';
import { validateListSearch } from '@/lib/list-search';

export const Route = createFileRoute('/_admin/users/all-users')({
  validateSearch: (search: Record<string, unknown>): UsersSearch =>
    validateUsersSearch(search, validateListSearch(search)),
  loaderDeps: ({ search }) => search,
  // Prefetch without throwing: a failure shows the screen's own 'Error: {message}' state.
  loader: ({ context, deps }) => context.queryClient.prefetchQuery(usersListOptions(deps)),
  component: UsersRoute,
});

function UsersRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <UsersPage search={search} onSearchChange={(next: UsersSearch) => void navigate({ search: next, replace: true })} />
  );
}
