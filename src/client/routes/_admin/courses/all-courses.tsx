import { createFileRoute } from '@tanstack/react-router';
import { CoursesPage } from '@/features/courses/courses-page';
import { coursesRoute } from '@/features/courses/course-queries';

export const Route = createFileRoute('/_admin/courses/all-courses')({ ...coursesRoute, component: CoursesPage });
