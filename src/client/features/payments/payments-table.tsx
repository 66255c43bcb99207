import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DownloadIcon, MailIcon, BanIcon, Undo2Icon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { FormDialog } from '@/components/form-dialog';
import { FormField, FormMessage } from '@/components/form-field';
import { Handle, PersonName } from '@/components/person-name';
import { StaticList, type ListColumn } from '@/components/data-list';
import { Badge } from '@/components/ui/badge';
import { Textarea } from '@/components/ui/textarea';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { formatDateTime, formatMoney } from '@shared/format';
import { ZVoidPaymentInput } from '@shared/schemas/payments';
import { MethodWithReference } from './payment-common';
import { downloadFile } from '@/lib/download';
import type { PaymentSortColumn } from './payment-queries';
import { RefundDialog } from './refund-dialog';
import { RowIconButton } from '@/components/row-actions';

export type PaymentRow = RouterOutputs['payments']['get'];

/** After a payment changes, every figure that reads the ledger is stale. */
export function invalidateMoney(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries(trpc.payments.pathFilter()),
    queryClient.invalidateQueries(trpc.enrollments.pathFilter()),
    queryClient.invalidateQueries(trpc.bookings.pathFilter()),
    // The History panels read the audit log, which every payment, void and toggle writes to.
    queryClient.invalidateQueries(trpc.audit.pathFilter()),
    // Refunds and adjustments change what is owed and paid; a cash refund changes a till.
    queryClient.invalidateQueries(trpc.refunds.pathFilter()),
    queryClient.invalidateQueries(trpc.adjustments.pathFilter()),
    queryClient.invalidateQueries(trpc.tills.pathFilter()),
  ]);
}

/**
 * The ledger's columns with their receipt, e-mail and (admins only) void actions
 * (docs/payments.md), and the void dialog they open: the Payments list sorts by them, a
 * detail screen's panel shows them as they are.
 */
export function usePaymentColumns({ showPayer = false }: { showPayer?: boolean } = {}) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const [voiding, setVoiding] = useState<PaymentRow | null>(null);
  const [refunding, setRefunding] = useState<PaymentRow | null>(null);
  const email = useMutation(
    trpc.payments.emailReceipt.mutationOptions({
      // The server says where it went: to the payer, or only to the outbox when no provider is set.
      onSuccess: (r) => toast.success(r.message),
      onError: (err) => toast.error(explainedMessage(err, 'Failed to e-mail the receipt')),
    }),
  );
  const columns: Array<ListColumn<PaymentRow, PaymentSortColumn> | false> = [
    {
      header: 'Receipt',
      sort: 'receiptNumber',
      className: 'font-mono text-xs',
      // May wrap after its hyphens (BRA-2026-/000123) when the row's other columns need the width.
      cell: (p) => <Handle data-testid="receipt-number" text={p.receiptNumber} />,
    },
    {
      header: 'Date',
      sort: 'receivedAt',
      className: 'min-w-28 whitespace-normal',
      cell: (p) => formatDateTime(p.receivedAt),
    },
    // What it paid for under the payer, wrapping: a course's or treatment's name can be long.
    showPayer && {
      header: 'Payer',
      sort: 'payer',
      className: 'min-w-40 whitespace-normal',
      cell: (p) => (
        <>
          <PersonName fullName={p.payer.fullName} handle={p.payer.username} fallback="—" />
          <span className="block text-xs text-muted-foreground [overflow-wrap:anywhere]">{p.subject ?? '—'}</span>
        </>
      ),
    },
    {
      header: 'Amount',
      sort: 'amount',
      headClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (p) => <span data-testid="payment-amount">{formatMoney(p.amount, p.currency)}</span>,
    },
    {
      header: 'Method',
      sort: 'method',
      className: 'whitespace-normal',
      cell: (p) => <MethodWithReference method={p.method} reference={p.reference} />,
    },
    {
      header: 'Received by',
      sort: 'receivedBy',
      headClassName: 'whitespace-normal',
      className: 'whitespace-normal',
      cell: (p) => <PersonName fullName={p.receivedBy?.fullName} handle={p.receivedBy?.username} />,
    },
    { header: 'Status', sort: 'status', className: 'whitespace-normal', cell: (p) => <PaymentStatus payment={p} /> },
    {
      header: 'Actions',
      headClassName: 'text-right',
      className: 'text-right',
      cell: (p) => (
        <div className="flex justify-end gap-1">
          <RowIconButton
            icon={<DownloadIcon />}
            label={`Download receipt ${p.receiptNumber}`}
            title="Download receipt (PDF)"
            onClick={() =>
              void downloadFile(
                `/api/payments/${p._id}/receipt`,
                `receipt ${p.receiptNumber}`,
                `${p.receiptNumber}.pdf`,
              )
            }
          />
          <RowIconButton
            icon={<MailIcon />}
            label={`E-mail receipt ${p.receiptNumber}`}
            title="E-mail receipt to the payer"
            disabled={!p.payer.email || (email.isPending && email.variables.id === p._id)}
            onClick={() => email.mutate({ id: p._id })}
          />
          {admin && p.status === 'valid' && p.refundedAmount < p.amount && (
            <RowIconButton
              icon={<Undo2Icon />}
              label={`Refund ${p.receiptNumber}`}
              title="Refund this payment"
              onClick={() => setRefunding(p)}
            />
          )}
          {/* A refunded payment was really paid: it is refunded, never voided. */}
          {admin && p.status === 'valid' && p.refundedAmount === 0 && (
            <RowIconButton
              icon={<BanIcon />}
              label={`Void ${p.receiptNumber}`}
              title="Void this payment"
              onClick={() => setVoiding(p)}
            />
          )}
        </div>
      ),
    },
  ];
  const dialog = (
    <>
      {voiding && (
        <VoidDialog
          payment={voiding}
          onClose={() => setVoiding(null)}
          onVoided={() => {
            setVoiding(null);
            void invalidateMoney(queryClient);
          }}
        />
      )}
      {refunding && (
        <RefundDialog
          payment={refunding}
          onClose={() => setRefunding(null)}
          onDone={() => {
            setRefunding(null);
            void invalidateMoney(queryClient);
          }}
        />
      )}
    </>
  );
  return { columns: columns.filter((c) => c !== false), dialog };
}

