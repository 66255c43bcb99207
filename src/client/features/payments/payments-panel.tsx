import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { FormField, FormMessage } from '@/components/form-field';
import { QueryView } from '@/components/query-view';
import { NativeSelect, choicesOf } from '@/components/native-select';
import { Button } from '@/components/ui/button';
import { TitledCard } from '@/components/titled-card';
import { DatePicker } from '@/components/date-picker';
import { Input } from '@/components/ui/input';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { useZodForm } from '@/lib/use-zod-form';
import { formatMoney } from '@shared/format';
import { instantAt } from '@shared/zoned-time';
import { ZRecordPaymentInput } from '@shared/schemas/payments';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from './payment-common';
import { invalidateMoney, PaymentsTable } from './payments-table';
import { RefundsTable } from './refunds-table';
import { useOrgClock, useOrgToday } from '@/lib/org-clock';

interface Owed {
  amount: number;
  amountPaid: number;
  dueDate: string;
}

/** What the ledger settles first (docs/payments.md#recording-a-payment): the oldest unpaid item's remainder. */
function nextDue(items: Owed[]): number {
  const next = [...items].sort((a, b) => a.dueDate.localeCompare(b.dueDate)).find((i) => i.amountPaid < i.amount);
  return next ? Math.round((next.amount - next.amountPaid) * 100) / 100 : 0;
}

/** The record the panel pays, read through the details screen's own (cached) query. */
function usePayable(kind: 'enrollment' | 'booking', id: string) {
  const enrollment = useQuery({ ...trpc.enrollments.get.queryOptions({ id }), enabled: kind === 'enrollment' });
  const booking = useQuery({ ...trpc.bookings.get.queryOptions({ id }), enabled: kind === 'booking' });
  if (kind === 'enrollment') {
    const e = enrollment.data;
    if (!e) return null;
    const items: Owed[] = [
      { amount: e.admissionFee, amountPaid: e.admissionFeeAmountPaid, dueDate: '' },
      ...e.installments.map((i) => ({ amount: i.amount, amountPaid: i.amountPaid, dueDate: i.dueDate })),
    ];
    return {
      currency: e.currency,
      nextDue: nextDue(items),
      outstanding: e.outstandingAmount,
      closed: e.status === 'Completed' ? 'This enrollment is completed.' : null,
    };
  }
  const b = booking.data;
  if (!b) return null;
  const outstanding = b.installments.reduce((s, i) => s + (i.amount - i.amountPaid), 0);
  return {
    currency: b.currency,
    nextDue: nextDue(b.installments),
    outstanding: Math.round(outstanding * 100) / 100,
    closed: b.status === 'cancelled' ? 'This booking is cancelled.' : null,
  };
}

/** Payments of one enrolment or booking, and the Record payment dialog (docs/payments.md). */
export function PaymentsPanel({ kind, id }: { kind: 'enrollment' | 'booking'; id: string }) {
  const payments = useQuery(
    kind === 'enrollment'
      ? trpc.payments.ofEnrollment.queryOptions({ id })
      : trpc.payments.ofBooking.queryOptions({ id }),
  );
  const payable = usePayable(kind, id);
  const [recording, setRecording] = useState(false);
  // The money that went back on these payments, with its credit notes, under them.
  const refunds = useQuery(
    trpc.refunds.list.queryOptions({
      ...(kind === 'enrollment' ? { enrollmentId: id } : { bookingId: id }),
      limit: 200,
    }),
  );

  return (
    <TitledCard
      title="Payments"
      className="mt-6"
      testId="payments-panel"
      actions={
        payable && (
          <Button
            size="sm"
            disabled={Boolean(payable.closed) || payable.outstanding <= 0}
            title={payable.closed ?? (payable.outstanding <= 0 ? 'Nothing is outstanding.' : undefined)}
            onClick={() => setRecording(true)}
          >
            <PlusIcon /> Record payment
          </Button>
        )
      }
    >
      <QueryView query={payments} placeholder="h-24 w-full">
        {(data) => <PaymentsTable payments={data} />}
      </QueryView>
      {refunds.data && refunds.data.data.length > 0 && (
        <div className="mt-4 space-y-2" data-testid="record-refunds">
          <h3 className="text-sm font-medium">Refunds</h3>
          <RefundsTable refunds={refunds.data.data} />
        </div>
      )}
      {recording && payable && (
        <RecordPaymentDialog
          kind={kind}
          id={id}
          currency={payable.currency}
          nextDue={payable.nextDue}
          outstanding={payable.outstanding}
          onClose={() => setRecording(false)}
        />
      )}
    </TitledCard>
  );
}

