import { createFileRoute } from '@tanstack/react-router';
import { AllEnrollmentsPage } from '@/features/courses/all-enrollments-page';

export const Route = createFileRoute('/_admin/courses/AllStudentEnrollments')({
  component: AllEnrollmentsPage,
});
