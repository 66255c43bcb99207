import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon, CheckCircle2Icon } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { RequireRole, STAFF_ROLES } from '@/components/require-role';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatDate, formatDay, formatMoney, formatRate } from '@shared/format';
import { toForeign } from '@shared/money';
import { PaymentsPanel } from '@/features/payments/payments-panel';
import { DisplayStatusBadge } from './display-status-badge';
import { HistoryPanel } from '@/features/audit/history-panel';

/** docs/product.md#screens-and-routes, Student Enrollment Details. The course id in the URL is informational. */
export function EnrollmentDetailsPage({ enrollmentId }: { courseId: string; enrollmentId: string }) {
  return (
    <div>
      <PageHeader
        title="Student Enrollment Details"
        actions={
          <Button variant="outline" asChild>
            <Link to="/courses/AllStudentEnrollments">
              <ArrowLeftIcon /> All Enrollments
            </Link>
          </Button>
        }
      />
      <RequireRole roles={STAFF_ROLES}>
        <EnrollmentDetails enrollmentId={enrollmentId} />
        <HistoryPanel entityType="enrollment" entityId={enrollmentId} />
      </RequireRole>
    </div>
  );
}

function EnrollmentDetails({ enrollmentId }: { enrollmentId: string }) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const enrollment = useQuery(trpc.enrollments.get.queryOptions({ id: enrollmentId }));
  const currency = useQuery(trpc.enrollments.currency.queryOptions());
  // Statistics, lists and this detail all change with a payment.
  const invalidate = () => queryClient.invalidateQueries(trpc.enrollments.pathFilter());

  const payInstallment = useMutation(
    trpc.enrollments.payInstallment.mutationOptions({
      onSuccess: async () => {
        toast.success('Installment status updated!');
        await invalidate();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to update installment status')),
    }),
  );
  const payAdmission = useMutation(
    trpc.enrollments.payAdmissionFee.mutationOptions({
      onSuccess: async () => {
        toast.success('Admission fee status updated!');
        await invalidate();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to update admission fee status')),
    }),
  );
  const complete = useMutation(
    trpc.enrollments.complete.mutationOptions({
      onSuccess: async () => {
        toast.success('Enrollment marked as completed!');
        await invalidate();
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to complete enrollment')),
    }),
  );

  if (enrollment.isError) return <LoadError error={enrollment.error} onRetry={() => void enrollment.refetch()} />;
  if (enrollment.isPending) return <Skeleton className="h-64 w-full max-w-4xl" />;
  const e = enrollment.data;
  const local = e.currency || currency.data?.localCurrency || 'LKR';
  const foreign = currency.data?.foreignCurrency ?? 'USD';
  const rate = currency.data?.exchangeRate;
  const completed = e.status === 'Completed';

  return (
    <div className="grid max-w-5xl gap-6">
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Enrollment</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
              <Row label="Student">
                {e.userId?.username ?? e.deletedUsername ?? 'Unknown'}
                {!e.userId && <span className="text-muted-foreground"> (deleted user)</span>}
              </Row>
              <Row label="Email">{e.userId?.email ?? e.deletedEmail ?? '—'}</Row>
              <Row label="Course">
                {e.courseId?.courseName ?? e.deletedCourseName ?? 'Unknown course'}
                {!e.courseId && <span className="text-muted-foreground"> (deleted course)</span>}
              </Row>
              <Row label="Payment Type">
                <span className="capitalize">{e.paymentType}</span>
              </Row>
              <Row label="Enrolled On">{formatDay(e.enrolledOn)}</Row>
              <Row label="Status">
                <DisplayStatusBadge status={e.displayStatus} />
              </Row>
              {e.completedAt && <Row label="Completed On">{formatDate(e.completedAt)}</Row>}
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Fees</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
              <Row label="Total Fee">
                <span data-testid="total-fee">{formatMoney(e.totalFee, local)}</span>
                {rate !== undefined && (
                  <span className="text-muted-foreground" data-testid="total-fee-usd">
                    {' '}
                    (≈ {formatMoney(toForeign(e.totalFee, rate), foreign)})
                  </span>
                )}
              </Row>
              <Row label="Admission Fee">
                <span className="flex flex-wrap items-center gap-2">
                  {formatMoney(e.admissionFee, local)}
                  {e.admissionFee === 0 && !e.admissionFeePaid ? (
                    <Badge variant="secondary" data-testid="admission-fee-state">
                      Not required
                    </Badge>
                  ) : (
                    <Badge variant={e.admissionFeePaid ? 'success' : 'warning'} data-testid="admission-fee-state">
                      {e.admissionFeePaid ? 'Paid' : 'Unpaid'}
                    </Badge>
                  )}
                  {admin && !completed && (e.admissionFee > 0 || e.admissionFeePaid) && (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={payAdmission.isPending}
                      onClick={() => payAdmission.mutate({ id: e._id, isPaid: !e.admissionFeePaid })}
                    >
                      {payAdmission.isPending && <Spinner />}
                      {e.admissionFeePaid ? 'Mark Admission Fee as Unpaid' : 'Mark Admission Fee as Paid'}
                    </Button>
                  )}
                </span>
              </Row>
              <Row label="Paid So Far">{formatMoney(e.paidAmount, local)}</Row>
              <Row label="Outstanding">{formatMoney(e.outstandingAmount, local)}</Row>
              {rate !== undefined && (
                <Row label="Exchange Rate">
                  1 {foreign} = {formatRate(rate)} {local}
                </Row>
              )}
            </dl>
            {admin && !completed && (
              <div className="mt-4 flex items-center gap-3">
                <Button
                  size="sm"
                  disabled={complete.isPending || e.displayStatus !== 'Active (Paid)'}
                  onClick={() => complete.mutate({ id: e._id })}
                >
                  {complete.isPending ? <Spinner /> : <CheckCircle2Icon />} Mark as Completed
                </Button>
                {e.displayStatus !== 'Active (Paid)' && (
                  <span className="text-xs text-muted-foreground">
                    Available once the admission fee and every installment are paid.
                  </span>
                )}
              </div>
            )}
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Installments</CardTitle>
        </CardHeader>
        <CardContent>
          <Table containerClassName="max-h-[500px] overflow-y-auto rounded-md border" aria-label="Installments">
            <TableHeader className="sticky top-0 z-10 bg-background">
              <TableRow>
                <TableHead className="w-12">#</TableHead>
                <TableHead className="text-right">Amount ({local})</TableHead>
                <TableHead className="text-right">Paid so far</TableHead>
                <TableHead>Due Date</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Paid Date</TableHead>
                {admin && <TableHead className="w-40 text-right">Action</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {e.installments.map((i, n) => (
                <TableRow key={i._id} data-testid="installment-row">
                  <TableCell className="text-muted-foreground">{n + 1}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatMoney(i.amount, local)}</TableCell>
                  <TableCell className="text-right tabular-nums" data-testid="installment-paid">
                    {formatMoney(i.amountPaid, local)}
                  </TableCell>
                  <TableCell>{formatDay(i.dueDate)}</TableCell>
                  <TableCell>
                    <Badge
                      variant={i.isPaid ? 'success' : i.isOverdue ? 'destructive' : 'warning'}
                      data-testid="installment-state"
                    >
                      {i.isPaid ? 'Paid' : i.isOverdue ? 'Overdue' : 'Pending'}
                    </Badge>
                  </TableCell>
                  <TableCell>{i.isPaid ? formatDate(i.paidAt) : '—'}</TableCell>
                  {admin && (
                    <TableCell className="text-right">
                      <Button
                        size="sm"
                        variant={i.isPaid ? 'outline' : 'default'}
                        disabled={
                          completed || (payInstallment.isPending && payInstallment.variables.installmentId === i._id)
                        }
                        onClick={() => payInstallment.mutate({ id: e._id, installmentId: i._id, isPaid: !i.isPaid })}
                      >
                        {i.isPaid ? 'Mark as Unpaid' : 'Mark as Paid'}
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      <PaymentsPanel kind="enrollment" id={e._id} />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words">{children}</dd>
    </>
  );
}
