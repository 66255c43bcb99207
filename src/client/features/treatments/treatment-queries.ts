import { listRoute } from '@/lib/list-route';
import { pageInput, sortOf, validateListSearch, type ListSearch, type ListSort } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';

export const TREATMENT_PAGE_SIZE = 25;

/** The columns `treatments.list` sorts by; newest first without a choice in the URL. */
const TREATMENT_SORT_COLUMNS = ['treatmentName', 'localPrice', 'foreignPrice', 'maxSessions', 'createdAt'] as const;
export const treatmentSort = (search: ListSearch): ListSort<(typeof TREATMENT_SORT_COLUMNS)[number]> =>
  sortOf(search, TREATMENT_SORT_COLUMNS, { by: 'createdAt', dir: 'desc' });

/** The URL's list search as the `treatments.list` input (route loader and screen). */
export function treatmentListOptions(search: ListSearch) {
  return trpc.treatments.list.queryOptions({
    ...pageInput(search, TREATMENT_PAGE_SIZE),
    sortBy: treatmentSort(search).by,
    sortDir: treatmentSort(search).dir,
  });
}

/** /treatment and /treatment/all-treatment. */
export const treatmentsRoute = listRoute({
  validateSearch: validateListSearch,
  prefetch: (queryClient, search) => queryClient.prefetchQuery(treatmentListOptions(search)),
});
