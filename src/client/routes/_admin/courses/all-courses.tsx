import { createFileRoute } from '@tanstack/react-router';
import { CoursesPage } from '@/features/courses/courses-page';
import { courseList } from '@/features/courses/course-queries';

export const Route = createFileRoute('/_admin/courses/all-courses')({ ...courseList.route, component: CoursesPage });
