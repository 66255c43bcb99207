import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DownloadIcon, MailIcon, BanIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { FormField, FormMessage, ZodFormElement } from '@/components/form-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { useIsAdmin } from '@/lib/auth';
import { explainedMessage } from '@/lib/errors';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { formatDateTime, formatMoney } from '@shared/format';
import { ZVoidPaymentInput } from '@shared/schemas/payments';
import { downloadFile, PAYMENT_METHOD_LABELS } from './payment-common';

export type PaymentRow = RouterOutputs['payments']['get'];

/** After a payment changes, every figure that reads the ledger is stale. */
export function invalidateMoney(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries(trpc.payments.pathFilter()),
    queryClient.invalidateQueries(trpc.enrollments.pathFilter()),
    queryClient.invalidateQueries(trpc.bookings.pathFilter()),
  ]);
}

/** The ledger's rows with their receipt, e-mail and (admins only) void actions (docs/payments.md). */
export function PaymentsTable({ payments, showPayer = false }: { payments: PaymentRow[]; showPayer?: boolean }) {
  const admin = useIsAdmin();
  const queryClient = useQueryClient();
  const [voiding, setVoiding] = useState<PaymentRow | null>(null);
  const email = useMutation(
    trpc.payments.emailReceipt.mutationOptions({
      onSuccess: () => toast.success('The receipt is on its way to the payer.'),
      onError: (err) => toast.error(explainedMessage(err, 'Failed to e-mail the receipt')),
    }),
  );

  return (
    <>
      <Table containerClassName="rounded-md border" aria-label="Payments">
        <TableHeader>
          <TableRow>
            <TableHead>Receipt</TableHead>
            <TableHead>Date</TableHead>
            {showPayer && <TableHead>Payer</TableHead>}
            {showPayer && <TableHead>For</TableHead>}
            <TableHead className="text-right">Amount</TableHead>
            <TableHead>Method</TableHead>
            <TableHead>Received by</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {payments.length === 0 && (
            <TableRow>
              <TableCell colSpan={showPayer ? 9 : 7} className="text-center text-muted-foreground">
                No payments.
              </TableCell>
            </TableRow>
          )}
          {payments.map((p) => (
            <TableRow key={p._id} data-testid="payment-row" data-status={p.status}>
              <TableCell className="font-mono text-xs" data-testid="receipt-number">
                {p.receiptNumber}
              </TableCell>
              <TableCell>{formatDateTime(p.receivedAt)}</TableCell>
              {showPayer && <TableCell>{p.payer.username ?? '—'}</TableCell>}
              {showPayer && <TableCell>{p.subject ?? '—'}</TableCell>}
              <TableCell className="text-right tabular-nums" data-testid="payment-amount">
                {formatMoney(p.amount, p.currency)}
              </TableCell>
              <TableCell>
                {PAYMENT_METHOD_LABELS[p.method]}
                {p.reference && <span className="block text-xs text-muted-foreground">{p.reference}</span>}
              </TableCell>
              <TableCell>{p.receivedBy?.username ?? 'Unknown'}</TableCell>
              <TableCell>
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
              </TableCell>
              <TableCell className="text-right">
                <div className="flex justify-end gap-1">
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Download receipt ${p.receiptNumber}`}
                    title="Download receipt (PDF)"
                    onClick={() =>
                      void downloadFile(
                        `/api/payments/${p._id}/receipt`,
                        `receipt ${p.receiptNumber}`,
                        `${p.receiptNumber}.pdf`,
                      )
                    }
                  >
                    <DownloadIcon />
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`E-mail receipt ${p.receiptNumber}`}
                    title="E-mail receipt to the payer"
                    disabled={!p.payer.email || (email.isPending && email.variables.id === p._id)}
                    onClick={() => email.mutate({ id: p._id })}
                  >
                    <MailIcon />
                  </Button>
                  {admin && p.status === 'valid' && (
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Void ${p.receiptNumber}`}
                      title="Void this payment"
                      onClick={() => setVoiding(p)}
                    >
                      <BanIcon />
                    </Button>
                  )}
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
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
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <ZodFormElement
          form={form}
          idPrefix="void"
          onValid={(values) => voidPayment.mutate(values)}
          className="space-y-4"
        >
          <DialogHeader>
            <DialogTitle>Void receipt {payment.receiptNumber}</DialogTitle>
            <DialogDescription>
              {formatMoney(payment.amount, payment.currency)} stops counting; the payment stays listed as void.
            </DialogDescription>
          </DialogHeader>
          <FormField name="reason" label="Reason">
            {(field) => <Textarea {...field} maxLength={500} />}
          </FormField>
          <FormMessage />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={voidPayment.isPending}>
              {voidPayment.isPending && <Spinner />} Void payment
            </Button>
          </DialogFooter>
        </ZodFormElement>
      </DialogContent>
    </Dialog>
  );
}
