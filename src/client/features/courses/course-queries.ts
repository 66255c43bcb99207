import type { ListSearch } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';

export const COURSE_PAGE_SIZE = 25;

export interface CourseListSearch extends ListSearch {
  category?: string;
}

export function validateCourseListSearch(search: Record<string, unknown>): CourseListSearch {
  const page = Number(search.page);
  const q = typeof search.q === 'string' ? search.q.trim().slice(0, 200) : '';
  const category = typeof search.category === 'string' ? search.category.trim().slice(0, 100) : '';
  return {
    page: Number.isInteger(page) && page > 1 ? page : undefined,
    q: q || undefined,
    category: category || undefined,
  };
}

/** One place that turns the URL's list search into the `courses.list` input (route loader and screen). */
export function courseListOptions(search: CourseListSearch) {
  return trpc.courses.list.queryOptions({
    page: search.page ?? 1,
    pageSize: COURSE_PAGE_SIZE,
    search: search.q,
    category: search.category,
    sortBy: 'createdAt',
    sortDir: 'desc',
  });
}
