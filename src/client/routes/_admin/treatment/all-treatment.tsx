import { createFileRoute } from '@tanstack/react-router';
import { treatmentListOptions } from '@/features/treatments/treatment-queries';
import { TreatmentsPage } from '@/features/treatments/treatments-page';
import { validateListSearch, type ListSearch } from '@/lib/list-search';

export const Route = createFileRoute('/_admin/treatment/all-treatment')({
  validateSearch: validateListSearch,
  loaderDeps: ({ search }) => search,
  // Prefetch without throwing: a failure shows the screen's own error box.
  loader: ({ context, deps }) => context.queryClient.prefetchQuery(treatmentListOptions(deps)),
  component: TreatmentsRoute,
});

function TreatmentsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <TreatmentsPage
      search={search}
      onSearchChange={(next: ListSearch) => void navigate({ search: next, replace: true })}
    />
  );
}