/** The test ids and state of a ledger row. */
export const paymentRowProps = (p: PaymentRow) => ({ 'data-testid': 'payment-row', 'data-status': p.status });

function PaymentStatus({ payment: p }: { payment: PaymentRow }) {
  return (
    <>
      {p.status === 'void' ? (
        <Badge variant="destructive" title={p.voidReason ?? undefined} data-testid="payment-status">
          Void
        </Badge>
      ) : (
        <Badge variant="success" data-testid="payment-status">
          Valid
        </Badge>
      )}
      {p.status === 'void' && p.voidReason && (
        <span className="block text-xs text-muted-foreground">{p.voidReason}</span>
      )}
      {p.refundedAmount > 0 && (
        <span className="block text-xs text-muted-foreground" data-testid="payment-refunded">
          refunded {formatMoney(p.refundedAmount, p.currency)}
        </span>
      )}
    </>
  );
}

/** A record's payments (enrolment or booking details), as they are. */
export function PaymentsTable({ payments }: { payments: PaymentRow[] }) {
  const { columns, dialog } = usePaymentColumns();
  return (
    <>
      <StaticList label="Payments" items={payments} columns={columns} empty="No payments." rowProps={paymentRowProps} />
      {dialog}
    </>
  );
}

function VoidDialog({
  payment,
  onClose,
  onVoided,
}: {
  payment: PaymentRow;
  onClose: () => void;
  onVoided: () => void;
}) {
  const form = useZodForm(ZVoidPaymentInput, { id: payment._id, reason: '' });
  const voidPayment = useMutation(
    trpc.payments.void.mutationOptions({
      onSuccess: () => {
        toast.success(`Receipt ${payment.receiptNumber} voided.`);
        onVoided();
      },
      onError: (err) => form.failRequest(err, explainedMessage(err, 'Failed to void the payment')),
    }),
  );
  return (
    <FormDialog
      title={`Void receipt ${payment.receiptNumber}`}
      description={`${formatMoney(payment.amount, payment.currency)} stops counting; the payment stays listed as void.`}
      pending={voidPayment.isPending}
      submitLabel="Void payment"
      submitVariant="destructive"
      closeLabel="Cancel"
      onClose={onClose}
      zodForm={{ form, idPrefix: 'void', onValid: (values) => voidPayment.mutate(values) }}
    >
      <FormField name="reason" label="Reason">
        {(field) => <Textarea {...field} maxLength={500} />}
      </FormField>
      <FormMessage />
    </FormDialog>
  );
}
