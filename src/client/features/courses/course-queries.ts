import { defineList } from '@/lib/list-route';
import { NEWEST_FIRST, validateListSearch, type ListSearch } from '@/lib/list-search';
import { trpc, type RouterOutputs } from '@/lib/trpc';

export type Course = RouterOutputs['courses']['list']['items'][number];

export interface CourseListSearch extends ListSearch {
  category?: string;
}

export function validateCourseListSearch(search: Record<string, unknown>): CourseListSearch {
  const category = typeof search.category === 'string' ? search.category.trim().slice(0, 100) : '';
  return { ...validateListSearch(search), category: category || undefined };
}

/** `courses.list`, newest first unless the URL sorts it: /courses and /courses/all-courses. */
export const courseList = defineList({
  validateSearch: validateCourseListSearch,
  sortColumns: ['courseName', 'category', 'totalFee', 'createdAt'],
  defaultSort: NEWEST_FIRST,
  query: (input, search) => trpc.courses.list.queryOptions({ ...input, category: search.category }),
  screen: {
    names: { record: 'course', plural: 'courses', search: 'Search by name or category' },
    header: { title: 'Courses', description: 'Every course with its fees and installment plan.' },
    add: { to: '/courses/add-courses', label: 'Add Course' },
    guard: 'table',
  },
});
