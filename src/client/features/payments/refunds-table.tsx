import { useMutation } from '@tanstack/react-query';
import { DownloadIcon, MailIcon } from 'lucide-react';
import { toast } from 'sonner';
import { StaticList, type ListColumn } from '@/components/data-list';
import { PersonName } from '@/components/person-name';
import { explainedMessage } from '@/lib/errors';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { formatDateTime, formatMoney } from '@shared/format';
import { MethodWithReference } from './payment-common';
import { downloadCreditNote } from './refund-dialog';
import { RowIconButton } from '@/components/row-actions';

type Refund = RouterOutputs['refunds']['get'];

/**
 * Refunds with their credit notes (docs/payments.md#refunds): the Payments screen's Refunds tab
 * and a record's money history. Anyone on the staff downloads or e-mails a credit note.
 */
export function RefundsTable({ refunds, showPayer = false }: { refunds: Refund[]; showPayer?: boolean }) {
  const email = useMutation(
    trpc.refunds.emailCreditNote.mutationOptions({
      onSuccess: (r) => toast.success(r.message),
      onError: (err) => toast.error(explainedMessage(err, 'Failed to e-mail the credit note')),
    }),
  );
  const columns: Array<ListColumn<Refund> | false> = [
    {
      header: 'Credit note',
      className: 'font-mono text-xs',
      // The receipt it refunds under it: one column fewer keeps the actions in view at 1360 px.
      cell: (r) => (
        <>
          <span data-testid="credit-note-number">{r.creditNoteNumber}</span>
          <span className="block text-muted-foreground">of {r.payment.receiptNumber}</span>
        </>
      ),
    },
    {
      header: 'Date',
      className: 'min-w-28 whitespace-normal',
      cell: (r) => (
        <>
          {formatDateTime(r.refundedAt)}
          <span className="block text-xs text-muted-foreground">by {r.refundedBy.username}</span>
        </>
      ),
    },
    showPayer && {
      header: 'Payer',
      className: 'min-w-40 whitespace-normal',
      cell: (r) => (
        <>
          <PersonName fullName={r.payer.fullName} handle={r.payer.username} />
          <span className="block text-xs text-muted-foreground [overflow-wrap:anywhere]">{r.subject}</span>
        </>
      ),
    },
    {
      header: 'Amount',
      headClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (r) => <span data-testid="refund-amount">{formatMoney(r.amount, r.currency)}</span>,
    },
    {
      header: 'Method',
      className: 'whitespace-normal',
      cell: (r) => <MethodWithReference method={r.method} reference={r.reference} />,
    },
    { header: 'Reason', wrap: true, cell: (r) => r.reason },
    {
      header: 'Actions',
      headClassName: 'text-right',
      className: 'text-right',
      cell: (r) => (
        <div className="flex justify-end gap-1">
          <RowIconButton
            icon={<DownloadIcon />}
            label={`Download credit note ${r.creditNoteNumber}`}
            title="Download credit note (PDF)"
            onClick={() => void downloadCreditNote(r)}
          />
          <RowIconButton
            icon={<MailIcon />}
            label={`E-mail credit note ${r.creditNoteNumber}`}
            title="E-mail credit note to the payer"
            disabled={!r.payer.email || (email.isPending && email.variables.id === r._id)}
            onClick={() => email.mutate({ id: r._id })}
          />
        </div>
      ),
    },
  ];
  return (
    <StaticList
      label="Refunds"
      items={refunds}
      columns={columns.filter((c) => c !== false)}
      empty="No refunds."
      rowProps={() => ({ 'data-testid': 'refund-row' })}
    />
  );
}
