import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { NativeSelect, choicesOf } from '@/components/native-select';
import { FormDialog } from '@/components/form-dialog';
import { Textarea } from '@/components/ui/textarea';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import { ZRefundBody } from '@shared/schemas/refunds';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from './payment-common';
import { downloadFile } from '@/lib/download';
import type { PaymentRow } from './payments-table';
import { LabelledField, LabelledInput } from '@/components/labelled-field';
import { CheckboxField } from '@/components/checkbox-field';

/** Saves a refund's credit note (PDF). */
export const downloadCreditNote = (r: { _id: string; creditNoteNumber: string }) =>
  downloadFile(
    `/api/refunds/${r._id}/credit-note`,
    `credit note ${r.creditNoteNumber}`,
    `credit-note-${r.creditNoteNumber}.pdf`,
  );

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Refund on a payment row (docs/payments.md#refunds), admins only: what is left to refund by
 * default, the method it went out by, and "Also waive the fee", which refunds and takes the same
 * part off the fee in one step (the record then owes what it owed before).
 */
export function RefundDialog({
  payment,
  onClose,
  onDone,
}: {
  payment: PaymentRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const left = round(payment.amount - payment.refundedAmount);
  const [amount, setAmount] = useState(String(left));
  const [method, setMethod] = useState<(typeof PAYMENT_METHODS)[number]>(payment.method);
  const [reference, setReference] = useState('');
  const [reason, setReason] = useState('');
  const [waive, setWaive] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hasRecord = Boolean(payment.enrollmentId || payment.bookingId);
  const done = (r: { _id: string; creditNoteNumber: string; amount: number; currency: string }, waived: boolean) => {
    toast.success(
      `Refunded ${formatMoney(r.amount, r.currency)}${waived ? ' and waived the fee' : ''}: credit note ${r.creditNoteNumber}.`,
      { action: { label: 'Credit note', onClick: () => void downloadCreditNote(r) } },
    );
    onDone();
  };
  const fail = (err: unknown) => setError(explainedMessage(err, 'Failed to refund the payment'));
  const refund = useMutation(trpc.refunds.create.mutationOptions({ onSuccess: (r) => done(r, false), onError: fail }));
  const refundWaived = useMutation(
    trpc.refunds.createWaived.mutationOptions({ onSuccess: (r) => done(r.refund, true), onError: fail }),
  );
  const busy = refund.isPending || refundWaived.isPending;

  const submit = () => {
    const parsed = ZRefundBody.safeParse({
      amount: amount.trim() === '' ? undefined : Number(amount),
      method,
      reference,
      reason,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the form.');
      return;
    }
    setError(null);
    const input = { paymentId: payment._id, ...parsed.data };
    if (waive) refundWaived.mutate(input);
    else refund.mutate(input);
  };

  return (
    <FormDialog
      title={`Refund receipt ${payment.receiptNumber}`}
      description={
        <>
          {formatMoney(left, payment.currency)} of {formatMoney(payment.amount, payment.currency)} is left to refund.
          The items it paid are owed again, newest first, unless the fee is waived.
        </>
      }
      className="max-h-[90dvh] overflow-y-auto"
      error={error}
      errorTestId="refund-error"
      pending={busy}
      submitLabel="Refund"
      submitVariant="destructive"
      closeLabel="Cancel"
      noValidate
      onClose={onClose}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <LabelledInput
          id="refund-amount"
          label={`Amount (${payment.currency})`}
          type="number"
          inputMode="decimal"
          min="0.01"
          max={left}
          step="0.01"
          value={amount}
          onValueChange={setAmount}
        />
        <LabelledField id="refund-method" label="Method">
          <NativeSelect
            id="refund-method"
            value={method}
            onChange={(e) => setMethod(e.target.value as typeof method)}
            choices={choicesOf(PAYMENT_METHODS, PAYMENT_METHOD_LABELS)}
          />
        </LabelledField>
      </div>
      <LabelledInput
        id="refund-reference"
        label="Reference"
        maxLength={100}
        placeholder="Transfer or cheque number"
        value={reference}
        onValueChange={setReference}
      />
      <LabelledField id="refund-reason" label="Reason">
        <Textarea id="refund-reason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      </LabelledField>
      {hasRecord && (
        <CheckboxField
          id="refund-waive"
          label="Also waive the fee"
          description="Take the refunded amount off what is owed too, as a discount, so nothing is owed again."
          checked={waive}
          onCheckedChange={setWaive}
        />
      )}
    </FormDialog>
  );
}
