import { pageInput, type ListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';

export const TREATMENT_PAGE_SIZE = 25;

/** The URL's list search as the `treatments.list` input (route loader and screen). */
export function treatmentListOptions(search: ListSearch) {
  return trpc.treatments.list.queryOptions({
    ...pageInput(search, TREATMENT_PAGE_SIZE),
    sortBy: 'createdAt',
    sortDir: 'desc',
  });
}
