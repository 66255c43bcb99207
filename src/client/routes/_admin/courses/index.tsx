import { createFileRoute } from '@tanstack/react-router';
import { CoursesPage } from '@/features/courses/courses-page';

export const Route = createFileRoute('/_admin/courses/')({
  component: CoursesPage,
});
