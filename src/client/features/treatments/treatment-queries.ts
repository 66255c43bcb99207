import { defineList } from '@/lib/list-route';
import { NEWEST_FIRST, validateListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';
import { TREATMENT_SORT_COLUMNS } from '@shared/schemas/treatments';

/** `treatments.list`, newest first unless the URL sorts it: /treatment and /treatment/all-treatment. */
export const treatmentList = defineList({
  validateSearch: validateListSearch,
  sortColumns: TREATMENT_SORT_COLUMNS,
  defaultSort: NEWEST_FIRST,
  query: (input) => trpc.treatments.list.queryOptions(input),
  screen: {
    names: { record: 'treatment', plural: 'treatments', search: 'Search by treatment name' },
    header: { title: 'All Treatments', description: "The clinic's treatments, their prices and sessions." },
    add: { to: '/treatment/create-treatement', label: 'Add Treatment', adminOnly: true },
    guard: 'page',
  },
});
