import type { ListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';

export const BRANCH_PAGE_SIZE = 25;

/** One place that turns the URL's list search into the `branches.list` input (route loader and screen). */
export function branchListOptions(search: ListSearch) {
  return trpc.branches.list.queryOptions({
    page: search.page ?? 1,
    pageSize: BRANCH_PAGE_SIZE,
    search: search.q,
    sortBy: 'name',
    sortDir: 'asc',
  });
}
