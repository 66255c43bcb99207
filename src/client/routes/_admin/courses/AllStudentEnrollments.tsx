import { createFileRoute } from '@tanstack/react-router';
import { AllEnrollmentsPage } from '@/features/enrollments/all-enrollments-page';
import {
  enrollmentListOptions,
  validateEnrollmentListSearch,
  type EnrollmentListSearch,
} from '@/features/enrollments/enrollment-queries';
import { trpc } from '@/lib/trpc';

export const Route = createFileRoute('/_admin/courses/AllStudentEnrollments')({
  validateSearch: validateEnrollmentListSearch,
  loaderDeps: ({ search }) => search,
  // Prefetch without throwing: a failure shows the screen's own error state.
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.prefetchQuery(enrollmentListOptions(deps)),
      context.queryClient.prefetchQuery(trpc.enrollments.statistics.queryOptions()),
    ]),
  component: AllEnrollmentsRoute,
});

function AllEnrollmentsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AllEnrollmentsPage
      search={search}
      onSearchChange={(next: EnrollmentListSearch) => void navigate({ search: next, replace: true })}
    />
  );
}
