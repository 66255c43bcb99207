import { createFileRoute } from '@tanstack/react-router';
import { courseListOptions, validateCourseListSearch, type CourseListSearch } from '@/features/courses/course-queries';
import { CoursesPage } from '@/features/courses/courses-page';

export const Route = createFileRoute('/_admin/courses/')({
  validateSearch: validateCourseListSearch,
  loaderDeps: ({ search }) => search,
  // Prefetch without throwing: a failure shows the screen's own 'Error: {message}' state.
  loader: ({ context, deps }) => context.queryClient.prefetchQuery(courseListOptions(deps)),
  component: CoursesRoute,
});

function CoursesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <CoursesPage
      search={search}
      onSearchChange={(next: CourseListSearch) => void navigate({ search: next, replace: true })}
    />
  );
}
