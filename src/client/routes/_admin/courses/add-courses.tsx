import { createFileRoute } from '@tanstack/react-router';
import { AddCoursePage } from '@/features/courses/add-course-page';

export const Route = createFileRoute('/_admin/courses/add-courses')({
  component: AddCoursePage,
});
