import { EnrollmentLink } from '@/components/record-links';
import { RELATED_PAGE_SIZE, RelatedCard } from '@/components/related-card';
import { trpc } from '@/lib/trpc';
import { formatDay, formatMoney } from '@shared/format';
import { DisplayStatusBadge } from './display-status-badge';
import { EnrollmentCourse, EnrollmentStudent } from './enrollment-names';

/**
 * The enrolments of one course (naming the students) or of one student (naming the courses),
 * newest first, each leading to its details.
 */
export function RelatedEnrollments({ of }: { of: { courseId: string } | { userId: string } }) {
  const byCourse = 'courseId' in of;
  return (
    <RelatedCard
      title="Enrollments"
      label="Enrollments"
      query={(page) =>
        trpc.enrollments.list.queryOptions({ ...of, page, pageSize: RELATED_PAGE_SIZE, sortDir: 'desc' })
      }
      empty="No enrollments yet."
      rowTestId="related-enrollment"
      columns={[
        {
          header: byCourse ? 'Student' : 'Course',
          cell: (e) => (byCourse ? <EnrollmentStudent e={e} /> : <EnrollmentCourse e={e} />),
        },
        { header: 'Enrolled On', cell: (e) => formatDay(e.enrolledOn) },
        {
          header: 'Total Fee',
          headClassName: 'text-right',
          className: 'text-right tabular-nums',
          cell: (e) => formatMoney(e.totalFee, e.currency),
        },
        { header: 'Status', cell: (e) => <DisplayStatusBadge status={e.displayStatus} /> },
        {
          header: 'Details',
          headClassName: 'text-right',
          className: 'text-right',
          cell: (e) => (
            <EnrollmentLink
              courseId={e.courseId?._id}
              enrollmentId={e._id}
              label={`View enrollment of ${e.userId?.username ?? e.deletedUsername ?? 'Unknown'} in ${e.courseId?.courseName ?? e.deletedCourseName ?? 'Unknown course'}`}
            >
              View
            </EnrollmentLink>
          ),
        },
      ]}
    />
  );
}
