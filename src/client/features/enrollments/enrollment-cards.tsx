import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CheckCircle2Icon } from 'lucide-react';
import { Handle } from '@/components/person-name';
import { DetailList, DetailRow } from '@/components/detail-list';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useIsAdmin } from '@/lib/auth';
import { toastOutcome } from '@/lib/toast-outcome';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { formatDate, formatDay, formatMoney, formatRate } from '@shared/format';
import { toForeign } from '@shared/money';
import { invalidateMoney } from '@/features/payments/payments-table';
import { MarkAdmissionFeePaidDialog, UnmarkConfirm } from '@/features/payments/mark-dialogs';
import { DisplayStatusBadge } from './display-status-badge';
import { EnrollmentCourse, EnrollmentStudent } from './enrollment-names';

type Enrollment = RouterOutputs['enrollments']['get'];
type CurrencySettings = RouterOutputs['enrollments']['currency'];

/** Who is enrolled on what: the student and the course lead to their own screens while they exist. */
export function EnrollmentCard({ enrollment: e }: { enrollment: Enrollment }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Enrollment</CardTitle>
      </CardHeader>
      <CardContent>
        <DetailList>
          <DetailRow label="Student">
            <EnrollmentStudent e={e} />
          </DetailRow>
          <DetailRow label="Email">
            <Handle text={e.userId?.email ?? e.deletedEmail ?? '—'} />
          </DetailRow>
          <DetailRow label="Course">
            <EnrollmentCourse e={e} />
          </DetailRow>
          <DetailRow label="Payment Type" className="capitalize">
            {e.paymentType}
          </DetailRow>
          <DetailRow label="Enrolled On">{formatDay(e.enrolledOn)}</DetailRow>
          <DetailRow label="Status">
            <DisplayStatusBadge status={e.displayStatus} />
          </DetailRow>
          {e.completedAt && <DetailRow label="Completed On">{formatDate(e.completedAt)}</DetailRow>}
        </DetailList>
      </CardContent>
    </Card>
  );
}

/** The fees with their USD equivalent, the admission fee's switch and Mark as Completed (admins). */
export function FeesCard({
  enrollment: e,
  local,
  currency,
}: {
  enrollment: Enrollment;
  local: string;
  currency: CurrencySettings | undefined;
}) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  // Statistics, lists, this detail and the ledger all change with a payment.
  const refresh = () => invalidateMoney(queryClient);
  const payAdmission = useMutation(
    trpc.enrollments.payAdmissionFee.mutationOptions(
      toastOutcome('Admission fee status updated!', 'Failed to update admission fee status', refresh),
    ),
  );
  const complete = useMutation(
    trpc.enrollments.complete.mutationOptions(
      toastOutcome('Enrollment marked as completed!', 'Failed to complete enrollment', refresh),
    ),
  );
  // Neither way acts at once (docs/payments.md#the-paidunpaid-switch): paid opens Record payment
  // for the fee, unpaid names the receipts it voids and asks to confirm.
  const [asking, setAsking] = useState(false);
  const close = () => setAsking(false);
  const foreign = currency?.foreignCurrency ?? 'USD';
  const rate = currency?.exchangeRate;
  const completed = e.status === 'Completed';
  const fullyPaid = e.displayStatus === 'Active (Paid)';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Fees</CardTitle>
      </CardHeader>
      <CardContent>
        <DetailList>
          <DetailRow label="Total Fee">
            <span data-testid="total-fee">{formatMoney(e.totalFee, local)}</span>
            {rate !== undefined && (
              <span className="text-muted-foreground" data-testid="total-fee-usd">
                {' '}
                (≈ {formatMoney(toForeign(e.totalFee, rate), foreign)})
              </span>
            )}
          </DetailRow>
          <DetailRow label="Admission Fee">
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
                  // The label wraps inside the narrow value column of a phone instead of widening the page.
                  className="h-auto min-h-8 max-w-full shrink py-1 whitespace-normal text-left"
                  disabled={payAdmission.isPending}
                  onClick={() => setAsking(true)}
                >
                  {payAdmission.isPending && <Spinner />}
                  {e.admissionFeePaid ? 'Mark Admission Fee as Unpaid' : 'Mark Admission Fee as Paid'}
                </Button>
              )}
              {asking &&
                (e.admissionFeePaid ? (
                  <UnmarkConfirm
                    kind="enrollment"
                    id={e._id}
                    installment={null}
                    currency={local}
                    pending={payAdmission.isPending}
                    onCancel={close}
                    onConfirm={() => payAdmission.mutate({ id: e._id, isPaid: false }, { onSettled: close })}
                  />
                ) : (
                  <MarkAdmissionFeePaidDialog
                    id={e._id}
                    admissionFee={e.admissionFee}
                    amountPaid={e.admissionFeeAmountPaid}
                    currency={local}
                    onClose={close}
                  />
                ))}
            </span>
          </DetailRow>
          <DetailRow label="Paid So Far">{formatMoney(e.paidAmount, local)}</DetailRow>
          <DetailRow label="Outstanding">{formatMoney(e.outstandingAmount, local)}</DetailRow>
          {rate !== undefined && (
            <DetailRow label="Exchange Rate">
              1 {foreign} = {formatRate(rate)} {local}
            </DetailRow>
          )}
        </DetailList>
        {admin && !completed && (
          <div className="mt-4 flex items-center gap-3">
            <Button
              size="sm"
              disabled={complete.isPending || !fullyPaid}
              onClick={() => complete.mutate({ id: e._id })}
            >
              {complete.isPending ? <Spinner /> : <CheckCircle2Icon />} Mark as Completed
            </Button>
            {!fullyPaid && (
              <span className="text-xs text-muted-foreground">
                Available once the admission fee and every installment are paid.
              </span>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
