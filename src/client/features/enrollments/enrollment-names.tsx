import { PersonName } from '@/components/person-name';
import { CourseLink, KeptName, UserLink } from '@/components/record-links';

/** What an enrolment names: its student and its course, or what it kept of them once deleted. */
type Named = {
  userId: { _id: string; fullName: string | null; username: string } | null;
  deletedUsername?: string | null;
  courseId: { _id: string; courseName: string } | null;
  deletedCourseName?: string | null;
};

/** The enrolment's student, leading to their screen while the account exists. */
export function EnrollmentStudent({ e }: { e: Named }) {
  return (
    <KeptName kept={e.deletedUsername ?? 'Unknown'} gone="deleted user">
      {e.userId && (
        <UserLink id={e.userId._id}>
          <PersonName fullName={e.userId.fullName} handle={e.userId.username} />
        </UserLink>
      )}
    </KeptName>
  );
}

/** The enrolment's course, leading to its screen while the course exists. */
export function EnrollmentCourse({ e }: { e: Named }) {
  return (
    <KeptName kept={e.deletedCourseName ?? 'Unknown course'} gone="deleted course">
      {e.courseId && <CourseLink id={e.courseId._id}>{e.courseId.courseName}</CourseLink>}
    </KeptName>
  );
}
