import { pageInput, type ListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';

export const BRANCH_PAGE_SIZE = 25;

/** One place that turns the URL's list search into the `branches.list` input (route loader and screen). */
export function branchListOptions(search: ListSearch) {
  return trpc.branches.list.queryOptions({
    ...pageInput(search, BRANCH_PAGE_SIZE),
    sortBy: 'name',
    sortDir: 'asc',
  });
}
