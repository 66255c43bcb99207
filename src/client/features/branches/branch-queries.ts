import { defineList } from '@/lib/list-route';
import { validateListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';

/** `branches.list` by name unless the URL sorts it: /branch and /branch/all-branch. */
export const branchList = defineList({
  validateSearch: validateListSearch,
  sortColumns: ['name', 'location'],
  defaultSort: { by: 'name', dir: 'asc' },
  query: (input) => trpc.branches.list.queryOptions(input),
});
