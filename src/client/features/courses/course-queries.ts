import { listRoute } from '@/lib/list-route';
import { pageInput, sortOf, validateListSearch, type ListSearch, type ListSort } from '@/lib/list-search';
import { trpc, type RouterOutputs } from '@/lib/trpc';

export const COURSE_PAGE_SIZE = 25;

/** The columns `courses.list` sorts by; newest first without a choice in the URL. */
const COURSE_SORT_COLUMNS = ['courseName', 'category', 'totalFee', 'createdAt'] as const;
export const courseSort = (search: ListSearch): ListSort<(typeof COURSE_SORT_COLUMNS)[number]> =>
  sortOf(search, COURSE_SORT_COLUMNS, { by: 'createdAt', dir: 'desc' });

export type Course = RouterOutputs['courses']['list']['items'][number];

export interface CourseListSearch extends ListSearch {
  category?: string;
}

export function validateCourseListSearch(search: Record<string, unknown>): CourseListSearch {
  const category = typeof search.category === 'string' ? search.category.trim().slice(0, 100) : '';
  return { ...validateListSearch(search), category: category || undefined };
}

/** One place that turns the URL's list search into the `courses.list` input (route loader and screen). */
export function courseListOptions(search: CourseListSearch) {
  return trpc.courses.list.queryOptions({
    ...pageInput(search, COURSE_PAGE_SIZE),
    category: search.category,
    sortBy: courseSort(search).by,
    sortDir: courseSort(search).dir,
  });
}

/** /courses and /courses/all-courses. */
export const coursesRoute = listRoute({
  validateSearch: validateCourseListSearch,
  prefetch: (queryClient, search) => queryClient.prefetchQuery(courseListOptions(search)),
});
