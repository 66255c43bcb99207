import { defineList } from '@/lib/list-route';
import { validateListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';

/** `branches.list` by name unless the URL sorts it: /branch and /branch/all-branch. */
export const branchList = defineList({
  validateSearch: validateListSearch,
  sortColumns: ['name', 'location'],
  defaultSort: { by: 'name', dir: 'asc' },
  query: (input) => trpc.branches.list.queryOptions(input),
  screen: {
    names: { record: 'branch', plural: 'branches', search: 'Search by name or location' },
    header: { title: 'Branches', description: 'Locations of the institute and the clinic.' },
    add: { to: '/branch/add-branch', label: 'Add Branch', adminOnly: true },
  },
});
