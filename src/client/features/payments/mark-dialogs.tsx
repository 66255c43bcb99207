import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import type { TInstallment } from '@shared/schemas/installments.output';
import { RecordPaymentDialog } from './payments-panel';

/**
 * Mark as Unpaid asks first (docs/payments.md#the-paidunpaid-switch): it names the receipts it
 * would void, as the server plans it, or the receipt that settles something else and must be
 * voided instead, in which case there is nothing to confirm. Without an installment it is about
 * the enrolment's admission fee.
 */
export function UnmarkConfirm({
  kind,
  id,
  installment,
  currency,
  pending,
  onCancel,
  onConfirm,
}: {
  kind: 'enrollment' | 'booking';
  id: string;
  installment: TInstallment | null;
  currency: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const installmentId = installment?._id;
  const preview = useQuery(
    trpc.payments.unmarkPreview.queryOptions(
      kind === 'enrollment' ? { enrollmentId: id, installmentId } : { bookingId: id, installmentId },
    ),
  );
  const plan = preview.data;
  const blocked = Boolean(plan?.blockedBy);
  const description = preview.isPending
    ? 'Checking which receipts this would void…'
    : preview.isError
      ? preview.error.message
      : plan?.message
        ? plan.message
        : plan && plan.payments.length > 0
          ? `This voids ${plan.payments.length === 1 ? 'receipt' : 'receipts'} ${plan.payments
              .map((p) => `${p.receiptNumber} (${formatMoney(p.amount, currency)})`)
              .join(', ')} with the reason "marked unpaid".`
          : `No payment is recorded against this ${installment ? 'installment' : 'admission fee'}.`;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title={installment ? 'Mark as Unpaid?' : 'Mark Admission Fee as Unpaid?'}
      description={<span data-testid="unmark-description">{description}</span>}
      confirmLabel={blocked || preview.isError ? 'Close' : 'Void and mark unpaid'}
      destructive={!blocked}
      pending={pending}
      // Cancel stays free while the receipts are looked up, so the dialog has the focus from the start.
      confirmDisabled={preview.isPending}
      onConfirm={blocked || preview.isError ? onCancel : onConfirm}
    />
  );
}

/**
 * Mark Admission Fee as Paid opens Record payment for the admission fee, prefilled with what it
 * still owes, as Mark as Paid does for an installment.
 */
export function MarkAdmissionFeePaidDialog({
  id,
  admissionFee,
  amountPaid,
  currency,
  onClose,
}: {
  id: string;
  admissionFee: number;
  amountPaid: number;
  currency: string;
  onClose: () => void;
}) {
  const left = Math.round((admissionFee - amountPaid) * 100) / 100;
  return (
    <RecordPaymentDialog
      kind="enrollment"
      id={id}
      currency={currency}
      nextDue={left}
      outstanding={left}
      onClose={onClose}
      item={{ kind: 'admission_fee', label: 'Admission fee' }}
    />
  );
}

/** Mark as Paid opens Record payment for that installment, prefilled with what it still owes. */
export function MarkPaidDialog({
  kind,
  id,
  installment,
  number,
  currency,
  onClose,
}: {
  kind: 'enrollment' | 'booking';
  id: string;
  installment: TInstallment;
  number: number;
  currency: string;
  onClose: () => void;
}) {
  const left = Math.round((installment.amount - installment.amountPaid) * 100) / 100;
  return (
    <RecordPaymentDialog
      kind={kind}
      id={id}
      currency={currency}
      nextDue={left}
      outstanding={left}
      onClose={onClose}
      item={{
        kind: kind === 'enrollment' ? 'enrollment_installment' : 'booking_installment',
        installmentId: installment._id,
        label: `Installment ${number}`,
      }}
    />
  );
}
