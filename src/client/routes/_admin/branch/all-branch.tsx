import { createFileRoute } from '@tanstack/react-router';
import { branchListOptions } from '@/features/branches/branch-queries';
import { BranchListPage } from '@/features/branches/branch-list-page';
import { validateListSearch, type ListSearch } from '@/lib/list-search';

export const Route = createFileRoute('/_admin/branch/all-branch')({
  validateSearch: validateListSearch,
  loaderDeps: ({ search }) => search,
  // Prefetch without throwing: a failure shows the screen's own 'Error: {message}' state.
  loader: ({ context, deps }) => context.queryClient.prefetchQuery(branchListOptions(deps)),
  component: BranchListRoute,
});

function BranchListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <BranchListPage
      search={search}
      onSearchChange={(next: ListSearch) => void navigate({ search: next, replace: true })}
    />
  );
}
