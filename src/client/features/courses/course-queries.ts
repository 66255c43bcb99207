import { pageInput, validateListSearch, type ListSearch } from '@/lib/list-search';
import { trpc, type RouterOutputs } from '@/lib/trpc';

export const COURSE_PAGE_SIZE = 25;

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
    sortBy: 'createdAt',
    sortDir: 'desc',
  });
}
