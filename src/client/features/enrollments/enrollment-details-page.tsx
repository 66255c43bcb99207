import { useQuery } from '@tanstack/react-query';
import { DetailsPage } from '@/components/details-page';
import { useIsAdmin } from '@/lib/auth';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { InstallmentsCard } from '@/features/payments/installment-table';
import { PaymentsPanel } from '@/features/payments/payments-panel';
import { AdjustmentsPanel } from '@/features/adjustments/adjustments-panel';
import { useInstallmentToggle } from '@/features/payments/use-installment-toggle';
import { formatDay } from '@shared/format';
import { EnrollmentCard, FeesCard } from './enrollment-cards';

/** docs/product.md#screens-and-routes, Student Enrollment Details. The course id in the URL is informational. */
export function EnrollmentDetailsPage({ enrollmentId }: { courseId: string; enrollmentId: string }) {
  return (
    <DetailsPage entity="enrollment" id={enrollmentId} query={trpc.enrollments.get.queryOptions({ id: enrollmentId })}>
      {(e) => <EnrollmentDetails enrollment={e} />}
    </DetailsPage>
  );
}

function EnrollmentDetails({ enrollment: e }: { enrollment: RouterOutputs['enrollments']['get'] }) {
  const admin = useIsAdmin();
  const currency = useQuery(trpc.enrollments.currency.queryOptions());
  const toggle = useInstallmentToggle('enrollment', e._id);
  const local = e.currency || currency.data?.localCurrency || 'LKR';
  return (
    <div className="grid max-w-5xl gap-6">
      <div className="grid gap-6 md:grid-cols-2">
        <EnrollmentCard enrollment={e} />
        <FeesCard enrollment={e} local={local} currency={currency.data} />
      </div>
      <InstallmentsCard
        title="Installments"
        currency={local}
        installments={e.installments}
        toggle={admin ? { ...toggle, disabled: e.status === 'Completed' } : undefined}
      />
      <AdjustmentsPanel
        record={{ enrollmentId: e._id }}
        currency={local}
        closed={e.status === 'Completed' ? 'This enrollment is completed.' : null}
        items={[
          ...(e.admissionFee > 0 ? [{ id: 'admission_fee', label: 'Admission fee' }] : []),
          ...e.installments.map((i, n) => ({ id: i._id, label: `Installment ${n + 1} (due ${formatDay(i.dueDate)})` })),
        ]}
      />
      <PaymentsPanel kind="enrollment" id={e._id} />
    </div>
  );
}
