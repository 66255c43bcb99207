import { defineList } from '@/lib/list-route';
import { NEWEST_FIRST, searchWithFilter } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';
import { DISPLAY_STATUSES } from '@shared/enrollment-status';

const validateEnrollmentSearch = searchWithFilter('status', DISPLAY_STATUSES);

/** The enrolments list's status filter (a `SelectFilter`): `?status=` takes one of its options. */
export const STATUS_FILTER = { label: 'Filter by status', all: 'All statuses', options: DISPLAY_STATUSES };

/** `enrollments.list`, newest first unless the URL sorts it, and the statistics over it: /courses/AllStudentEnrollments. */
export const enrollmentList = defineList({
  validateSearch: validateEnrollmentSearch,
  sortColumns: ['username', 'courseName', 'totalFee', 'createdAt'],
  defaultSort: NEWEST_FIRST,
  query: (input, search) => trpc.enrollments.list.queryOptions({ ...input, displayStatus: search.status }),
  prefetchAlso: (queryClient) => queryClient.prefetchQuery(trpc.enrollments.statistics.queryOptions()),
  screen: {
    names: { record: 'enrollment', plural: 'enrollments', search: 'Search by student email, name or course' },
    header: { title: 'All Enrollments', description: 'Every student enrolment with its payment state.' },
    add: { to: '/courses/enrollment', label: 'Enroll Student' },
    guard: 'table',
  },
});
