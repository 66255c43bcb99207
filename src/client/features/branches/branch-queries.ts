import { listRoute } from '@/lib/list-route';
import { pageInput, sortOf, validateListSearch, type ListSearch, type ListSort } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';

export const BRANCH_PAGE_SIZE = 25;

/** The columns `branches.list` sorts by, and the list's order without a choice in the URL. */
const BRANCH_SORT_COLUMNS = ['name', 'location'] as const;
export const branchSort = (search: ListSearch): ListSort<(typeof BRANCH_SORT_COLUMNS)[number]> =>
  sortOf(search, BRANCH_SORT_COLUMNS, { by: 'name', dir: 'asc' });

/** One place that turns the URL's list search into the `branches.list` input (route loader and screen). */
export function branchListOptions(search: ListSearch) {
  return trpc.branches.list.queryOptions({
    ...pageInput(search, BRANCH_PAGE_SIZE),
    sortBy: branchSort(search).by,
    sortDir: branchSort(search).dir,
  });
}

/** /branch and /branch/all-branch. */
export const branchListRoute = listRoute({
  validateSearch: validateListSearch,
  prefetch: (queryClient, search) => queryClient.prefetchQuery(branchListOptions(search)),
});
