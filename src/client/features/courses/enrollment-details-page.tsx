import { PlaceholderPage } from '@/components/placeholder-page';

/** Placeholder until its issue builds the screen (spec section 2, Student Enrollment Details); the route file stays as is. */
export function EnrollmentDetailsPage({ courseId, enrollmentId }: { courseId: string; enrollmentId: string }) {
  return (
    <div>
      <PlaceholderPage title="Student Enrollment Details" />
      <p className="text-sm text-muted-foreground">Course {courseId}, enrolment {enrollmentId}</p>
    </div>
  );
}
