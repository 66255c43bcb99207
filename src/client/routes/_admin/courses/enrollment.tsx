import { createFileRoute } from '@tanstack/react-router';
import { EnrollCoursePage } from '@/features/enrollments/enroll-course-page';
import { trpc } from '@/lib/trpc';

export const Route = createFileRoute('/_admin/courses/enrollment')({
  loader: ({ context }) => context.queryClient.prefetchQuery(trpc.courses.options.queryOptions()),
  component: EnrollCoursePage,
});
