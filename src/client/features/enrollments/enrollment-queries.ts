import { listRoute } from '@/lib/list-route';
import { oneOf, pageInput, sortOf, validateListSearch, type ListSearch, type ListSort } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';
import { DISPLAY_STATUSES, type DisplayStatus } from '@shared/enrollment-status';
import { withCursor } from '@/lib/keyset';

export const ENROLLMENT_PAGE_SIZE = 25;

/** The columns `enrollments.list` sorts by; newest first without a choice in the URL. */
const ENROLLMENT_SORT_COLUMNS = ['username', 'courseName', 'totalFee', 'createdAt'] as const;
export const enrollmentSort = (search: ListSearch): ListSort<(typeof ENROLLMENT_SORT_COLUMNS)[number]> =>
  sortOf(search, ENROLLMENT_SORT_COLUMNS, { by: 'createdAt', dir: 'desc' });

export interface EnrollmentListSearch extends ListSearch {
  status?: DisplayStatus;
}

export function validateEnrollmentListSearch(search: Record<string, unknown>): EnrollmentListSearch {
  return { ...validateListSearch(search), status: oneOf(DISPLAY_STATUSES, search.status) };
}

export function enrollmentListOptions(search: EnrollmentListSearch) {
  const input = {
    ...pageInput(search, ENROLLMENT_PAGE_SIZE),
    displayStatus: search.status,
    sortBy: enrollmentSort(search).by,
    sortDir: enrollmentSort(search).dir,
  };
  return trpc.enrollments.list.queryOptions(withCursor(input, trpc.enrollments.list.pathKey()));
}

/** /courses/AllStudentEnrollments. */
export const allEnrollmentsRoute = listRoute({
  validateSearch: validateEnrollmentListSearch,
  prefetch: (queryClient, search) =>
    Promise.all([
      queryClient.prefetchQuery(enrollmentListOptions(search)),
      queryClient.prefetchQuery(trpc.enrollments.statistics.queryOptions()),
    ]),
});
