import { createFileRoute } from '@tanstack/react-router';
import { EnrollmentDetailsPage } from '@/features/enrollments/enrollment-details-page';
import { trpc } from '@/lib/trpc';

export const Route = createFileRoute('/_admin/courses/$courseId/enrollment/$enrollmentId')({
  loader: ({ context, params }) =>
    Promise.all([
      context.queryClient.prefetchQuery(trpc.enrollments.get.queryOptions({ id: params.enrollmentId })),
      context.queryClient.prefetchQuery(trpc.enrollments.currency.queryOptions()),
    ]),
  component: EnrollmentDetailsRoute,
});

function EnrollmentDetailsRoute() {
  const { courseId, enrollmentId } = Route.useParams();
  return <EnrollmentDetailsPage courseId={courseId} enrollmentId={enrollmentId} />;
}
