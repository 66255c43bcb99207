import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { AlertTriangleIcon, CheckCircle2Icon, GraduationCapIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { Handle, PersonName } from '@/components/person-name';
import { SelectFilter } from '@/components/filter-field';
import { LabelledDeleteConfirm } from '@/components/delete-confirm';
import { viewDeleteColumn } from '@/components/row-actions';
import { listPage, type TableHook } from '@/components/list-page';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useIsAdmin } from '@/lib/auth';
import { loadErrorMessage } from '@/lib/errors';
import { useConfirmedDelete } from '@/lib/use-row-mutations';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { formatCount, formatDay, formatMoney, plural } from '@shared/format';
import { DisplayStatusBadge } from './display-status-badge';
import { enrollmentList, STATUS_FILTER } from './enrollment-queries';

function Statistics() {
  const stats = useQuery(trpc.enrollments.statistics.queryOptions());
  if (stats.isError) {
    return <p className="mb-4 text-sm text-destructive">Error loading statistics: {loadErrorMessage(stats.error)}</p>;
  }
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-3">
      <StatCard
        title="Total Enrollments"
        value={stats.data?.totalEnrollments}
        icon={<GraduationCapIcon className="size-5 text-primary" />}
        testId="stat-total"
      />
      <StatCard
        title="Completed Enrollments"
        value={stats.data?.completedEnrollments}
        icon={<CheckCircle2Icon className="size-5 text-success" />}
        testId="stat-completed"
      />
      <StatCard
        title="Overdue Installments"
        value={stats.data?.overdueInstallments}
        icon={<AlertTriangleIcon className="size-5 text-destructive" />}
        testId="stat-overdue"
      />
    </div>
  );
}

function StatCard({
  title,
  value,
  icon,
  testId,
}: {
  title: string;
  value: number | undefined;
  icon: ReactNode;
  testId: string;
}) {
  return (
    <Card className="gap-2">
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
        {icon}
      </CardHeader>
      <CardContent>
        {value === undefined ? (
          <Skeleton className="h-8 w-16" />
        ) : (
          <p className="text-3xl font-semibold tabular-nums" data-testid={testId}>
            {formatCount(value)}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

type EnrollmentRow = RouterOutputs['enrollments']['list']['items'][number];

const studentName = (e: EnrollmentRow) => e.userId?.username ?? e.deletedUsername;
const courseName = (e: EnrollmentRow) => e.courseId?.courseName ?? e.deletedCourseName ?? 'Unknown course';
const paramsOf = (e: EnrollmentRow) => ({ courseId: e.courseId?._id ?? 'deleted', enrollmentId: e._id });

interface ToDelete {
  id: string;
  userId: string | null;
  label: string;
}

const useEnrollmentsTable: TableHook<typeof enrollmentList> = ({ paged }) => {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const del = useConfirmedDelete({
    // Only reached with a userId: confirmDelete refuses the rest first.
    toVariables: (t: ToDelete) => ({ id: t.id, userId: t.userId ?? '' }),
    mutationOptions: trpc.enrollments.delete.mutationOptions,
    success: 'Enrollment deleted successfully!',
    failure: 'Failed to delete enrollment',
    invalidate: () => queryClient.invalidateQueries(trpc.enrollments.pathFilter()),
  });

  const confirmDelete = () => {
    if (!del.target) return;
    if (!del.target.userId) {
      toast.error('User ID not found in enrollment data');
      del.close();
      return;
    }
    del.confirm();
  };

  return {
    filters: <SelectFilter {...STATUS_FILTER} {...paged.filter('status')} />,
    columns: [
      {
        header: 'Student',
        wrap: true,
        sort: 'username',
        cell: (e) => (
          <>
            <Link to="/courses/$courseId/enrollment/$enrollmentId" params={paramsOf(e)} className="hover:underline">
              <PersonName fullName={e.userId?.fullName} handle={studentName(e)} />
            </Link>
            <div className="text-xs text-muted-foreground">
              <Handle text={e.userId?.email ?? e.deletedEmail ?? '—'} />
              {!e.userId && ' (deleted user)'}
            </div>
          </>
        ),
      },
      {
        header: 'Course',
        wrap: true,
        sort: 'courseName',
        cell: (e) => (
          <>
            {courseName(e)}
            <div className="text-xs text-muted-foreground">
              {e.paymentType === 'full' ? 'Full payment' : plural(e.installments.length, 'installment')}
              {!e.courseId && ' · deleted course'}
            </div>
          </>
        ),
      },
      {
        header: 'Total Fee',
        sort: 'totalFee',
        headClassName: 'text-right',
        className: 'text-right tabular-nums',
        cell: (e) => formatMoney(e.totalFee, e.currency),
      },
      { header: 'Status', cell: (e) => <DisplayStatusBadge status={e.displayStatus} /> },
      { header: 'Enrolled On', sort: 'createdAt', cell: (e) => formatDay(e.enrolledOn) },
      viewDeleteColumn({
        of: (e) => `enrollment of ${studentName(e) ?? 'student'}`,
        view: (e, link) => <Link to="/courses/$courseId/enrollment/$enrollmentId" params={paramsOf(e)} {...link} />,
        onDelete: admin
          ? (e) =>
              del.ask({
                id: e._id,
                userId: e.userId?._id ?? e.deletedEmail,
                label: `${studentName(e) ?? 'Unknown'} in ${courseName(e)}`,
              })
          : undefined,
      }),
    ],
    dialog: (
      <LabelledDeleteConfirm
        del={del}
        what="enrollment of"
        consequence="Its payment history is deleted with it."
        onConfirm={confirmDelete}
      />
    ),
  };
};

/** docs/product.md#screens-and-routes, All Enrollments: statistics cards, table, rows link to the detail. */
export const AllEnrollmentsPage = listPage(enrollmentList, useEnrollmentsTable, { above: <Statistics /> });
