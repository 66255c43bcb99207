import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CourseLink, EnrollmentLink, KeptName, UserLink } from '@/components/record-links';
import { RELATED_PAGE_SIZE, RelatedCard } from '@/components/related-card';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { formatDay, formatMoney } from '@shared/format';
import { DisplayStatusBadge } from './display-status-badge';

/**
 * The enrolments of one course (naming the students) or of one student (naming the courses),
 * newest first, each leading to its details.
 */
export function RelatedEnrollments({ of }: { of: { courseId: string } | { userId: string } }) {
  const [page, setPage] = useState(1);
  const query = useQuery({
    ...trpc.enrollments.list.queryOptions({ ...of, page, pageSize: RELATED_PAGE_SIZE, sortDir: 'desc' }),
    placeholderData: keepPreviousData,
  });
  const byCourse = 'courseId' in of;
  return (
    <RelatedCard
      title="Enrollments"
      label="Enrollments"
      query={query}
      page={page}
      onPageChange={setPage}
      empty="No enrollments yet."
      head={
        <>
          <TableHead>{byCourse ? 'Student' : 'Course'}</TableHead>
          <TableHead>Enrolled On</TableHead>
          <TableHead className="text-right">Total Fee</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Details</TableHead>
        </>
      }
    >
      {(e) => (
        <TableRow key={e._id} data-testid="related-enrollment">
          <TableCell>
            {byCourse ? (
              <KeptName kept={e.deletedUsername ?? 'Unknown'} gone="deleted user">
                {e.userId && <UserLink id={e.userId._id}>{e.userId.username}</UserLink>}
              </KeptName>
            ) : (
              <KeptName kept={e.deletedCourseName ?? 'Unknown course'} gone="deleted course">
                {e.courseId && <CourseLink id={e.courseId._id}>{e.courseId.courseName}</CourseLink>}
              </KeptName>
            )}
          </TableCell>
          <TableCell>{formatDay(e.enrolledOn)}</TableCell>
          <TableCell className="text-right tabular-nums">{formatMoney(e.totalFee, e.currency)}</TableCell>
          <TableCell>
            <DisplayStatusBadge status={e.displayStatus} />
          </TableCell>
          <TableCell className="text-right">
            <EnrollmentLink
              courseId={e.courseId?._id}
              enrollmentId={e._id}
              label={`View enrollment of ${e.userId?.username ?? e.deletedUsername ?? 'Unknown'} in ${e.courseId?.courseName ?? e.deletedCourseName ?? 'Unknown course'}`}
            >
              View
            </EnrollmentLink>
          </TableCell>
        </TableRow>
      )}
    </RelatedCard>
  );
}
