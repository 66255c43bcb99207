import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { AlertTriangleIcon, CheckCircle2Icon, EyeIcon, GraduationCapIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Pagination } from '@/components/pagination';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage, loadErrorMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { DISPLAY_STATUSES } from '../../../shared/enrollment-status';
import { formatRsList } from '../../../shared/money';
import { DisplayStatusBadge } from './display-status-badge';
import { ENROLLMENT_PAGE_SIZE, enrollmentListOptions, formatDay, type EnrollmentListSearch } from './enrollment-queries';

const COLUMNS = 7;

/** spec section 2, All Enrollments: statistics cards, table, rows link to the detail. */
export function AllEnrollmentsPage({ search, onSearchChange }: { search: EnrollmentListSearch; onSearchChange: (next: EnrollmentListSearch) => void }) {
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
      <StatCard title="Total Enrollments" value={stats.data?.totalEnrollments} icon={<GraduationCapIcon className="size-5 text-primary" />} testId="stat-total" />
      <StatCard title="Completed Enrollments" value={stats.data?.completedEnrollments} icon={<CheckCircle2Icon className="size-5 text-success" />} testId="stat-completed" />
      <StatCard title="Overdue Installments" value={stats.data?.overdueInstallments} icon={<AlertTriangleIcon className="size-5 text-destructive" />} testId="stat-overdue" />
    </div>
  );
}

function StatCard({ title, value, icon, testId }: { title: string; value: number | undefined; icon: ReactNode; testId: string }) {
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
            {value.toLocaleString('en-US')}
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

function EnrollmentsTable({ search, onSearchChange }: { search: EnrollmentListSearch; onSearchChange: (next: EnrollmentListSearch) => void }) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const page = search.page ?? 1;
  const list = useQuery({ ...enrollmentListOptions(search), placeholderData: keepPreviousData });
  const [toDelete, setToDelete] = useState<ToDelete | null>(null);

  const remove = useMutation(
    trpc.enrollments.delete.mutationOptions({
      onSuccess: async () => {
        toast.success('Enrollment deleted successfully!');
        setToDelete(null);
        await queryClient.invalidateQueries(trpc.enrollments.pathFilter());
      },
      onError: (err) => {
        toast.error(explainedMessage(err, 'Failed to delete enrollment'));
        setToDelete(null);
      },
    }),
  );

  const confirmDelete = () => {
    if (!toDelete) return;
    if (!toDelete.userId) {
      toast.error('User ID not found in enrollment data');
      setToDelete(null);
      return;
    }
    remove.mutate({ id: toDelete.id, userId: toDelete.userId });
  };

  const items = list.data?.items;
  useEffect(() => {
    if (items && items.length === 0 && page > 1 && !list.isPlaceholderData) onSearchChange({ ...search, page: page - 1 });
  }, [items, page, list.isPlaceholderData, onSearchChange, search]);

  return (
    <>
      <Card className="gap-4">
        <CardContent className="flex flex-wrap items-center gap-3">
          <SearchInput
            value={search.q ?? ''}
            onChange={(q) => onSearchChange({ ...search, q: q || undefined, page: undefined })}
            placeholder="Search by student email, name or course"
            aria-label="Search enrollments"
          />
          <select
            aria-label="Filter by status"
            className="h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs"
            value={search.status ?? ''}
            onChange={(e) => {
              const status = DISPLAY_STATUSES.find((s) => s === e.target.value);
              onSearchChange({ ...search, status, page: undefined });
            }}
          >
            <option value="">All statuses</option>
            {DISPLAY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          {list.isFetching && !list.isPending && <Spinner className="text-muted-foreground" />}
        </CardContent>
        <CardContent>
          {list.isError ? (
            <LoadError error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <>
              <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label="Enrollments">
                <TableHeader className="sticky top-0 z-10 bg-background">
                  <TableRow>
                    <TableHead className="w-12">#</TableHead>
                    <TableHead>Student</TableHead>
                    <TableHead>Course</TableHead>
                    <TableHead className="text-right">Total Fee</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Enrolled On</TableHead>
                    <TableHead className="w-24 text-right">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {list.isPending &&
                    Array.from({ length: 4 }, (_, i) => (
                      <TableRow key={i} data-testid="loading-row">
                        <TableCell colSpan={COLUMNS}>
                          <Skeleton className="h-6 w-full" />
                        </TableCell>
                      </TableRow>
                    ))}
                  {items?.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={COLUMNS} className="py-10 text-center text-muted-foreground">
                        {search.q || search.status ? 'No enrollments match your search.' : 'No enrollments found.'}
                      </TableCell>
                    </TableRow>
                  )}
                  {items?.map((e, i) => {
                    const studentEmail = e.userId?.email ?? e.deletedEmail;
                    const studentName = e.userId?.username ?? e.deletedUsername;
                    const courseName = e.courseId?.courseName ?? e.deletedCourseName ?? 'Unknown course';
                    const params = { courseId: e.courseId?._id ?? 'deleted', enrollmentId: e._id };
                    return (
                      <TableRow key={e._id} data-testid="enrollment-row" data-enrollment-id={e._id}>
                        <TableCell className="text-muted-foreground">{(page - 1) * ENROLLMENT_PAGE_SIZE + i + 1}</TableCell>
                        <TableCell>
                          <Link to="/courses/$courseId/enrollment/$enrollmentId" params={params} className="font-medium hover:underline">
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
                            {e.paymentType === 'full' ? 'Full payment' : `${e.installments.length} installments`}
                            {!e.courseId && ' · deleted course'}
                          </div>
                        </TableCell>
                        <TableCell className="text-right tabular-nums">{formatRsList(e.totalFee)}</TableCell>
                        <TableCell>
                          <DisplayStatusBadge status={e.displayStatus} />
                        </TableCell>
                        <TableCell>{formatDay(e.enrolledOn)}</TableCell>
                        <TableCell className="text-right">
                          <div className="flex justify-end gap-2">
                            <Button size="icon-sm" variant="outline" asChild>
                              <Link to="/courses/$courseId/enrollment/$enrollmentId" params={params} aria-label={`View enrollment of ${studentName ?? 'student'}`} title="View">
                                <EyeIcon />
                              </Link>
                            </Button>
                            {admin && (
                              <Button
                                size="icon-sm"
                                variant="outline"
                                className="text-destructive hover:text-destructive"
                                aria-label={`Delete enrollment of ${studentName ?? 'student'}`}
                                title="Delete"
                                onClick={() => setToDelete({ id: e._id, userId: e.userId?._id ?? e.deletedEmail, label: `${studentName ?? 'Unknown'} in ${courseName}` })}
                              >
                                <Trash2Icon />
                              </Button>
                            )}
                          </div>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
              {list.data && <Pagination page={page} pageSize={ENROLLMENT_PAGE_SIZE} total={list.data.total} onPageChange={(p) => onSearchChange({ ...search, page: p > 1 ? p : undefined })} />}
            </>
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        pending={remove.isPending}
        description={
          <>
            Are you sure you want to delete the enrollment of <strong className="text-foreground">{toDelete?.label}</strong>? Its payment history is deleted with it. This action cannot be undone.
          </>
        }
        onConfirm={confirmDelete}
      />
    </>
  );
}
