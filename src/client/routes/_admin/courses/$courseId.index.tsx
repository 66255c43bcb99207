import { createFileRoute } from '@tanstack/react-router';
import { CourseDetailsPage } from '@/features/courses/course-details-page';
import { trpc } from '@/lib/trpc';

export const Route = createFileRoute('/_admin/courses/$courseId/')({
  // Prefetch without throwing: an unknown id shows the screen's own error box.
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(trpc.courses.get.queryOptions({ id: params.courseId })),
  component: CourseDetailsRoute,
});

function CourseDetailsRoute() {
  const { courseId } = Route.useParams();
  return <CourseDetailsPage courseId={courseId} />;
}
