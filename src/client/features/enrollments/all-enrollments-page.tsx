import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { AlertTriangleIcon, CheckCircle2Icon, EyeIcon, GraduationCapIcon, PlusIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListCard } from '@/components/list-card';
import { PageHeader } from '@/components/page-header';
import { SortableHead } from '@/components/sortable-head';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { DeleteButton } from '@/components/row-actions';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { loadErrorMessage } from '@/lib/errors';
import { oneOf } from '@/lib/list-search';
import { useUrlSearch } from '@/lib/list-route';
import { usePagedList } from '@/lib/use-paged-list';
import { useConfirmedDelete } from '@/lib/use-row-mutations';
import { trpc } from '@/lib/trpc';
import { DISPLAY_STATUSES } from '@shared/enrollment-status';
import { formatCount, formatDay, formatMoney, plural } from '@shared/format';
import { DisplayStatusBadge } from './display-status-badge';
import {
  ENROLLMENT_PAGE_SIZE,
  enrollmentListOptions,
  enrollmentSort,
  validateEnrollmentListSearch,
  type EnrollmentListSearch,
} from './enrollment-queries';

/** docs/product.md#screens-and-routes, All Enrollments: statistics cards, table, rows link to the detail. */
export function AllEnrollmentsPage() {
  const [search, onSearchChange] = useUrlSearch(validateEnrollmentListSearch);
  return (
    <div>
      <PageHeader
        title="All Enrollments"
        description="Every student enrolment with its payment state."
        actions={
          <Button asChild>
            <Link to="/courses/enrollment">
              <PlusIcon /> Enroll Student
            </Link>
          </Button>
        }
      />
      <RequireRole roles={STAFF_ROLES}>
        <Statistics />
        <EnrollmentsTable search={search} onSearchChange={onSearchChange} />
      </RequireRole>
    </div>
  );
}

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

interface ToDelete {
  id: string;
  userId: string | null;
  label: string;
}

function EnrollmentsTable({
  search,
  onSearchChange,
}: {
  search: EnrollmentListSearch;
  onSearchChange: (next: EnrollmentListSearch) => void;
}) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const paged = usePagedList(enrollmentListOptions(search), search, onSearchChange);
  const sort = enrollmentSort(search);
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

  return (
    <>
      <ListCard
        paged={paged}
        searchPlaceholder="Search by student email, name or course"
        searchLabel="Search enrollments"
        filters={
          <select
            aria-label="Filter by status"
            className="h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs"
            value={search.status ?? ''}
            onChange={(e) => paged.setFilter({ status: oneOf(DISPLAY_STATUSES, e.target.value) })}
          >
            <option value="">All statuses</option>
            {DISPLAY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        }
        label="Enrollments"
        columns={7}
        empty={search.q || search.status ? 'No enrollments match your search.' : 'No enrollments found.'}
        pageSize={ENROLLMENT_PAGE_SIZE}
        head={
          <>
            <TableHead className="w-12">#</TableHead>
            <SortableHead column="username" sort={sort} onSort={paged.setSort}>
              Student
            </SortableHead>
            <SortableHead column="courseName" sort={sort} onSort={paged.setSort}>
              Course
            </SortableHead>
            <SortableHead column="totalFee" sort={sort} onSort={paged.setSort} className="text-right">
              Total Fee
            </SortableHead>
            <TableHead>Status</TableHead>
            <SortableHead column="createdAt" sort={sort} onSort={paged.setSort}>
              Enrolled On
            </SortableHead>
            <TableHead className="w-24 text-right">Actions</TableHead>
          </>
        }
      >
        {paged.list.data?.items.map((e, i) => {
          const studentEmail = e.userId?.email ?? e.deletedEmail;
          const studentName = e.userId?.username ?? e.deletedUsername;
          const courseName = e.courseId?.courseName ?? e.deletedCourseName ?? 'Unknown course';
          const params = { courseId: e.courseId?._id ?? 'deleted', enrollmentId: e._id };
          return (
            <TableRow key={e._id} data-testid="enrollment-row" data-enrollment-id={e._id}>
              <TableCell className="text-muted-foreground">{(paged.page - 1) * ENROLLMENT_PAGE_SIZE + i + 1}</TableCell>
              <TableCell>
                <Link
                  to="/courses/$courseId/enrollment/$enrollmentId"
                  params={params}
                  className="font-medium hover:underline"
                >
                  {studentName ?? 'Unknown'}
                </Link>
                <div className="text-xs text-muted-foreground">
                  {studentEmail ?? '—'}
                  {!e.userId && ' (deleted user)'}
                </div>
              </TableCell>
              <TableCell>
                {courseName}
                <div className="text-xs text-muted-foreground">
                  {e.paymentType === 'full' ? 'Full payment' : plural(e.installments.length, 'installment')}
                  {!e.courseId && ' · deleted course'}
                </div>
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatMoney(e.totalFee, e.currency)}</TableCell>
              <TableCell>
                <DisplayStatusBadge status={e.displayStatus} />
              </TableCell>
              <TableCell>{formatDay(e.enrolledOn)}</TableCell>
              <TableCell className="text-right">
                <div className="flex justify-end gap-2">
                  <Button size="icon-sm" variant="outline" asChild>
                    <Link
                      to="/courses/$courseId/enrollment/$enrollmentId"
                      params={params}
                      aria-label={`View enrollment of ${studentName ?? 'student'}`}
                      title="View"
                    >
                      <EyeIcon />
                    </Link>
                  </Button>
                  {admin && (
                    <DeleteButton
                      size="icon-sm"
                      label={`Delete enrollment of ${studentName ?? 'student'}`}
                      onClick={() =>
                        del.ask({
                          id: e._id,
                          userId: e.userId?._id ?? e.deletedEmail,
                          label: `${studentName ?? 'Unknown'} in ${courseName}`,
                        })
                      }
                    />
                  )}
                </div>
              </TableCell>
            </TableRow>
          );
        })}
      </ListCard>
      <ConfirmDialog
        {...del.dialog}
        description={
          <>
            Are you sure you want to delete the enrollment of{' '}
            <strong className="text-foreground">{del.target?.label}</strong>? Its payment history is deleted with it.
            This action cannot be undone.
          </>
        }
        onConfirm={confirmDelete}
      />
    </>
  );
}
