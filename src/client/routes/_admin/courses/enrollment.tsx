import { createFileRoute } from '@tanstack/react-router';
import { EnrollCoursePage } from '@/features/courses/enroll-course-page';

export const Route = createFileRoute('/_admin/courses/enrollment')({
  component: EnrollCoursePage,
});
