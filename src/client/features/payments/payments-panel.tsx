import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { NativeSelect } from '@/components/native-select';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { DatePicker } from '@/components/date-picker';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { formatMoney } from '@shared/format';
import type { PaymentMethod } from '@shared/payment-kinds';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from './payment-common';
import { invalidateMoney, PaymentsTable } from './payments-table';

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

  return (
    <Card className="mt-6" data-testid="payments-panel">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Payments</CardTitle>
        {payable && (
          <Button
            size="sm"
            disabled={Boolean(payable.closed) || payable.outstanding <= 0}
            title={payable.closed ?? (payable.outstanding <= 0 ? 'Nothing is outstanding.' : undefined)}
            onClick={() => setRecording(true)}
          >
            <PlusIcon /> Record payment
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {payments.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : payments.isError ? (
          <LoadError error={payments.error} onRetry={() => void payments.refetch()} />
        ) : (
          <PaymentsTable payments={payments.data} />
        )}
      </CardContent>
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
    </Card>
  );
}

function RecordPaymentDialog({
  kind,
  id,
  currency,
  nextDue,
  outstanding,
  onClose,
}: {
  kind: 'enrollment' | 'booking';
  id: string;
  currency: string;
  nextDue: number;
  outstanding: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const today = new Date().toLocaleDateString('en-CA');
  const [amount, setAmount] = useState(nextDue > 0 ? String(nextDue) : '');
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [reference, setReference] = useState('');
  const [day, setDay] = useState(today);
  const [error, setError] = useState<string | null>(null);
  const record = useMutation(
    trpc.payments.record.mutationOptions({
      onSuccess: async (p) => {
        toast.success(`Payment recorded: receipt ${p.receiptNumber}.`);
        onClose();
        await invalidateMoney(queryClient);
      },
      // The server's own words for 400 and 409 (more than outstanding, completed, wrong currency, future date).
      onError: (err) => setError(explainedMessage(err, 'Failed to record the payment')),
    }),
  );

  const submit = () => {
    const value = Number(amount);
    if (!amount.trim() || !Number.isFinite(value) || value <= 0) {
      setError('Amount must be greater than 0 with at most two decimals.');
      return;
    }
    setError(null);
    // Today means "now"; an earlier day is back-dated to its noon, local time.
    const receivedAt = day && day !== today ? new Date(`${day}T12:00:00`).toISOString() : undefined;
    record.mutate({
      ...(kind === 'enrollment' ? { enrollmentId: id } : { bookingId: id }),
      amount: value,
      method,
      currency,
      reference: reference.trim() || undefined,
      receivedAt,
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <DialogHeader>
            <DialogTitle>Record payment</DialogTitle>
            <DialogDescription>
              Outstanding: {formatMoney(outstanding, currency)}. The oldest unpaid items are settled first.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-1">
            <Label htmlFor="payment-amount">Amount ({currency})</Label>
            <Input
              id="payment-amount"
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor="payment-method">Method</Label>
            <NativeSelect
              id="payment-method"
              value={method}
              onChange={(e) => setMethod(e.target.value as PaymentMethod)}
            >
              {PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="space-y-1">
            <Label htmlFor="payment-reference">Reference</Label>
            <Input
              id="payment-reference"
              value={reference}
              maxLength={100}
              placeholder="Cheque or transfer number"
              onChange={(e) => setReference(e.target.value)}
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor="payment-date">Date</Label>
            <DatePicker id="payment-date" label="Date" max={today} value={day} onChange={setDay} />
          </div>
          {error && (
            <p role="alert" className="text-sm text-destructive" data-testid="payment-error">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={record.isPending}>
              {record.isPending && <Spinner />} Record payment
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
