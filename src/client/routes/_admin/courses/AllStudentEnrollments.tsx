import { createFileRoute } from '@tanstack/react-router';
import { AllEnrollmentsPage } from '@/features/enrollments/all-enrollments-page';
import { enrollmentList } from '@/features/enrollments/enrollment-queries';

export const Route = createFileRoute('/_admin/courses/AllStudentEnrollments')({
  ...enrollmentList.route,
  component: AllEnrollmentsPage,
});
