import { oneOf, pageInput, validateListSearch, type ListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';
import { DISPLAY_STATUSES, type DisplayStatus } from '@shared/enrollment-status';

export const ENROLLMENT_PAGE_SIZE = 25;

export interface EnrollmentListSearch extends ListSearch {
  status?: DisplayStatus;
}

export function validateEnrollmentListSearch(search: Record<string, unknown>): EnrollmentListSearch {
  return { ...validateListSearch(search), status: oneOf(DISPLAY_STATUSES, search.status) };
}

export function enrollmentListOptions(search: EnrollmentListSearch) {
  return trpc.enrollments.list.queryOptions({
    ...pageInput(search, ENROLLMENT_PAGE_SIZE),
    displayStatus: search.status,
    sortBy: 'createdAt',
    sortDir: 'desc',
  });
}