const { amount, method, reference } = ZRecordPaymentInput.shape;
/** The dialog's fields, checked as the server checks them; the amount is typed as text, the day becomes `receivedAt`. */
const ZPaymentForm = z.object({
  amount: z.preprocess((v) => (typeof v === 'string' ? (v.trim() ? Number(v) : undefined) : v), amount),
  method,
  reference,
  day: z.string(),
});

/** The Record payment dialog; with `item` (Mark as Paid) it pays that one item, prefilled with what it owes. */
export function RecordPaymentDialog({
  kind,
  id,
  currency,
  nextDue,
  outstanding,
  onClose,
  item,
}: {
  kind: 'enrollment' | 'booking';
  id: string;
  currency: string;
  nextDue: number;
  outstanding: number;
  onClose: () => void;
  item?: {
    kind: 'admission_fee' | 'enrollment_installment' | 'booking_installment';
    installmentId?: string;
    label: string;
  };
}) {
  const queryClient = useQueryClient();
  const today = useOrgToday();
  const timeZone = useOrgClock().data?.timeZone;
  const form = useZodForm(ZPaymentForm, {
    amount: nextDue > 0 ? String(nextDue) : '',
    method: 'cash',
    reference: '',
    day: today,
  });
  const record = useMutation(
    trpc.payments.record.mutationOptions({
      onSuccess: async (p) => {
        toast.success(`Payment recorded: receipt ${p.receiptNumber}.`);
        onClose();
        await invalidateMoney(queryClient);
      },
      // The server's own words for 400 and 409 (more than outstanding, completed, wrong currency, future date).
      onError: (err) => form.failRequest(err, explainedMessage(err, 'Failed to record the payment')),
    }),
  );

  const submit = ({ day, ...values }: z.output<typeof ZPaymentForm>) =>
    record.mutate({
      ...(kind === 'enrollment' ? { enrollmentId: id } : { bookingId: id }),
      ...values,
      ...(item ? { allocations: [{ kind: item.kind, installmentId: item.installmentId, amount: values.amount }] } : {}),
      currency,
      // Today means "now"; an earlier day is back-dated to its noon on the organisation's clock, so
      // the cash-up counts it on that day whatever zone the browser is in.
      receivedAt:
        day && day !== today
          ? (timeZone ? instantAt(timeZone, day, 12 * 60) : new Date(`${day}T12:00:00`)).toISOString()
          : undefined,
    });

  return (
    <FormDialog
      title="Record payment"
      description={
        item
          ? `${item.label}: ${formatMoney(outstanding, currency)} outstanding. Name how it was paid.`
          : `Outstanding: ${formatMoney(outstanding, currency)}. The oldest unpaid items are settled first.`
      }
      pending={record.isPending}
      submitLabel="Record payment"
      closeLabel="Cancel"
      onClose={onClose}
      zodForm={{ form, idPrefix: 'payment', onValid: submit }}
    >
      <FormField name="amount" label={`Amount (${currency})`}>
        {(field) => <Input {...field} type="number" inputMode="decimal" min="0.01" step="0.01" />}
      </FormField>
      <FormField name="method" label="Method">
        {(field) => <NativeSelect {...field} choices={choicesOf(PAYMENT_METHODS, PAYMENT_METHOD_LABELS)} />}
      </FormField>
      <FormField name="reference" label="Reference">
        {(field) => <Input {...field} maxLength={100} placeholder="Cheque or transfer number" />}
      </FormField>
      <FormField name="day" id="payment-date" label="Date">
        {(field) => <DatePicker {...field} label="Date" max={today} />}
      </FormField>
      <FormMessage />
    </FormDialog>
  );
}
