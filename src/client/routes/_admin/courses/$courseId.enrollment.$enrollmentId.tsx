import { createFileRoute } from '@tanstack/react-router';
import { EnrollmentDetailsPage } from '@/features/courses/enrollment-details-page';

export const Route = createFileRoute('/_admin/courses/$courseId/enrollment/$enrollmentId')({
  component: EnrollmentDetailsRoute,
});

function EnrollmentDetailsRoute() {
  const { courseId, enrollmentId } = Route.useParams();
  return <EnrollmentDetailsPage courseId={courseId} enrollmentId={enrollmentId} />;
}
